package report

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/shared"
	"github.com/riskgate/riskgate/internal/svgplot"
)

// The HTML report in a real browser: headless Chromium (Debian's chromium)
// loads report.html from disk, and the test checks the DOM it built — the
// page parsed, every plot is an <svg> in its figure, nothing refers outside
// the page, no injected element — and a screenshot — the plots were painted.
//
// Without Chromium the test is skipped, unless RISKGATE_REQUIRE_CHROMIUM is
// set, as .ci/run sets it after installing Chromium: CI never skips it.

// chromiumBinary returns the path of Chromium, or skips the test.
func chromiumBinary(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const msg = "no headless Chromium on PATH (Debian: apt-get install -y chromium): the HTML report's browser test did not run"
	if os.Getenv("RISKGATE_REQUIRE_CHROMIUM") != "" {
		t.Fatal(msg + ", and RISKGATE_REQUIRE_CHROMIUM is set")
	}
	shared.Skip(t, shared.MissingChromium, msg)
	return ""
}

// runChromium runs headless Chromium with a fresh profile, no network
// services and args, and returns its standard output.
func runChromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	profile, err := os.MkdirTemp("", "riskgate-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	// Chromium's helper processes may write to the profile for a moment
	// after it exits; a failure to remove it is no failure of the test.
	defer os.RemoveAll(profile)
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--disable-extensions", "--hide-scrollbars", "--user-data-dir=" + profile}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+profile)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, lastLines(stderr.String(), 20))
	}
	return stdout.Bytes()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

func TestHTMLReportInChromium(t *testing.T) {
	bin := chromiumBinary(t)
	dir := t.TempDir()

	// A synthetic run with every plot (four fits, 45 systems × 50 topics)
	// and a hostile challenger name.
	synth := synthResult(synthConfig{challengers: []string{"Chal. 1", "Chal. 2", hostileName, "Chal. 4"}, artifacts: 40, topics: 50,
		weights: []float64{2, 5, 10}, seed: 29})
	synthPage := filepath.Join(dir, "synthetic", "report.html")
	if err := os.MkdirAll(filepath.Dir(synthPage), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(synthPage, []byte(renderHTML(t, synth)), 0o644); err != nil {
		t.Fatal(err)
	}

	// A real run: the result riskgate gate --example wrote (the CLI's
	// golden result.json), rendered as the gate renders it.
	data, err := os.ReadFile(filepath.Join("..", "testdata", "gate", "example.result.json.golden"))
	if err != nil {
		t.Fatal(err)
	}
	example, err := result.Read("result.json", data)
	if err != nil {
		t.Fatal(err)
	}
	examplePage := filepath.Join(dir, "example", "report.html")
	if err := os.MkdirAll(filepath.Dir(examplePage), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(examplePage, []byte(renderHTML(t, example)), 0o644); err != nil {
		t.Fatal(err)
	}

	shotDir := dir
	if keep := os.Getenv("RISKGATE_HTML_SCREENSHOT_DIR"); keep != "" {
		shotDir = keep
	}
	for _, c := range []struct {
		name, page string
		r          *result.Result
	}{{"synthetic", synthPage, synth}, {"example", examplePage, example}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // Chromium mostly waits: the two pages load side by side
			if testing.Short() && c.name != "synthetic" {
				t.Skip("a Chromium run of 1280 × 7200 px with a screenshot (about 2 CPU-s); -short renders the synthetic page, which has every plot")
			}
			shot := filepath.Join(shotDir, "report-"+c.name+".png")
			dom := string(runChromium(t, bin, "--dump-dom", "--window-size=1280,7200", "--screenshot="+shot, "file://"+c.page))
			if !strings.Contains(dom, "<h1>riskgate: ") || !strings.Contains(dom, `<section id="provenance">`) {
				t.Fatalf("Chromium did not render the page (%d bytes of DOM): %.300s", len(dom), dom)
			}
			want := expectedPlots(c.r)
			if len(want) == 0 {
				t.Fatal("the run has no plot to check")
			}
			if got := strings.Count(strings.ToLower(dom), "<svg"); got != len(want) {
				t.Errorf("the rendered DOM has %d <svg> elements, want %d (%v)", got, len(want), want)
			}
			for _, id := range want {
				if fig := figureHTML(t, dom, id); !strings.Contains(fig, "<svg") || !strings.Contains(fig, "<path") {
					t.Errorf("figure %s has no drawn <svg> in the rendered DOM", id)
				}
			}
			checkSelfContained(t, dom)
			img := decodeScreenshot(t, shot) // once: a 1280 × 7200 PNG for both checks
			checkScreenshot(t, shot, img)
			checkDiffPlots(t, dom, shot, img, c.r)
		})
	}
}

// checkScreenshot checks that the screenshot of a page shows its plots: it
// has thousands of pixels in the colours of the champion's and the
// challengers' intervals, where the legends alone have a few hundred.
func checkScreenshot(t *testing.T, shot string, rgba *image.RGBA) {
	t.Helper()
	b := rgba.Bounds()
	if b.Dx() != 1280 || b.Dy() != 7200 {
		t.Fatalf("the screenshot is %v, want 1280 × 7200", b)
	}
	n := countNear(rgba, []color.RGBA{svgplot.Champion, svgplot.Challenger})
	blue, orange := n[0], n[1]
	t.Logf("screenshot %s: %d champion-blue and %d challenger-orange pixels", shot, blue, orange)
	if blue < 2000 || orange < 2000 {
		t.Errorf("the screenshot has %d champion-blue and %d challenger-orange pixels, want ≥ 2000 each: the plots were not painted", blue, orange)
	}
}

// countNear counts, for each of colors, the pixels of img near it and near
// no earlier one. A pixel the same as the one before it is counted as that
// one was: the screenshot is mostly runs of one colour.
func countNear(img *image.RGBA, colors []color.RGBA) []int {
	counts := make([]int, len(colors))
	var last [3]uint8
	lastK := -2 // no pixel yet
	for i := 0; i+3 < len(img.Pix); i += 4 {
		px := [3]uint8(img.Pix[i : i+3])
		if lastK == -2 || px != last {
			last, lastK = px, -1
			for k, c := range colors {
				if nearColor(px[:], c) {
					lastK = k
					break
				}
			}
		}
		if lastK >= 0 {
			counts[lastK]++
		}
	}
	return counts
}

// nearColor reports whether an RGB pixel is within 24/255 of c in every channel.
func nearColor(px []uint8, c color.RGBA) bool {
	d := func(a, b uint8) bool { return int(a)-int(b) > -24 && int(a)-int(b) < 24 }
	return d(px[0], c.R) && d(px[1], c.G) && d(px[2], c.B)
}

// checkDiffPlots checks the per-topic difference plots: one per challenger
// in the DOM, drawn (its bars are <path> elements, and the screenshot has
// thousands of pixels of the loss colour, which nothing else on the page
// uses), and every challenger in its own colour (distinct colours, each with
// hundreds of pixels on screen: its wins in the difference plot, its
// intervals, its densities).
func checkDiffPlots(t *testing.T, dom, shot string, img *image.RGBA, r *result.Result) {
	t.Helper()
	for i := range r.Data.Challengers {
		id := fmt.Sprintf("fig-diff-%d", i+1)
		fig := figureHTML(t, dom, id)
		if !strings.Contains(fig, "<svg") || strings.Count(fig, "<path") < len(r.Data.Topics) {
			t.Errorf("difference plot %s is not drawn: %d paths for %d topics", id, strings.Count(fig, "<path"), len(r.Data.Topics))
		}
	}
	colors := []color.RGBA{svgplot.Loss}
	for i := range r.Data.Challengers {
		c := svgplot.ChallengerColor(i)
		for _, prev := range colors {
			if nearColor([]uint8{c.R, c.G, c.B}, prev) {
				t.Errorf("challenger %d's colour %v is near %v", i+1, c, prev)
			}
		}
		colors = append(colors, c)
	}
	counts := countNear(img, colors)
	t.Logf("screenshot %s: %d loss-colour pixels; per challenger %v", shot, counts[0], counts[1:])
	if counts[0] < 2000 {
		t.Errorf("%d pixels of the loss colour: the difference plots' losses were not painted", counts[0])
	}
	for k, n := range counts[1:] {
		if n < 500 {
			t.Errorf("challenger %s has %d pixels of its colour, want ≥ 500", r.Data.Challengers[k], n)
		}
	}
}

// decodeScreenshot reads a screenshot as RGBA (Chromium writes RGB or
// RGBA; one form to scan).
func decodeScreenshot(t *testing.T, shot string) *image.RGBA {
	t.Helper()
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, img.Bounds(), img, img.Bounds().Min, draw.Src)
	return rgba
}
