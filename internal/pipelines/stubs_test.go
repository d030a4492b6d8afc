package pipelines

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the repository, from this package's directory.
const repoRoot = "../.."

// fakeToken stands for a token in the environment; no test output may show it.
const fakeToken = "ghs_pipelinesFAKEtoken0123456789abcdefXYZ"

// stubRiskgate records its arguments (one per line, then a line "--end--")
// and whether GITHUB_TOKEN was set (never its value), writes the reports into
// --out, writes the step outputs when run with --github, and exits with
// $STUB_EXIT. Asked for its --version (as pre-deploy.sh asks an installed
// riskgate), it prints "riskgate version $STUB_VERSION" and records nothing.
const stubRiskgate = `#!/bin/sh
if [ "$*" = --version ]; then
	echo "riskgate version ${STUB_VERSION:-v0.0.0-stub}"
	exit 0
fi
log="$STUB_LOG/riskgate.args"
out=""
github=no
prev=""
for a in "$@"; do
	printf '%s\n' "$a" >> "$log"
	[ "$prev" = "--out" ] && out="$a"
	[ "$a" = "--github" ] && github=yes
	prev="$a"
done
echo "--end--" >> "$log"
if [ -n "${GITHUB_TOKEN:-}" ]; then echo yes > "$STUB_LOG/token-set"; else echo no > "$STUB_LOG/token-set"; fi
verdict="${STUB_VERDICT:-pass}"
if [ -n "$out" ]; then
	mkdir -p "$out"
	printf '{"verdict": "%s"}\n' "$verdict" > "$out/result.json"
	printf '## riskgate: %s\n' "$verdict" > "$out/report.md"
	printf '<testsuites/>\n' > "$out/junit.xml"
fi
if [ "$github" = yes ] && [ -n "${GITHUB_OUTPUT:-}" ]; then
	{
		echo "verdict=$verdict"
		echo "report-json=$out/result.json"
		echo "report-md=$out/report.md"
	} >> "$GITHUB_OUTPUT"
fi
echo "riskgate stub: $verdict"
exit "${STUB_EXIT:-0}"
`

// stubGo answers "go env GOPATH" and "go install ...": it records the
// arguments and the directory, and installs the stub riskgate in GOBIN (or
// GOPATH/bin). With STUB_GO_FAIL set it stands for a runner without Go: it
// records the call and fails.
const stubGo = `#!/bin/sh
if [ -n "${STUB_GO_FAIL:-}" ]; then
	{ printf '%s\n' "$@"; echo "--end--"; } >> "$STUB_LOG/go.args"
	echo "stub go: there is no Go toolchain here" >&2
	exit 127
fi
case "$1" in
env)
	[ "$2" = GOPATH ] && echo "$STUB_GOPATH"
	;;
install)
	{ printf '%s\n' "$@"; echo "cwd=$(pwd)"; echo "--end--"; } >> "$STUB_LOG/go.args"
	bin="${GOBIN:-$STUB_GOPATH/bin}"
	mkdir -p "$bin"
	cp "$STUB_DIR/riskgate-stub" "$bin/riskgate"
	chmod +x "$bin/riskgate"
	;;
*)
	echo "stub go: unexpected $*" >&2
	exit 2
	;;
esac
`

// stubCurl records its arguments, writes --output (-o) files, and exits with
// $STUB_CURL_EXIT. A download of install.sh is recorded apart (in
// curl-install.args: the recipes' install step) and always succeeds: the
// file it writes is stubInstall.
const stubCurl = `#!/bin/sh
log="$STUB_LOG/curl.args"
out=""
prev=""
for a in "$@"; do
	case "$prev" in --output | -o) out="$a" ;; esac
	case "$a" in */install.sh) log="$STUB_LOG/curl-install.args" ;; esac
	prev="$a"
done
printf '%s\n' "$@" "--end--" >> "$log"
if [ "$log" = "$STUB_LOG/curl-install.args" ]; then
	cp "$STUB_DIR/install-stub.sh" "$out"
	exit 0
fi
[ -n "$out" ] && echo "system,topic,score" > "$out"
exit "${STUB_CURL_EXIT:-0}"
`

// stubInstall stands for riskgate's install.sh (install.sh -b DIR VERSION):
// it records its arguments and installs the stub riskgate in DIR.
const stubInstall = `#!/bin/sh
printf '%s\n' "$@" "--end--" >> "$STUB_LOG/install.args"
dir=""
while [ $# -gt 0 ]; do
	case "$1" in
	-b) dir="$2"; shift 2 ;;
	*) shift ;;
	esac
done
mkdir -p "$dir" && cp "$STUB_DIR/riskgate-stub" "$dir/riskgate" && chmod +x "$dir/riskgate"
`

// sandbox is a work directory with the stubs first on PATH.
type sandbox struct {
	t      *testing.T
	root   string
	dir    string // the working directory
	stubs  string
	log    string
	gopath string
	env    map[string]string

	actionRef string            // github.action_ref for runAction; "main" unless set
	cache     map[string]string // actions/cache: key → the saved directory
}

func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	root := t.TempDir()
	s := &sandbox{t: t, root: root, dir: filepath.Join(root, "work"), stubs: filepath.Join(root, "stubs"),
		log: filepath.Join(root, "log"), gopath: filepath.Join(root, "gopath"), actionRef: "main", cache: map[string]string{}}
	for _, d := range []string{s.dir, s.stubs, s.log, filepath.Join(s.gopath, "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range map[string]string{"go": stubGo, "curl": stubCurl, "riskgate-stub": stubRiskgate, "install-stub.sh": stubInstall} {
		if err := os.WriteFile(filepath.Join(s.stubs, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.env = map[string]string{
		"PATH":        s.stubs + ":/usr/local/bin:/usr/bin:/bin",
		"HOME":        root,
		"STUB_LOG":    s.log,
		"STUB_DIR":    s.stubs,
		"STUB_GOPATH": s.gopath,
		"LANG":        "C.UTF-8",
	}
	return s
}

// installRiskgate puts the stub riskgate on PATH, for recipes that assume
// it is installed.
func (s *sandbox) installRiskgate() {
	data, _ := os.ReadFile(filepath.Join(s.stubs, "riskgate-stub"))
	if err := os.WriteFile(filepath.Join(s.stubs, "riskgate"), data, 0o755); err != nil {
		s.t.Fatal(err)
	}
}

// unstub removes a stub, so that the real command on PATH runs (or none).
func (s *sandbox) unstub(name string) {
	if err := os.Remove(filepath.Join(s.stubs, name)); err != nil {
		s.t.Fatal(err)
	}
}

func (s *sandbox) write(name, text string) {
	p := filepath.Join(s.dir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// run runs a command in the work directory with the sandbox's environment
// plus extra, and returns its exit status and combined output.
func (s *sandbox) run(extra map[string]string, name string, args ...string) (int, string) {
	s.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = s.dir
	for k, v := range s.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	for k, v := range extra {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		}
		s.t.Fatalf("%s: %v", name, err)
	}
	return 0, string(out)
}

// calls reads a stub's log: one argument list per call.
func (s *sandbox) calls(stub string) [][]string {
	data, err := os.ReadFile(filepath.Join(s.log, stub+".args"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		s.t.Fatal(err)
	}
	var out [][]string
	var cur []string
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "--end--" {
			out = append(out, cur)
			cur = nil
			continue
		}
		cur = append(cur, line)
	}
	return out
}

func (s *sandbox) tokenSet() string {
	data, _ := os.ReadFile(filepath.Join(s.log, "token-set"))
	return strings.TrimSpace(string(data))
}

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
