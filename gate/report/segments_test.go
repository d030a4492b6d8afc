package report

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/golden"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/mdcheck"
	"github.com/riskgate/riskgate/policies"
)

// Tests of the reports of rules per segment (issue 26) on the segmented
// fixture (segments_fixture_test.go): by origin, Chal. 1 failing in
// robust04, Chal. 2 inconclusive in robust03, pooled differences set.

// Every report file and the terminal table of the segmented fixture, byte
// for byte (regenerate with go test ./gate/report -update, and read the diff).
func TestSegmentedReportsGolden(t *testing.T) {
	t.Parallel()
	r := segmentedOrigin()
	files, err := Files(r)
	if err != nil {
		t.Fatal(err)
	}
	// result.json is not kept (187 kB of synthetic fits): the round trip
	// below reads it back.
	for _, name := range []string{"report.md", "junit.xml", "report.html"} {
		golden.Check(t, filepath.Join("testdata", "segments."+name+".golden"), files[name])
	}
	var table bytes.Buffer
	Text(&table, r, false)
	golden.Check(t, filepath.Join("testdata", "segments.table.golden"), table.Bytes())
}

// The summary names each challenger's worst segment: a failing one before
// an inconclusive one, and the rules that make it so.
func TestSummaryWorstSegment(t *testing.T) {
	t.Parallel()
	r := segmentedOrigin()
	sum := result.NewSummary(r)
	want := map[string]struct {
		segment string
		outcome policies.Outcome
		rules   string
	}{
		"Chal. 1": {"robust04", policies.OutcomeFail, "every-origin-non-inferior,no-origin-harmed"},
		"Chal. 2": {"robust03", policies.OutcomeInconclusive, "every-origin-non-inferior"},
	}
	for _, s := range sum {
		ws, w := s.WorstSegment, want[s.Challenger]
		if ws == nil || ws.Dimension != "origin" || ws.Segment != w.segment || ws.Outcome != w.outcome || strings.Join(ws.Rules, ",") != w.rules {
			t.Errorf("%s: worst segment %+v, want %+v", s.Challenger, ws, w)
		}
	}
	var b strings.Builder
	Text(&b, r, false)
	line := "  worst segment: " + sum[0].WorstSegment.Text()
	if !strings.Contains(b.String(), line+"\n") || !strings.HasPrefix(sum[0].WorstSegment.Text(), "origin=robust04 (10 topics): Δ -0.063, paired t 95% CI [") {
		t.Errorf("the terminal report lacks %q:\n%s", line, b.String())
	}
	// Without segments, no worst segment (and result.json is unchanged:
	// the field is omitted).
	for _, s := range result.NewSummary(smallResult()) {
		if s.WorstSegment != nil {
			t.Errorf("%s: a worst segment without segments", s.Challenger)
		}
	}
}

// report.md keeps its fold: above it the summary, the worst regressions and
// only the segments that did not pass (at most maxWorstSegments per
// challenger, six columns); every segment in <details> "Segments by origin".
func TestSegmentedCommentFold(t *testing.T) {
	t.Parallel()
	r := segmentedOrigin()
	var b strings.Builder
	if err := Markdown(&b, r); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	CheckComment(t, r, md)
	above := md[:strings.Index(md, "<details>")] // as written; mdcheck's Fold.Above is as rendered
	if !strings.Contains(above, "**Worst segments**") || !strings.Contains(above, "| Chal. 1 | origin=robust04 | 10 |") ||
		!strings.Contains(above, "| Chal. 2 | origin=robust03 | 10 |") {
		t.Errorf("the failing and inconclusive segments are not above the fold:\n%s", above)
	}
	if strings.Contains(above, "trec678") {
		t.Errorf("a passing segment above the fold:\n%s", above)
	}
	if !strings.Contains(above, "worst segment: origin=robust04") {
		t.Errorf("Chal. 1's summary line does not name its worst segment:\n%s", above)
	}
	i := strings.Index(md, "<summary>Segments by origin</summary>")
	if i < 0 || strings.Index(md, "<details>") > i {
		t.Fatalf("no segments section below the fold:\n%s", md)
	}
	below := md[i:]
	for _, seg := range []string{"| trec678 | 30 |", "| robust03 | 10 |", "| robust04 | 10 |"} {
		if strings.Count(below, seg) != 2 {
			t.Errorf("%q is not in both challengers' tables below the fold", seg)
		}
	}
}

// manySegments is a run with one dimension of n segments of 4 topics each,
// hostile segment names, and every challenger regressing in every third
// segment.
func manySegments(n int, challengers []string) *result.Result {
	cfg := segConfig{dimension: "query-class", challengers: challengers, harm: map[[2]string]float64{}, unjudged: map[[2]string]bool{}, seed: 3}
	for g := range n {
		name := fmt.Sprintf("%s #%d", hostileName, g)
		cfg.segments = append(cfg.segments, segSpec{name, 4})
		for _, c := range challengers {
			if g%3 == 0 {
				cfg.harm[[2]string{c, name}] = -0.15
			}
		}
	}
	return segmentedResult(cfg)
}

// A 50-segment dimension still fits a pull-request comment: with two
// challengers whole, with 60 the lists are halved until it fits, and the
// fold's rules hold either way; hostile segment names stay escaped.
func TestSegmentedCommentFits(t *testing.T) {
	t.Parallel()
	for _, n := range []int{2, 60} {
		var cs []string
		for i := range n {
			cs = append(cs, fmt.Sprintf("Chal. %d", i+1))
		}
		r := manySegments(50, cs)
		var b strings.Builder
		if err := Markdown(&b, r); err != nil {
			t.Fatal(err)
		}
		md := b.String()
		if n == 2 {
			// gate/github's TestSegmentedReportIsCutCleanly posts this one.
			golden.Check(t, filepath.Join("testdata", "segments50.report.md.golden"), []byte(md))
		}
		mdcheck.Structure(t, md, MaxMarkdownBytes)
		f := CheckComment(t, r, md)
		above := md[:strings.Index(md, "<details>")]
		if strings.Contains(md, "<img") || strings.Contains(md, "@octocat") {
			t.Errorf("%d challengers: a hostile segment name is not escaped", n)
		}
		// At most maxWorstSegments rows per challenger above the fold.
		for _, c := range cs[:min(len(cs), 5)] {
			if got := strings.Count(above, "| "+c+" | query-class="); got > 1 {
				t.Errorf("%s named on %d rows above the fold, want 1 (its first row)", c, got)
			}
		}
		worst := strings.Count(above, "| query-class=")
		if worst > maxWorstSegments*n || worst == 0 {
			t.Errorf("%d challengers: %d worst segments above the fold", n, worst)
		}
		t.Logf("%d challengers × 50 segments: %d bytes; tables above the fold %v columns", n, len(md), f.AboveColumns)
	}
}

// riskgate publish reads result.json back: a segmented result renders the
// same reports from it, and its summary's worst segment survives.
func TestSegmentedResultRoundTrip(t *testing.T) {
	t.Parallel()
	r := segmentedOrigin()
	var err error
	if r.DecisionSHA256, err = r.DecisionDigest(); err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := result.WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	back, err := result.Read("result.json", js.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	// publish checks the decision's digest (result.Check): the by: rules'
	// segments must read back whole for it to match. (Check's recomputation
	// of the decision, policies.Decision.Recheck, is the policies package's
	// to extend to by: rules: it adjusts p-values over challengers only.)
	if digest, err := back.DecisionDigest(); err != nil || digest != r.DecisionSHA256 {
		t.Errorf("the decision read back has digest %.12s… (%v), written %.12s…", digest, err, r.DecisionSHA256)
	}
	if err := back.Check("result.json", nil); err != nil {
		t.Errorf("publish would refuse the segmented result.json: %v", err)
	}
	want, err := Files(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Files(back)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range FileNames {
		if !bytes.Equal(got[name], want[name]) {
			t.Errorf("%s differs when rendered from result.json", name)
		}
	}
	rr := back.Decision.Challengers[0].Rules[3]
	if rr.By != "origin" || rr.BySemantics != policies.SegmentsAllPass || rr.Segment != "robust04" || len(rr.Segments) != 3 || rr.Segments[2].BeforeMargin == nil {
		t.Errorf("the by: rule read back: %+v", rr)
	}
	if ws := back.Summary[0].WorstSegment; ws == nil || ws.Segment != "robust04" {
		t.Errorf("the summary's worst segment read back: %+v", ws)
	}
}

// junit.xml: a by: rule is one test case whose failure names the segments
// that did not pass.
func TestSegmentedJUnit(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := JUnit(&b, segmentedOrigin()); err != nil {
		t.Fatal(err)
	}
	x := b.String()
	if n := strings.Count(x, `name="every-origin-non-inferior: `); n != 2 {
		t.Errorf("every-origin-non-inferior has %d test cases, want one per challenger", n)
	}
	if !strings.Contains(x, "segments that did not pass: robust04 (10 topics, fail)") {
		t.Errorf("no failure names robust04:\n%s", x)
	}
}

// The cases the fixture does not have: a weight column, a segment whose
// interval is undefined (one topic: NaN ends), a challenger without pooled
// differences, a second dimension with a hostile segment name. Every format
// renders them; the numbers print as "–" where undefined; names stay
// escaped; each dimension has its section.
func TestSegmentTableEdges(t *testing.T) {
	t.Parallel()
	r := segmentedOrigin()
	tab := &r.Segments[0]
	for i := range tab.Challengers[0].Rows {
		w := jsonfloat.Float([]float64{0.7, 0.2, 0.1}[i])
		tab.Challengers[0].Rows[i].Weight = &w
	}
	tab.Challengers[0].Rows[1].Lo, tab.Challengers[0].Rows[1].Hi = jsonfloat.Float(math.NaN()), jsonfloat.Float(math.NaN())
	for i := range tab.Challengers[1].Rows {
		tab.Challengers[1].Rows[i].Pooled = nil
	}
	locale := result.SegmentTable{Dimension: "locale", Measure: "ap"}
	for _, c := range r.Data.Challengers {
		locale.Challengers = append(locale.Challengers, result.SegmentChallenger{Name: c, Rows: []result.SegmentRow{
			{Segment: hostileName, Topics: 1, ChampionMean: 0.3, Delta: -0.2, Lo: jsonfloat.Float(math.NaN()), Hi: jsonfloat.Float(math.NaN()), Level: 0.95,
				Outcome: policies.OutcomeInconclusive, Rules: []string{"every-locale"}},
			{Segment: "de", Topics: 49, ChampionMean: 0.3, Delta: 0.03, Lo: 0.01, Hi: 0.05, Level: 0.95, Outcome: policies.OutcomePass, Rules: []string{"every-locale"}},
		}})
	}
	r.Segments = append(r.Segments, locale)

	files, err := Files(r)
	if err != nil {
		t.Fatal(err)
	}
	md := string(files["report.md"])
	mdcheck.Structure(t, md, MaxMarkdownBytes)
	CheckComment(t, r, md)
	for _, want := range []string{"| Weight share |", "| 70.0% |", "| [–, –] |", "<summary>Segments by origin</summary>", "<summary>Segments by locale</summary>"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	page := string(files["report.html"])
	for _, bad := range []string{"<img src=x>", "@octocat <"} {
		if strings.Contains(md, bad) || strings.Contains(page, bad) {
			t.Errorf("a hostile segment name is not escaped: %q", bad)
		}
	}
	if n := strings.Count(page, `<figure id="fig-segments-`); n != 4 {
		t.Errorf("%d per-segment figures, want 4 (2 challengers × 2 dimensions)", n)
	}
	if strings.Contains(page, `class="missing"`+">The challenger has no segment") {
		t.Error("a per-segment figure is missing")
	}
	var table bytes.Buffer
	Text(&table, r, false)
	if !strings.Contains(table.String(), "segments by locale") || strings.Contains(table.String(), "\x1b") {
		t.Errorf("the terminal report lacks the locale table or is not plain:\n%s", table.String())
	}
	// The worst segment over both dimensions: Chal. 1 fails in robust04,
	// which is more severe than locale's inconclusive one.
	if ws := result.NewSummary(r)[0].WorstSegment; ws == nil || ws.Dimension != "origin" || ws.Segment != "robust04" {
		t.Errorf("Chal. 1's worst segment %+v, want origin=robust04", ws)
	}
}

// The reports of a segmented run: the origin fixture (3 segments, the
// goldens') and a 50-segment dimension, every file as gate --out writes it.
func BenchmarkSegmentedReports(b *testing.B) {
	for _, c := range []struct {
		name string
		r    *result.Result
	}{{"origin", segmentedOrigin()}, {"50-segments", manySegments(50, []string{"Chal. 1", "Chal. 2"})}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Files(c.r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The worst segment's numbers, in every format's summary line, are
// summary[].worst_segment's (delta, lo, hi) with the digits printed, as
// docs/gate.md's table says.
func TestWorstSegmentNumbersInResultJSON(t *testing.T) {
	t.Parallel()
	r := segmentedOrigin()
	files, err := Files(r)
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	Text(&table, r, false)
	re := regexp.MustCompile(`(?:W|w)orst segment:</strong> origin=(\w+) \(\d+ topics\): Δ ([-+]?[0-9.]+), paired t 95% CI \\?\[([-0-9.]+), ([-0-9.]+)\\?\]|` +
		`worst segment: origin=(\w+) \(\d+ topics\): Δ ([-+]?[0-9.]+), paired t 95% CI \\?\[([-0-9.]+), ([-0-9.]+)\\?\]`)
	for name, out := range map[string]string{"table": table.String(), "md": string(files["report.md"]), "html": string(files["report.html"]), "junit": string(files["junit.xml"])} {
		ms := re.FindAllStringSubmatch(out, -1)
		if len(ms) != len(r.Summary) {
			t.Errorf("%s: %d worst-segment lines, want %d", name, len(ms), len(r.Summary))
			continue
		}
		for i, m := range ms {
			g := m[1:5]
			if g[0] == "" {
				g = m[5:9]
			}
			ws := r.Summary[i].WorstSegment
			d, lo, hi := float64(ws.Delta), float64(ws.Lo), float64(ws.Hi)
			if g[0] != ws.Segment || !matches(g[1], &d) || !matches(g[2], &lo) || !matches(g[3], &hi) {
				t.Errorf("%s: %q is not summary[%d].worst_segment %+v", name, m[0], i, ws)
			}
		}
	}
}

// Traffic-weighted means (a weight column in the topics file) are said in
// every report, with the weights' file and the effective number of topics.
func TestWeightedMeansSaidInEveryReport(t *testing.T) {
	t.Parallel()
	r := segmentedOrigin()
	r.Weighting = result.NewWeighting("topics.csv", 31.25)
	files, err := Files(r)
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	Text(&table, r, false)
	const want = "traffic-weighted means, Σ w·x / Σ w, with the weights of topics.csv; 31.2 effective topics (Kish)"
	for name, out := range map[string]string{"table": table.String(), "report.md": string(files["report.md"]), "report.html": string(files["report.html"]),
		"junit.xml": string(files["junit.xml"])} {
		if !strings.Contains(out, want) {
			t.Errorf("%s does not say the means are weighted", name)
		}
	}
	if md := string(files["report.md"]); strings.Index(md, want) > strings.Index(md, "<details>") {
		t.Error("report.md says the means are weighted below the fold")
	}
}
