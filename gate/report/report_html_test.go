package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/golden"
	"github.com/riskgate/riskgate/internal/svgplot"
)

// Tests of the HTML report. Results are synthetic (report_html_fixture_test.go)
// so that every section and every plot is exercised; the browser test below
// also renders the report of a real run (riskgate gate --example).

// renderHTML renders the report of r.
func renderHTML(t testing.TB, r *result.Result) string {
	t.Helper()
	var b bytes.Buffer
	if err := HTML(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// smallResult is the fixture of the golden files: three challengers, one of
// them with a hostile name, six artifacts, eight topics, risk-adjusted fits
// at w = 2 and 5.
func smallResult() *result.Result {
	return synthResult(synthConfig{challengers: []string{"Chal. 1", hostileName, "Chal. 3"}, artifacts: 6, topics: 8, weights: []float64{2, 5}, seed: 7})
}

func TestHTMLReportGolden(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		r    *result.Result
	}{
		// Every section and every plot.
		{"html_full.golden", smallResult()},
		// A policy without Bayesian rules: each plot is replaced by a sentence.
		{"html_no_bayes.golden", synthResult(synthConfig{challengers: []string{"Chal. 1", "Chal. 2"}, artifacts: 3, topics: 6, noBayes: true, seed: 3})},
		// The raw fit ran, the risk-adjusted one could not.
		{"html_brisk_unavailable.golden", synthResult(synthConfig{challengers: []string{"Chal. 1", "Chal. 2"}, artifacts: 4, topics: 6, weights: []float64{5},
			briskMsg: "BRisk is not available in this build", seed: 5})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { golden.Check(t, filepath.Join("testdata", c.name), []byte(renderHTML(t, c.r))) })
	}
}

// The same Result gives the same bytes, and so does the Result read back
// from its result.json (as riskgate publish does).
func TestHTMLReportDeterministic(t *testing.T) {
	t.Parallel()
	r := synthResult(synthConfig{challengers: []string{"Chal. 1", "Chal. 2", hostileName}, artifacts: 20, topics: 30, weights: []float64{2, 5, 10}, seed: 11})
	a, b := renderHTML(t, r), renderHTML(t, r)
	if a != b {
		t.Fatal("two renderings of the same Result differ")
	}
	var js bytes.Buffer
	if err := result.WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	back, err := result.Read("result.json", js.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if c := renderHTML(t, back); c != a {
		t.Fatal("the report of the Result read back from result.json differs from the original's")
	}
}

// expectedPlots are the ids of the figures of the page of r that hold a plot.
func expectedPlots(r *result.Result) []string {
	pg := buildHTMLPage(r, htmlDefaultLimits)
	var ids []string
	for _, f := range append(append(append(slices.Clone(pg.DiffPlots), pg.SystemsFig, pg.TopicsFig, pg.LossWeight), pg.Predictive...), pg.Densities...) {
		if f.SVG != "" {
			ids = append(ids, f.ID)
		}
	}
	return ids
}

// hostileResult has hostile names in every place a name can come from.
func hostileResult() *result.Result {
	topicNames := func(j int) string {
		if j == 2 {
			return "<svg onload=alert(3)>" // cut to 20 runes in the plots
		}
		return fmt.Sprint(401 + j)
	}
	r := synthResult(synthConfig{champion: "<script>alert(1)</script>", challengers: []string{hostileName, "Chal. 2"}, artifacts: 5, topics: 10,
		weights: []float64{5}, seed: 13, topicNames: topicNames, artifactFmt: "<img src=y onerror=alert(%d)>"})
	r.Data.Measure = "<b>map</b>"
	r.Decision.Reason = "ship <img src=z> now"
	return r
}

func TestHTMLReportEscapesNames(t *testing.T) {
	t.Parallel()
	r := hostileResult()
	page := renderHTML(t, r)
	lower := strings.ToLower(page)
	for _, bad := range []string{"<img", "<script", "<b>map", "javascript:"} {
		if i := strings.Index(lower, bad); i >= 0 {
			t.Errorf("the page holds %q unescaped: …%s…", bad, page[max(i-80, 0):min(i+80, len(page))])
		}
	}
	// The only <svg> elements are the plots (the topic named "<svg …>" is text).
	if got, want := strings.Count(lower, "<svg"), len(expectedPlots(r)); got != want {
		t.Errorf("%d <svg> elements, want %d (one per plot)", got, want)
	}
	// The names are shown, escaped, in the tables and inside the plots.
	esc := "@octocat &lt;img src=x&gt; | `rm -rf`"
	if !strings.Contains(page, "<strong>"+esc+"</strong>") {
		t.Errorf("the rules table does not show the challenger's name escaped as %q", esc)
	}
	svgText := regexp.MustCompile(`(?s)<text [^>]*>([^<]*)</text>`)
	seen := map[string]bool{}
	for _, m := range svgText.FindAllStringSubmatch(page, -1) {
		seen[m[1]] = true
	}
	for _, want := range []string{esc, "&lt;script&gt;alert(1)&lt;/script&gt; (champion)", "&lt;svg onload=alert(3…", "&lt;img src=y onerror=alert(1)&gt;"} {
		if !seen[want] {
			t.Errorf("no SVG text %q in the plots", want)
		}
	}
}

// The page references nothing outside itself: no src, no link but to an
// element of the page, no URL in its CSS.
func TestHTMLReportSelfContained(t *testing.T) {
	t.Parallel()
	for name, r := range map[string]*result.Result{"full": smallResult(), "hostile": hostileResult()} {
		t.Run(name, func(t *testing.T) { checkSelfContained(t, renderHTML(t, r)) })
	}
}

var (
	attrRef = regexp.MustCompile(`(?i)<[a-z][^<>]*?\s(src|href|xlink:href|action|srcset|poster|data)\s*=\s*"([^"]*)"`)
	idAttr  = regexp.MustCompile(`\sid="([^"]*)"`)
)

// checkSelfContained fails on any reference to something outside the page:
// an attribute that loads or links anything but an element of the page, or
// a URL anywhere.
func checkSelfContained(t *testing.T, page string) {
	t.Helper()
	ids := map[string]bool{}
	for _, m := range idAttr.FindAllStringSubmatch(page, -1) {
		ids[m[1]] = true
	}
	for _, m := range attrRef.FindAllStringSubmatch(page, -1) {
		attr, v := strings.ToLower(m[1]), m[2]
		if attr != "href" || !strings.HasPrefix(v, "#") {
			t.Errorf("external reference %s=%q", attr, v)
			continue
		}
		if !ids[v[1:]] {
			t.Errorf("broken in-page link href=%q: no element has id %q", v, v[1:])
		}
	}
	lower := strings.ToLower(page)
	for _, bad := range []string{"http://", "https://", "url(", "@import", "<link", "<script", "<iframe", "<object", "<embed", "<img"} {
		if strings.Contains(lower, bad) {
			t.Errorf("the page contains %q", bad)
		}
	}
}

func TestHTMLReportMissingPlots(t *testing.T) {
	t.Parallel()
	page := renderHTML(t, synthResult(synthConfig{challengers: []string{"Chal. 1"}, artifacts: 3, topics: 6, noBayes: true, seed: 3}))
	// Only the difference plot, of observed scores, is drawn without a fit.
	if n := strings.Count(page, "<svg"); n != 1 || !strings.Contains(figureHTML(t, page, "fig-diff-1"), "<svg") {
		t.Errorf("a run without Bayesian fits has %d plots; want only the difference plot", n)
	}
	for _, want := range []string{
		`<figure id="fig-systems">`, `<figure id="fig-topics">`, `<figure id="fig-loss-weight">`,
		"No Bayesian fit on the raw scores in this run: no rule of the policy uses a bayes.* or rope.* quantity and no BRisk fit at w = 1 was made (a brisk.* or topics_at_risk rule with the risk sweep makes one), so there are no system effects to draw.",
		"No risk-adjusted (BRisk) fit in this run: no rule of the policy uses a brisk.* or topics_at_risk quantity.",
		"so there are no predictive intervals to draw.", "so there are no posterior densities to draw.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}

	page = renderHTML(t, synthResult(synthConfig{challengers: []string{"Chal. 1"}, artifacts: 4, topics: 6, weights: []float64{5}, briskMsg: "BRisk is not available in this build", seed: 5}))
	for _, want := range []string{
		`<figure id="fig-loss-weight">`, "No risk-adjusted (BRisk) fit to draw: at w = 5, BRisk is not available in this build.",
		"Topics at risk come from a risk-adjusted (BRisk) fit; none is marked here. No risk-adjusted (BRisk) fit to draw",
		`<figure id="fig-systems">`, `<figure id="fig-predictive-1"`, `<figure id="fig-density-1"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := strings.Count(page, "<svg"); n != 5 {
		t.Errorf("%d plots, want 5 (differences, systems, topics, one predictive, one density)", n)
	}
}

// The page stays small for the paper's pool (45 systems × 50 topics, three
// loss weights) and for a pool of 1,000 systems, whose forest plot draws a
// sample of the artifacts and a summary row but every challenger.
func TestHTMLReportSizes(t *testing.T) {
	t.Parallel()
	rb04 := synthResult(synthConfig{challengers: []string{"Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"}, artifacts: 40, topics: 50, weights: []float64{2, 5, 10}, seed: 17})
	page := renderHTML(t, rb04)
	t.Logf("45 systems × 50 topics, 4 fits: %d bytes", len(page))
	if len(page) > 1_000_000 {
		t.Errorf("the page of a 45 × 50 pool is %d bytes, want ≤ 1 MB", len(page))
	}

	chals := []string{"Chal. 1", "Chal. 2", hostileName, "Chal. 4"}
	big := synthResult(synthConfig{challengers: chals, artifacts: 995, topics: 50, weights: []float64{5}, seed: 19})
	page = renderHTML(t, big)
	t.Logf("1,000 systems × 50 topics, 2 fits: %d bytes", len(page))
	if len(page) > 1_000_000 {
		t.Errorf("the page of a 1,000-system pool is %d bytes, want ≤ 1 MB", len(page))
	}
	forest := figureHTML(t, page, "fig-systems")
	for _, name := range append([]string{"Champion (champion)"}, chals...) {
		if !strings.Contains(forest, ">"+strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(name)+"</text>") {
			t.Errorf("the forest plot does not draw %q", name)
		}
	}
	for _, want := range []string{">all 995 artifacts (means)</text>", ">#1 art-", "995 artifacts: 60 of them are drawn, evenly spread by rank"} {
		if !strings.Contains(forest, want) {
			t.Errorf("the forest plot lacks %q", want)
		}
	}
	if n := strings.Count(forest, ">#"); n != maxForestArtifacts {
		t.Errorf("the forest plot draws %d artifacts, want %d", n, maxForestArtifacts)
	}

	// Many challengers: every rule row, plots for the first 12.
	var many []string
	for i := range 30 {
		many = append(many, fmt.Sprintf("cand-%02d", i+1))
	}
	page = renderHTML(t, synthResult(synthConfig{challengers: many, artifacts: 10, topics: 20, weights: []float64{5}, seed: 23}))
	// A challenger's cell of the rules table (the summary's starts with its swatch).
	if n := len(regexp.MustCompile(`<td rowspan="\d+" class="name"><strong>`).FindAllString(page, -1)); n != 30 {
		t.Errorf("the rules table has %d challengers, want 30", n)
	}
	if !strings.Contains(page, "Plots are drawn for 12 of the 30 challengers") || strings.Contains(page, `id="fig-predictive-13"`) {
		t.Error("the per-challenger plots are not capped at 12 with a note")
	}
	forest = figureHTML(t, page, "fig-systems")
	for _, c := range many {
		if !strings.Contains(forest, ">"+c+"</text>") {
			t.Errorf("the forest plot does not draw challenger %s", c)
		}
	}
}

// figureHTML returns the figure with the given id.
func figureHTML(t *testing.T, page, id string) string {
	t.Helper()
	i := strings.Index(page, `<figure id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no figure %s", id)
	}
	j := strings.Index(page[i:], "</figure>")
	return page[i : i+j]
}

func BenchmarkHTMLReport(b *testing.B) {
	r := synthResult(synthConfig{challengers: []string{"Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"}, artifacts: 40, topics: 50, weights: []float64{2, 5, 10}, seed: 17})
	b.ReportAllocs()
	for b.Loop() {
		var buf bytes.Buffer
		if err := HTML(&buf, r); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSpread(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n, k int
		want []int
	}{
		{5, 10, []int{0, 1, 2, 3, 4}},
		{10, 4, []int{0, 3, 6, 9}},
		{995, 60, nil},
	} {
		got := svgplot.Spread(c.n, c.k)
		if c.want != nil && fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("spread(%d, %d) = %v, want %v", c.n, c.k, got, c.want)
		}
		if len(got) != min(c.n, c.k) || got[0] != 0 || got[len(got)-1] != c.n-1 {
			t.Errorf("spread(%d, %d) = %v: want %d indices from 0 to %d", c.n, c.k, got, min(c.n, c.k), c.n-1)
		}
		for i := 1; i < len(got); i++ {
			if got[i] <= got[i-1] {
				t.Errorf("spread(%d, %d) = %v: not increasing", c.n, c.k, got)
			}
		}
	}
}

// The plots' SVG is an element for the page: no XML prologue, our root tag
// (its aria-label escaped), the font with its fallbacks.
func TestInlineSVG(t *testing.T) {
	t.Parallel()
	p := svgplot.New()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	p.Y.Tick.Marker = svgplot.NominalTicks([]string{"a <b>"})
	svg, err := svgplot.Render(p, 200, 100, `x "<y>"`)
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	if !strings.HasPrefix(s, `<svg class="plot" viewBox="0 0 200 100" width="200" height="100" role="img" aria-label="x &#34;&lt;y&gt;&#34;">`) {
		t.Errorf("root tag: %.200s", s)
	}
	for _, bad := range []string{"<?xml", "<!--", "xmlns", svgplot.FontFamily} {
		if strings.Contains(s, bad) {
			t.Errorf("the SVG contains %q", bad)
		}
	}
	if !strings.Contains(s, ">a &lt;b&gt;</text>") || !strings.Contains(s, svgplot.FontFallback) || !strings.HasSuffix(s, "</svg>\n") {
		t.Errorf("the SVG lacks its escaped label, its font fallbacks or its end: %s", s)
	}
}

// The forest plot's rows, top to bottom: the champion (wherever it is in the
// data), the challengers in data order, the artifacts best first; beyond
// maxForestArtifacts, artifacts spread by rank and a summary row.
func TestForestRows(t *testing.T) {
	t.Parallel()
	var systems []result.Effect
	for i := range 100 {
		systems = append(systems, normalEffect(fmt.Sprintf("a%03d", i), result.RoleArtifact, float64(i), 1))
	}
	systems = append(systems, normalEffect("c2", result.RoleChallenger, -5, 1), normalEffect("champ", result.RoleChampion, 0, 1))
	systems = append([]result.Effect{normalEffect("c1", result.RoleChallenger, 50, 1)}, systems...)
	rows, arts, drawn := forestRows(systems)
	if arts != 100 || drawn != maxForestArtifacts || len(rows) != 3+maxForestArtifacts+1 {
		t.Fatalf("%d rows, %d artifacts, %d drawn; want %d rows, 100 artifacts, %d drawn", len(rows), arts, drawn, 3+maxForestArtifacts+1, maxForestArtifacts)
	}
	var labels []string
	for _, r := range rows {
		labels = append(labels, r.label)
	}
	want := []string{"champ (champion)", "c1", "c2", "#1 a099", "#3 a097"}
	if fmt.Sprint(labels[:5]) != fmt.Sprint(want) {
		t.Errorf("rows start %q, want %q", labels[:5], want)
	}
	if last := rows[len(rows)-1]; last.label != "all 100 artifacts (means)" || last.item.Lo != 0 || last.item.Hi != 99 || last.item.Mid != 49.5 {
		t.Errorf("summary row %q [%g, %g] mid %g, want all 100 artifacts (means) [0, 99] mid 49.5", last.label, last.item.Lo, last.item.Hi, last.item.Mid)
	}
	if rows[len(rows)-2].label != "#100 a000" {
		t.Errorf("the last artifact drawn is %q, want the worst, #100 a000", rows[len(rows)-2].label)
	}
}

// With the default policy no rule needs the raw-score fit, but the risk
// sweep fits BRisk at w = 1 — the same model on the same scores — so
// report.html draws Benham et al.'s Figure 4 from it and says so (it said
// "No Bayesian fit in this run" beside diagnostics listing four BRisk fits:
// issue 30 item 2).
func TestHTMLFigure4FromBRiskAtW1(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "gate", "example.result.json.golden"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := result.Read("result.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if r.Bayes != nil {
		t.Fatal("the example's default policy now needs the raw-score fit: this test no longer tests the fallback")
	}
	page := renderHTML(t, r)
	for _, id := range []string{"fig-systems", "fig-topics"} {
		fig := figureHTML(t, page, id)
		if !strings.Contains(fig, "<svg") || !strings.Contains(fig, "From BRisk&#39;s fit at w = 1") {
			t.Errorf("%s is not drawn from BRisk's fit at w = 1:\n%.600s", id, fig)
		}
	}
	if strings.Contains(page, "No Bayesian fit") {
		t.Error("the page says there is no Bayesian fit")
	}
}
