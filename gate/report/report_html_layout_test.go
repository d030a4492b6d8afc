package report

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/svgplot"
)

// Issue 30, item 6: at 1,200 px the Rules table's Outcome column sat behind
// a horizontal scroll bar, rule descriptions wrapped into rows about 300 px
// tall, and per-topic tick labels were too small to read. Chromium loads
// report.html at 1,200 and 800 px and a probe script measures the layout:
// the summary's and the rules' table containers do not scroll sideways
// (scrollWidth ≤ clientWidth) and every header, Outcome included, is inside
// them; no rule row is taller than maxRuleRow, no summary row than
// maxSummaryRow; and every text of the per-topic plots (differences, topic
// effects, predictions: the topic names under their axes, their ticks and
// titles) is drawn at least minTickPx tall (its computed font size times the
// SVG's scale on screen, from getScreenCTM).
//
// The probe is not in the page: the test writes a copy whose
// Content-Security-Policy also allows one inline script, and adds it.

const (
	minTickPx = 10
)

// maxRuleRow is the tallest a row of rule results may be at a width: a rule
// whose description and query wrap to four lines each (four lines of 13 px
// text are 76 px; with the cell's padding and the severity line, ~110 px)
// at 1,200 px, and more room at 800 px, where columns are narrower.
var maxRuleRow = map[int]float64{1200: 120, 800: 180}

// maxSummaryRow is the tallest a challenger's row of the summary may be:
// numbers on one line, a long name on two (the reason why is the row below,
// across the table).
const maxSummaryRow = 60.0

// layoutProbe measures what the test checks and writes it, as JSON, into a
// <pre id="riskgate-layout-probe"> at the end of the page. TOPICS is the
// JSON list of the topic labels the plots draw.
const layoutProbe = `<script>
(function () {
  var out = {viewport: window.innerWidth, pageScrollWidth: document.documentElement.scrollWidth, tables: {}, ticks: {count: 0, minPx: 0, maxPx: 0}};
  ["summary", "rules", "segments"].forEach(function (c) {
    var t = document.querySelector("section#" + c + " table"); // the section's first table
    if (!t) { return; }
    var box = t.parentElement, right = box.getBoundingClientRect().right;
    var heads = [];
    t.querySelectorAll("thead th").forEach(function (th) { heads.push({text: th.textContent, right: th.getBoundingClientRect().right}); });
    var rows = [];
    t.querySelectorAll("tbody tr:not(.why)").forEach(function (tr) { rows.push(tr.getBoundingClientRect().height); });
    out.tables[c] = {scrollWidth: box.scrollWidth, clientWidth: box.clientWidth, containerRight: right,
      tableRight: t.getBoundingClientRect().right, heads: heads, rowHeights: rows};
  });
  var topics = TOPICS, min = 0, max = 0, n = 0, names = 0;
  document.querySelectorAll("figure[id^=fig-diff-] svg text, figure#fig-topics svg text, figure[id^=fig-predictive-] svg text, figure[id^=fig-segments-] svg text").forEach(function (el) {
    var m = el.getScreenCTM(), px = parseFloat(getComputedStyle(el).fontSize) * Math.sqrt(m.a * m.a + m.b * m.b);
    if (n === 0 || px < min) { min = px; }
    if (px > max) { max = px; }
    n++;
    if (topics.indexOf(el.textContent) >= 0) { names++; }
  });
  out.ticks = {count: n, topicNames: names, minPx: min, maxPx: max};
  var pre = document.createElement("pre");
  pre.id = "riskgate-layout-probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
`

// layout is what the probe measured.
type layout struct {
	Viewport        float64 `json:"viewport"`
	PageScrollWidth float64 `json:"pageScrollWidth"`
	Tables          map[string]struct {
		ScrollWidth    float64 `json:"scrollWidth"`
		ClientWidth    float64 `json:"clientWidth"`
		ContainerRight float64 `json:"containerRight"`
		TableRight     float64 `json:"tableRight"`
		Heads          []struct {
			Text  string  `json:"text"`
			Right float64 `json:"right"`
		} `json:"heads"`
		RowHeights []float64 `json:"rowHeights"`
	} `json:"tables"`
	Ticks struct {
		Count      int     `json:"count"`
		TopicNames int     `json:"topicNames"`
		MinPx      float64 `json:"minPx"`
		MaxPx      float64 `json:"maxPx"`
	} `json:"ticks"`
}

var probeOutput = regexp.MustCompile(`(?s)<pre id="riskgate-layout-probe">(.*?)</pre>`)

// probePage writes page with the probe into dir and returns its path.
func probePage(t *testing.T, dir, page string, topics []string) string {
	t.Helper()
	const csp = "default-src 'none';"
	if strings.Count(page, csp) != 1 || strings.Count(page, "</body>") != 1 {
		t.Fatal("the page's Content-Security-Policy or </body> is not where the probe expects it")
	}
	labels := make([]string, len(topics))
	for i, tp := range topics {
		labels[i] = svgplot.Label(tp, 20) // as the plots write them
	}
	js, _ := json.Marshal(labels)
	page = strings.Replace(page, csp, csp+" script-src 'unsafe-inline';", 1)
	page = strings.Replace(page, "</body>", strings.Replace(layoutProbe, "TOPICS", string(js), 1)+"</body>", 1)
	p := filepath.Join(dir, "probe.html")
	if err := os.WriteFile(p, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHTMLReportLayoutInChromium(t *testing.T) {
	bin := chromiumBinary(t)
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "gate", "example.result.json.golden"))
	if err != nil {
		t.Fatal(err)
	}
	example, err := result.Read("result.json", data)
	if err != nil {
		t.Fatal(err)
	}
	pages := []struct {
		name string
		r    *result.Result
	}{
		// A real run: riskgate gate --example's result, 3 challengers, 50 topics.
		{"example", example},
		// Every plot and a hostile challenger name; 4 challengers, 50 topics.
		{"synthetic", synthResult(synthConfig{challengers: []string{"Chal. 1", "Chal. 2", hostileName, "Chal. 4"}, artifacts: 40, topics: 50,
			weights: []float64{2, 5, 10}, seed: 29})},
		// Rules per segment (issue 26): by origin, segment tables and figures.
		{"segmented", segmentedOrigin()},
	}
	for _, pg := range pages {
		for _, width := range []int{1200, 800} {
			t.Run(fmt.Sprintf("%s/%dpx", pg.name, width), func(t *testing.T) {
				t.Parallel() // Chromium mostly waits
				if testing.Short() && (pg.name == "example" || width != 800) {
					t.Skip("a Chromium run each (about 1 CPU-s); -short lays out the synthetic pages, every plot, a hostile name and segments, at 800 px, the narrower width")
				}
				page := probePage(t, t.TempDir(), renderHTML(t, pg.r), pg.r.Data.Topics)
				dom := string(runChromium(t, bin, "--dump-dom", fmt.Sprintf("--window-size=%d,2400", width), "file://"+page))
				m := probeOutput.FindStringSubmatch(dom)
				if m == nil {
					t.Fatalf("the probe wrote nothing (%d bytes of DOM)", len(dom))
				}
				var l layout
				if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &l); err != nil {
					t.Fatalf("the probe's output %q: %v", m[1], err)
				}
				checkLayout(t, width, l)
			})
		}
	}
}

func checkLayout(t *testing.T, width int, l layout) {
	t.Helper()
	if l.Viewport != float64(width) {
		t.Fatalf("the viewport is %v px wide, want %d", l.Viewport, width)
	}
	if l.PageScrollWidth > l.Viewport {
		t.Errorf("the page scrolls sideways: %v px wide in a %v px window", l.PageScrollWidth, l.Viewport)
	}
	for _, name := range []string{"summary", "rules", "segments"} {
		tb, ok := l.Tables[name]
		if !ok && name == "segments" {
			continue // a run without by: rules
		}
		if !ok {
			t.Errorf("no %s table", name)
			continue
		}
		tallest := 0.0
		for _, h := range tb.RowHeights {
			tallest = max(tallest, h)
		}
		t.Logf("%d px: %s table: container scrollWidth %v, clientWidth %v; table right %v, container right %v; %d rows, the tallest %.0f px",
			width, name, tb.ScrollWidth, tb.ClientWidth, tb.TableRight, tb.ContainerRight, len(tb.RowHeights), tallest)
		if tb.ScrollWidth > tb.ClientWidth {
			t.Errorf("%s table: its container scrolls sideways (scrollWidth %v > clientWidth %v)", name, tb.ScrollWidth, tb.ClientWidth)
		}
		for _, h := range tb.Heads {
			if h.Right > tb.ContainerRight+0.5 {
				t.Errorf("%s table: the %q column ends at %v px, past its container's %v px", name, h.Text, h.Right, tb.ContainerRight)
			}
		}
		if name == "segments" && tallest > maxSummaryRow {
			t.Errorf("segments table: a segment's row is %.0f px tall, want at most %.0f px (its rules are a row of their own)", tallest, maxSummaryRow)
		}
		if name == "summary" && tallest > maxSummaryRow {
			t.Errorf("summary table: a challenger's row is %.0f px tall, want at most %.0f px (its why is a row of its own)", tallest, maxSummaryRow)
		}
		if name == "rules" {
			if !containsHead(tb.Heads, "Outcome") {
				t.Error("the rules table has no Outcome column")
			}
			if tallest > maxRuleRow[width] {
				t.Errorf("rules table: a row is %.0f px tall, want at most %.0f px", tallest, maxRuleRow[width])
			}
		}
	}
	t.Logf("%d px: %d texts in the per-topic plots (%d of them topic names), %.2f to %.2f px", width, l.Ticks.Count, l.Ticks.TopicNames, l.Ticks.MinPx, l.Ticks.MaxPx)
	if l.Ticks.TopicNames == 0 {
		t.Error("no topic name found under the per-topic plots' axes")
	} else if l.Ticks.MinPx < minTickPx {
		t.Errorf("texts of the per-topic plots are drawn %.2f px tall, want at least %d px", l.Ticks.MinPx, minTickPx)
	}
}

func containsHead(heads []struct {
	Text  string  `json:"text"`
	Right float64 `json:"right"`
}, text string) bool {
	for _, h := range heads {
		if h.Text == text {
			return true
		}
	}
	return false
}
