package pipelines

import (
	"archive/tar"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The container image, built from Containerfile with podman where podman
// works (Debian's podman and runc do on the development machine), the
// release binary laid out as goreleaser lays it out ($TARGETPLATFORM/riskgate).
// The base is scratch unless RISKGATE_CONTAINER_BASE names another: the
// release's distroless base lives in a registry tests do not reach.
func TestContainerImage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a container image")
	}
	podman, err := exec.LookPath("podman")
	if err != nil {
		t.Skip("no container builder: podman is not installed (Debian: apt-get install podman runc); the release workflow builds the image with docker buildx")
	}
	if out, err := exec.Command(podman, "info").CombinedOutput(); err != nil {
		t.Skipf("podman does not work here: %v\n%s", err, out)
	}
	rel := hostRelease(t)
	if runtime.GOOS != "linux" {
		t.Skip("the image holds the linux binary")
	}
	platform := "linux/" + runtime.GOARCH
	ctx := t.TempDir()
	extractBinary(t, filepath.Join(rel.dir, rel.archive()), filepath.Join(ctx, platform, "riskgate"))

	image := fmt.Sprintf("localhost/riskgate-test:%d", time.Now().UnixNano())
	base := cmp.Or(os.Getenv("RISKGATE_CONTAINER_BASE"), "scratch")
	build := exec.Command(podman, "build", "--layers=false", "--platform", platform, "-f", mustAbs(t, filepath.Join(repoRoot, "Containerfile")),
		"--build-arg", "BASE="+base, "--build-arg", "VERSION="+rel.tag, "--build-arg", "REVISION=0123abc", "-t", image, ctx)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("podman build: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command(podman, "rmi", "-f", image).Run() })

	out, err := exec.Command(podman, "image", "inspect", "--format", "{{json .Config}}", image).Output()
	if err != nil {
		t.Fatalf("podman image inspect: %v", err)
	}
	var config struct {
		User       string
		Entrypoint []string
		Labels     map[string]string
	}
	if err := json.Unmarshal(out, &config); err != nil {
		t.Fatalf("image config %s: %v", out, err)
	}
	if config.User != "65532:65532" || !slices.Equal(config.Entrypoint, []string{"riskgate"}) {
		t.Errorf("image runs %q as %q; want riskgate as the non-root 65532", config.Entrypoint, config.User)
	}
	for label, want := range map[string]string{
		"org.opencontainers.image.version":  rel.tag,
		"org.opencontainers.image.source":   "https://github.com/riskgate/riskgate",
		"org.opencontainers.image.revision": "0123abc",
		"org.opencontainers.image.title":    "riskgate",
	} {
		if got := config.Labels[label]; got != want {
			t.Errorf("label %s = %q, want %q", label, got, want)
		}
	}

	// Running needs an OCI runtime that works in this machine's sandbox:
	// crun, or runc, with limits no higher than the machine's own.
	runArgs := []string{"run", "--rm", "--network=none", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"}
	var tried []string
	for _, runtimeArgs := range [][]string{nil, {"--runtime", "runc"}} {
		args := append(slices.Clone(runArgs), runtimeArgs...)
		out, err := exec.Command(podman, append(args, image, "--version")...).CombinedOutput()
		if err != nil {
			tried = append(tried, fmt.Sprintf("podman %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out))))
			continue
		}
		if got := strings.TrimSpace(string(out)); got != "riskgate version "+rel.tag {
			t.Errorf("riskgate --version in the image: %q", got)
		}
		out, err = exec.Command(podman, append(args, image, "gate", "--example")...).CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "riskgate gate: PASS") {
			t.Errorf("riskgate gate --example in the image: %v\n%s", err, out)
		}
		t.Logf("built %s on %s and ran riskgate gate --example in it (podman %s)", image, base, strings.Join(args, " "))
		return
	}
	t.Skipf("podman built the image (labels, user and entrypoint checked) but cannot run a container here:\n%s", strings.Join(tried, "\n"))
}

// extractBinary writes the riskgate binary of a .tar.gz release archive
// to dst.
func extractBinary(t *testing.T, archive, dst string) {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			t.Fatalf("%s holds no riskgate", archive)
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Name != "riskgate" {
			continue
		}
		os.MkdirAll(filepath.Dir(dst), 0o755)
		out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(out, tr); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
		return
	}
}
