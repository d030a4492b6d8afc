package pipelines

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The names install.sh and the Action build must be the names goreleaser
// writes; the snapshot tests check them end to end, this checks the
// configuration they come from.
func TestGoreleaserConfig(t *testing.T) {
	t.Parallel()
	var c struct {
		Version int `yaml:"version"`
		Builds  []struct {
			Main    string   `yaml:"main"`
			Binary  string   `yaml:"binary"`
			Env     []string `yaml:"env"`
			Ldflags []string `yaml:"ldflags"`
			Goos    []string `yaml:"goos"`
			Goarch  []string `yaml:"goarch"`
		} `yaml:"builds"`
		Archives []struct {
			Formats         []string `yaml:"formats"`
			NameTemplate    string   `yaml:"name_template"`
			FormatOverrides []struct {
				Goos    string   `yaml:"goos"`
				Formats []string `yaml:"formats"`
			} `yaml:"format_overrides"`
		} `yaml:"archives"`
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
			Algorithm    string `yaml:"algorithm"`
		} `yaml:"checksum"`
		DockersV2 []struct {
			Dockerfile string            `yaml:"dockerfile"`
			Platforms  []string          `yaml:"platforms"`
			BuildArgs  map[string]string `yaml:"build_args"`
		} `yaml:"dockers_v2"`
	}
	if err := yaml.Unmarshal([]byte(readRepoFile(t, ".goreleaser.yaml")), &c); err != nil {
		t.Fatal(err)
	}
	if c.Version != 2 || len(c.Builds) != 1 || len(c.Archives) != 1 || len(c.DockersV2) != 1 {
		t.Fatalf("want goreleaser v2 with one build, one archive and one image: %+v", c)
	}
	b := c.Builds[0]
	if b.Main != "./cmd/riskgate" || b.Binary != "riskgate" || !slices.Contains(b.Env, "CGO_ENABLED=0") ||
		!slices.Equal(b.Goos, []string{"linux", "darwin", "windows"}) || !slices.Equal(b.Goarch, []string{"amd64", "arm64"}) {
		t.Errorf("build: %+v; want static riskgate for linux, darwin, windows on amd64, arm64", b)
	}
	if !strings.Contains(strings.Join(b.Ldflags, " "), "-X github.com/riskgate/riskgate/internal/buildinfo.version=v{{ .Version }}") {
		t.Errorf("ldflags %q do not stamp internal/buildinfo.version", b.Ldflags)
	}
	a := c.Archives[0]
	if a.NameTemplate != "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}" || !slices.Equal(a.Formats, []string{"tar.gz"}) ||
		len(a.FormatOverrides) != 1 || a.FormatOverrides[0].Goos != "windows" || !slices.Equal(a.FormatOverrides[0].Formats, []string{"zip"}) {
		t.Errorf("archives: %+v; want riskgate_<version>_<os>_<arch>.tar.gz, .zip on windows", a)
	}
	if c.Checksum.NameTemplate != "checksums.txt" || c.Checksum.Algorithm != "sha256" {
		t.Errorf("checksum: %+v", c.Checksum)
	}
	if !strings.Contains(readRepoFile(t, "install.sh"), `archive="riskgate_${version}_${os}_${arch}.${format}"`) {
		t.Error("install.sh does not name archives as .goreleaser.yaml does")
	}
	d := c.DockersV2[0]
	containerfile := readRepoFile(t, d.Dockerfile)
	for arg := range d.BuildArgs {
		if !strings.Contains(containerfile, "ARG "+arg) {
			t.Errorf("%s does not take the build argument %s", d.Dockerfile, arg)
		}
	}
	for _, want := range []string{"COPY ${TARGETPLATFORM}/riskgate ", `ENTRYPOINT ["riskgate"]`, "USER 65532:65532",
		"org.opencontainers.image.version=\"${VERSION}\"", "org.opencontainers.image.source="} {
		if !strings.Contains(containerfile, want) {
			t.Errorf("%s lacks %q", d.Dockerfile, want)
		}
	}
}

// The release workflow runs on release tags only, with the goreleaser
// version CI checks the configuration with.
func TestReleaseWorkflow(t *testing.T) {
	t.Parallel()
	w := loadWorkflow(t, "release.yml")
	var on struct {
		Push struct {
			Tags     []string `yaml:"tags"`
			Branches []string `yaml:"branches"`
		} `yaml:"push"`
	}
	if err := w.On.Decode(&on); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(on.Push.Tags, []string{"v[0-9]+.[0-9]+.[0-9]+*"}) || on.Push.Branches != nil {
		t.Errorf("release.yml runs on %+v; want release tags only", on)
	}
	if w.Permissions["contents"] != "write" || w.Permissions["packages"] != "write" || len(w.Permissions) != 2 {
		t.Errorf("permissions %v; want contents and packages write, nothing else", w.Permissions)
	}
	checkout := w.Jobs["release"].Steps[0]
	if !strings.HasPrefix(checkout.Uses, "actions/checkout@") || checkout.With["fetch-depth"] != "0" {
		t.Errorf("the release needs every tag: first step %+v", checkout)
	}
	release := stepNamed(t, w, "release", "Release")
	pinned := regexp.MustCompile(`\ngoreleaser_version=(v[0-9.]+)\n`).FindStringSubmatch(readRepoFile(t, ".ci/run"))
	if pinned == nil || !strings.Contains(readRepoFile(t, ".ci/run"), `go install "github.com/goreleaser/goreleaser/v2@${goreleaser_version}"`) {
		t.Fatal(".ci/run must install a pinned goreleaser through the Go module proxy")
	}
	if !strings.HasPrefix(release.Uses, "goreleaser/goreleaser-action@") || release.With["version"] != pinned[1] ||
		release.With["args"] != "release --clean" {
		t.Errorf("release step %+v; want goreleaser %s, as .ci/run", release, pinned[1])
	}
}

// The major tag moves to a release only when it is the newest final
// release of that major; run against a real repository and its remote.
func TestReleaseMovesTheMajorTag(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	script := stepNamed(t, loadWorkflow(t, "release.yml"), "release", "Move the major tag").Run
	root := t.TempDir()
	origin, clone := filepath.Join(root, "origin.git"), filepath.Join(root, "clone")
	env := append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(root, "init", "-q", "--bare", origin)
	git(root, "clone", "-q", origin, clone)
	commits := map[string]string{}
	for _, tag := range []string{"v1.0.0", "v1.1.0", "v1.0.1", "v1.2.0-rc.1", "v2.0.0"} {
		git(clone, "commit", "-q", "--allow-empty", "-m", tag)
		git(clone, "tag", "-a", "-m", tag, tag)
		commits[tag] = git(clone, "rev-parse", "HEAD")
	}
	git(clone, "push", "-q", "origin", "HEAD:refs/heads/main", "--tags")

	remoteTag := func(tag string) string {
		out := git(clone, "ls-remote", "origin", "refs/tags/"+tag, "refs/tags/"+tag+"^{}")
		if out == "" {
			return ""
		}
		lines := strings.Split(out, "\n")
		return strings.Fields(lines[len(lines)-1])[0] // the peeled commit when annotated
	}
	// want: the release the major tag marks after tag's release.
	for _, c := range []struct{ tag, major, want string }{
		{"v1.0.0", "v1", ""}, // not the newest: v1.1.0 exists
		{"v1.1.0", "v1", "v1.1.0"},
		{"v1.0.1", "v1", "v1.1.0"}, // a fix to an older line
		{"v1.2.0-rc.1", "v1", "v1.1.0"},
		{"v2.0.0", "v2", "v2.0.0"},
	} {
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
		cmd.Dir, cmd.Env = clone, append(env, "TAG="+c.tag)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.tag, err, out)
		}
		want := commits[c.want] // "" where the major marks nothing
		if got := remoteTag(c.major); got != want {
			t.Errorf("after %s: %s is at %q, want %q (%s)\n%s", c.tag, c.major, got, want, c.want, out)
		}
	}
}
