package pipelines

import (
	"archive/tar"
	"cmp"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The release files install.sh and the Action download: goreleaser's
// snapshot when .ci/run made one (RISKGATE_SNAPSHOT_DIST names its dist
// directory), else a minimal set built here the same way — the host's
// archive, named as .goreleaser.yaml names it, and checksums.txt — so that
// these tests run on any clone.

// release is one release's files in a directory, as the release page holds
// them.
type release struct {
	dir      string
	tag      string // v1.2.3: the tag; the archives carry 1.2.3
	snapshot bool   // goreleaser's snapshot, not the minimal set
}

// archive is the name of the host's archive in r.
func (r release) archive() string {
	return hostArchive(strings.TrimPrefix(r.tag, "v"))
}

func hostArchive(version string) string {
	format := "tar.gz"
	if runtime.GOOS == "windows" {
		format = "zip"
	}
	return fmt.Sprintf("riskgate_%s_%s_%s.%s", version, runtime.GOOS, runtime.GOARCH, format)
}

var builtRelease struct {
	once sync.Once
	dir  string
	rel  release
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtRelease.dir != "" {
		os.RemoveAll(builtRelease.dir)
	}
	os.Exit(code)
}

// hostRelease returns the release files for this machine.
func hostRelease(t *testing.T) release {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("install.sh and the Action's scripts are tested on Linux and macOS")
	}
	if dist := os.Getenv("RISKGATE_SNAPSHOT_DIST"); dist != "" {
		var meta struct {
			Version string `json:"version"`
		}
		data, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
		if err == nil {
			err = json.Unmarshal(data, &meta)
		}
		if err != nil || meta.Version == "" {
			t.Fatalf("RISKGATE_SNAPSHOT_DIST=%s is not a goreleaser dist directory: %v", dist, err)
		}
		r := release{dir: dist, tag: "v" + meta.Version, snapshot: true}
		for _, f := range []string{"checksums.txt", r.archive()} {
			if _, err := os.Stat(filepath.Join(dist, f)); err != nil {
				t.Fatalf("the snapshot lacks %s: %v", f, err)
			}
		}
		return r
	}
	builtRelease.once.Do(func() {
		builtRelease.dir, builtRelease.err = os.MkdirTemp("", "riskgate-release-")
		if builtRelease.err == nil {
			builtRelease.rel, builtRelease.err = buildRelease(builtRelease.dir, "v0.0.0-test")
		}
	})
	if builtRelease.err != nil {
		t.Fatalf("building the release files: %v", builtRelease.err)
	}
	return builtRelease.rel
}

// buildRelease builds riskgate for the host as .goreleaser.yaml does
// (static, version stamped) and writes its archive and checksums.txt.
func buildRelease(dir, tag string) (release, error) {
	bin := filepath.Join(dir, "build", "riskgate")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return release{}, err
	}
	// go run, not go build -o: Go keeps the executables go run links in its
	// build cache (since Go 1.24) and go build relinks on every call — 1.3
	// CPU-s of every run of these tests. -exec cp copies the executable to
	// bin instead of running it.
	cmd := exec.Command("go", "run", "-exec", "cp",
		"-ldflags", "-s -w -X github.com/riskgate/riskgate/internal/buildinfo.version="+tag, "./cmd/riskgate", bin)
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return release{}, fmt.Errorf("go build: %v\n%s", err, out)
	}
	r := release{dir: filepath.Join(dir, tag), tag: tag}
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		return release{}, err
	}
	if err := writeTarGz(filepath.Join(r.dir, r.archive()), bin); err != nil {
		return release{}, err
	}
	return r, writeChecksums(r.dir)
}

func writeTarGz(name, bin string) error {
	data, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	defer f.Close()
	// Stored, not deflated: install.sh and the Action gunzip it all the
	// same. Deflating the 30 MB binary took 1.4 CPU-s of every run of these
	// tests at the default level (12.7 MB), 0.4 at the fastest (14.2 MB),
	// more than the stored archive's longer downloads and checksums cost
	// (the package alone -short: 7.4 CPU-s with the fastest, 7.0 stored).
	gz, err := gzip.NewWriterLevel(f, gzip.NoCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: "riskgate", Mode: 0o755, Size: int64(len(data))}); err != nil {
		return err
	}
	if _, err := tw.Write(data); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return f.Close()
}

// writeChecksums writes dir/checksums.txt over the archives in dir, in
// sha256sum's format as goreleaser does.
func writeChecksums(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".tar.gz") && !strings.HasSuffix(e.Name(), ".zip") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(data), e.Name())
	}
	return os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte(b.String()), 0o644)
}

// standInRelease is a release of tag whose archive holds the stub riskgate
// (stubRiskgate: it records its arguments) instead of the 30 MB binary,
// with its checksums.txt: for the tests of what install.sh and the Action
// do with the release files — refusing tampered ones, finding the release a
// moving tag marks — which never ask the installed riskgate to compute
// anything. Each install of the real archive costs ≈ 0.5 CPU-s (gunzip,
// sha256sum, the download); the stand-in's, a few milliseconds.
func standInRelease(t *testing.T, tag string) release {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("install.sh and the Action's scripts are tested on Linux and macOS")
	}
	r := release{dir: t.TempDir(), tag: tag}
	bin := filepath.Join(t.TempDir(), "riskgate")
	if err := os.WriteFile(bin, []byte(stubRiskgate), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeTarGz(filepath.Join(r.dir, r.archive()), bin); err != nil {
		t.Fatal(err)
	}
	if err := writeChecksums(r.dir); err != nil {
		t.Fatal(err)
	}
	return r
}

// releaseServer stands for the GitHub releases page on 127.0.0.1:
// /releases/download/TAG/FILE, /releases/latest redirecting to
// /releases/tag/TAG, and the repository's tags for `git ls-remote` over
// git's dumb HTTP protocol (/info/refs).
type releaseServer struct {
	*httptest.Server
	releases map[string]release // by tag
	latest   string
	refs     string // info/refs: "SHA\trefs/tags/NAME" lines

	mu       sync.Mutex
	requests []string
}

func newReleaseServer(t *testing.T, rels ...release) *releaseServer {
	t.Helper()
	s := &releaseServer{releases: map[string]release{}}
	for _, r := range rels {
		s.releases[r.tag] = r
		s.latest = r.tag
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// url is the releases URL install.sh and the Action are given.
func (s *releaseServer) url() string { return s.URL + "/releases" }

func (s *releaseServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.URL.Path)
	s.mu.Unlock()
	switch p := r.URL.Path; {
	case p == "/releases/latest":
		http.Redirect(w, r, "/releases/tag/"+s.latest, http.StatusFound)
	case strings.HasPrefix(p, "/releases/tag/"):
		fmt.Fprintln(w, "release page")
	case strings.HasPrefix(p, "/releases/download/"):
		tag, file, _ := strings.Cut(strings.TrimPrefix(p, "/releases/download/"), "/")
		rel, ok := s.releases[tag]
		if !ok || file == "" || strings.Contains(file, "/") {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, filepath.Join(rel.dir, file))
	case p == "/info/refs" && s.refs != "":
		fmt.Fprint(w, s.refs)
	default:
		http.NotFound(w, r)
	}
}

func (s *releaseServer) downloads() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var d []string
	for _, p := range s.requests {
		if strings.HasPrefix(p, "/releases/download/") {
			d = append(d, strings.TrimPrefix(p, "/releases/download/"))
		}
	}
	return d
}

// shells are the POSIX shells install.sh is run with: dash (Debian's sh),
// bash and sh, where present — each program once: where sh is dash (a link
// to it, as on Debian), install.sh is not run with the same program twice.
func shells(t *testing.T) []string {
	var found []string
	seen := map[string]string{} // program → the name it was found as
	for _, sh := range []string{"dash", "bash", "sh"} {
		p, err := exec.LookPath(sh)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if first, ok := seen[p]; ok {
			t.Logf("%s is %s (%s): install.sh runs with it once", sh, first, p)
			continue
		}
		seen[p] = sh
		found = append(found, sh)
	}
	if len(found) == 0 {
		t.Skip("no POSIX shell")
	}
	if !slices.Contains(found, "dash") {
		t.Log("dash is not installed: install.sh runs with bash and sh only")
	}
	return found
}

// runInstall runs install.sh with sh, the releases URL and args, and
// returns its exit status and output.
func runInstall(t *testing.T, sh, releasesURL string, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(sh, append([]string{mustAbs(t, filepath.Join(repoRoot, "install.sh"))}, args...)...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "RISKGATE_RELEASES_URL="+releasesURL, "RISKGATE_INSTALL_DIR=")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

func installedVersion(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("%s --version: %v\n%s", bin, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestInstallScriptInstallsTheRelease(t *testing.T) {
	t.Parallel()
	rel := hostRelease(t)
	t.Logf("release %s from %s (goreleaser snapshot: %v)", rel.tag, rel.dir, rel.snapshot)
	want := []string{rel.tag + "/checksums.txt", rel.tag + "/" + rel.archive()}
	shs := shells(t)
	for i, sh := range shs {
		for j, version := range []string{rel.tag, ""} { // "": the latest release
			t.Run(sh+"/"+cmp.Or(version, "latest"), func(t *testing.T) {
				// Each install costs ≈ 0.5 CPU-s (gunzip, sha256sum):
				// -short runs each shell with one of the two, in turn, so
				// that every shell and both run; the full suite, all pairs.
				if testing.Short() && len(shs) > 1 && j != i%2 {
					t.Skipf("-short runs %s with the %s only: each shell with one of the tag and the latest, in turn", sh, []string{"tag", "latest"}[i%2])
				}
				t.Parallel()
				srv := newReleaseServer(t, rel)
				bin := filepath.Join(t.TempDir(), "bin")
				args := []string{"-b", bin}
				if version != "" {
					args = append(args, version)
				}
				code, out := runInstall(t, sh, srv.url(), nil, args...)
				if code != 0 {
					t.Fatalf("install.sh: exit %d\n%s", code, out)
				}
				if got, want := installedVersion(t, filepath.Join(bin, "riskgate")), "riskgate version "+rel.tag; got != want {
					t.Errorf("installed riskgate prints %q, want %q", got, want)
				}
				if d := srv.downloads(); !slices.Equal(d, want) {
					t.Errorf("downloads %q, want %q", d, want)
				}
			})
		}
	}
}

// Without curl, install.sh downloads with wget, and replaces the riskgate
// installed before.
func TestInstallScriptWithWget(t *testing.T) {
	t.Parallel()
	rel := hostRelease(t)
	if _, err := exec.LookPath("wget"); err != nil {
		t.Skip("wget is not installed")
	}
	// A PATH with the commands install.sh uses, and no curl.
	path := t.TempDir()
	for _, c := range []string{"sh", "uname", "grep", "awk", "sed", "mktemp", "rm", "tar", "gzip", "sha256sum", "cut", "tr", "wc", "mkdir", "cp", "mv", "chmod", "tail", "wget"} {
		p, err := exec.LookPath(c)
		if err != nil {
			t.Skipf("%s is not installed", c)
		}
		os.Symlink(p, filepath.Join(path, c))
	}
	srv := newReleaseServer(t, rel)
	bin := filepath.Join(t.TempDir(), "bin")
	os.MkdirAll(bin, 0o755)
	if err := os.WriteFile(filepath.Join(bin, "riskgate"), []byte("#!/bin/sh\necho riskgate version v0.0.1-before\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{rel.tag, "latest"} {
		// Each install costs ≈ 0.5 CPU-s (gunzip, sha256sum); installing
		// the latest downloads with wget as installing the tag does, after
		// finding the tag with wget.
		if testing.Short() && version != "latest" {
			t.Logf("-short installs the latest only, which downloads as installing %s does", version)
			continue
		}
		code, out := runInstall(t, "sh", srv.url(), []string{"PATH=" + path}, "-b", bin, version)
		if code != 0 {
			t.Fatalf("install.sh %s with wget: exit %d\n%s", version, code, out)
		}
		if got := installedVersion(t, filepath.Join(bin, "riskgate")); got != "riskgate version "+rel.tag {
			t.Errorf("installed riskgate prints %q", got)
		}
	}
}

// A download that does not match checksums.txt installs nothing and leaves
// an earlier riskgate as it was.
func TestInstallScriptRefusesTampering(t *testing.T) {
	t.Parallel()
	rel := standInRelease(t, "v1.2.3") // what is refused is the download, whatever it holds
	for _, c := range []struct {
		name    string
		change  func(t *testing.T, r release)
		version string
		want    string
	}{
		{"archive", func(t *testing.T, r release) {
			p := filepath.Join(r.dir, r.archive())
			data, _ := os.ReadFile(p)
			data[len(data)/2] ^= 0x01
			os.WriteFile(p, data, 0o644)
		}, "", "checksum mismatch for " + rel.archive()},
		{"checksum", func(t *testing.T, r release) {
			p := filepath.Join(r.dir, "checksums.txt")
			data, _ := os.ReadFile(p)
			var lines []string
			for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				if strings.HasSuffix(l, " "+r.archive()) {
					l = strings.Repeat("0", 64) + "  " + r.archive()
				}
				lines = append(lines, l)
			}
			os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		}, "", "checksum mismatch for " + rel.archive()},
		{"unlisted", func(t *testing.T, r release) {
			os.WriteFile(filepath.Join(r.dir, "checksums.txt"), []byte(strings.Repeat("a", 64)+"  riskgate_other.tar.gz\n"), 0o644)
		}, "", "has no single SHA-256 for " + rel.archive()},
		{"listed-twice", func(t *testing.T, r release) {
			p := filepath.Join(r.dir, "checksums.txt")
			data, _ := os.ReadFile(p)
			os.WriteFile(p, append(data, []byte(strings.Repeat("b", 64)+"  "+r.archive()+"\n")...), 0o644)
		}, "", "has no single SHA-256 for " + rel.archive()},
		{"no-checksums", func(t *testing.T, r release) {
			os.Remove(filepath.Join(r.dir, "checksums.txt"))
		}, "", "could not download"},
		{"no-archive", func(t *testing.T, r release) {
			os.Remove(filepath.Join(r.dir, r.archive()))
		}, "", "could not download"},
		{"not-a-version", func(*testing.T, release) {}, "main; touch pwned", `is not a release version`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := standInRelease(t, rel.tag)
			c.change(t, r)
			srv := newReleaseServer(t, r)
			for _, sh := range shells(t) {
				bin := filepath.Join(t.TempDir(), "bin")
				os.MkdirAll(bin, 0o755)
				os.WriteFile(filepath.Join(bin, "riskgate"), []byte("the riskgate installed before\n"), 0o755)
				fresh := filepath.Join(t.TempDir(), "fresh", "bin")
				for _, dir := range []string{bin, fresh} {
					code, out := runInstall(t, sh, srv.url(), nil, "-b", dir, cmp.Or(c.version, r.tag))
					if code == 0 || !strings.Contains(out, c.want) {
						t.Errorf("%s: exit %d, want non-zero with %q; output:\n%s", sh, code, c.want, out)
					}
				}
				entries, _ := os.ReadDir(bin)
				data, _ := os.ReadFile(filepath.Join(bin, "riskgate"))
				if len(entries) != 1 || string(data) != "the riskgate installed before\n" {
					t.Errorf("%s: the install directory changed: %v", sh, entries)
				}
				if _, err := os.Stat(filepath.Dir(fresh)); !os.IsNotExist(err) {
					t.Errorf("%s: a failed install created %s", sh, fresh)
				}
			}
		})
	}
}

// The install script follows the shell standard: shellcheck (when
// installed) finds nothing in it, as a POSIX sh script.
func TestInstallScriptShellcheck(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("shellcheck"); err != nil {
		t.Skip("shellcheck is not installed (Debian: apt-get install shellcheck)")
	}
	out, err := exec.Command("shellcheck", "--shell=sh", filepath.Join(repoRoot, "install.sh")).CombinedOutput()
	if err != nil {
		t.Errorf("shellcheck install.sh: %v\n%s", err, out)
	}
}
