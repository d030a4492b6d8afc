package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/htmlpage"
	"github.com/riskgate/riskgate/internal/stats"

	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// The HTML report (report.html): one self-contained page — inline CSS and
// inline SVG, no script, no external reference — that works offline and as
// a CI artifact. Its plots follow Benham et al. (SIGIR 2020): the
// system-effect forest plot and the topic-effect intervals (Figure 4), risk
// against the loss weight (Figure 7), per-topic predictive intervals
// (Figure 8) and posterior densities of the differences to the champion
// (Figure 6). Everything comes from the Result; the page is built as an
// htmlPage of plain strings and rendered by html/template, which escapes
// every name and sentence, while the plots' own text is escaped by vgsvg.
// A Content-Security-Policy forbids the page any script or any load, so even
// a mistake in escaping could not fetch or run anything.

// htmlLimits cap the lists of the page; what is cut is said in a note.
type htmlLimits struct {
	ruleRows        int // rows of the rules table (whole challengers are kept)
	riskRows        int // challengers in the risk table and the comparisons
	challengerPlots int // challengers given a predictive and a density plot
	topicsAtRisk    int // rows of a challenger's topics-at-risk table
	lines           int // notes, warnings, inputs
}

var htmlDefaultLimits = htmlLimits{ruleRows: 2000, riskRows: 500, challengerPlots: 12, topicsAtRisk: 50, lines: 200}

// HTML writes the HTML report of a gate run (report.html).
func HTML(w io.Writer, r *result.Result) error {
	return htmlTemplate.Execute(w, buildHTMLPage(r, htmlDefaultLimits))
}

// htmlPage is everything the page shows, as plain text (escaped by the
// template) and rendered plots.
type htmlPage struct {
	Verdict      string
	VerdictClass string
	Ship         []string
	DryRun       bool
	ExitStatus   int
	Policy       string
	Champion     string
	Challengers  int
	Artifacts    int
	Topics       int
	Measure      string
	Example      bool
	Reason       string
	Weighting    string // the means are traffic-weighted; "" for plain means
	Unmet        []htmlpage.Pair
	Notes        []string
	NotesLeft    int

	ExtraCSS         template.CSS
	Summary          []htmlSummaryRow
	SummaryLeft      int
	ChampionMeanHead string
	RiskHead         string
	PBetterHead      string
	Regressions      []htmlRegressionRow
	AtRiskHead       string
	DiffPlots        []figure
	// Segments are the segment tables and figures (rules per segment).
	Segments []htmlSegments

	PolicyFacts []htmlpage.Pair
	Rules       []htmlRuleRow
	RulesLeft   int
	Waivers     []htmlWaiver

	Risk htmlpage.Table

	SystemsFig  figure
	TopicsFig   figure
	LossWeight  figure
	Comparisons htmlpage.Table

	PredictiveMissing string
	PredictiveNote    string
	Predictive        []figure
	DensityMissing    string
	Densities         []figure
	ChallengerNote    string

	Analyses     htmlpage.Table
	Fits         htmlpage.Table
	Parameters   htmlpage.Table
	FitWarnings  []string
	Warnings     []htmlWarning
	WarningsHead string // "3 warnings (1 affects no rule)"
	WarningsLeft int

	Provenance []htmlpage.Pair
	Inputs     htmlpage.Table
	Command    string

	Tool          string
	SchemaVersion int
}

type htmlTopicRow struct{ Topic, Observed, Interval string }

// figure is a plot of the page, with a predictive plot's topics at risk.
type figure struct {
	htmlpage.Figure
	// AtRisk are the challenger's topics at risk (predictive plots).
	AtRisk      []result.TopicAtRisk
	AtRiskKnown bool // the fit has a topics-at-risk analysis of the challenger
	AtRiskRows  []htmlTopicRow
	AtRiskLeft  int
	AtRiskNote  string
}

type htmlRuleRow struct {
	First            bool // the challenger's first rule: the row carries the challenger's cells
	Span             int
	Challenger       string
	Selected         bool
	Verdict          string
	VerdictClass     string
	ChallengerReason string
	Rule             string
	Description      string
	Severity         string
	Query            template.HTML // breakable: may wrap after its "(" and each ","
	Segments         string        // a by: rule's dimension, semantics and worst segment
	Observed         template.HTML // a value with its margin breaks before its "= observed"
	Unadjusted       string
	Bound            string
	Outcome          string
	OutcomeClass     string
	Waiver           string
	Why              string
}

type htmlWaiver struct {
	Rule, Challenger, Reason, Approver, Expires string
	Active                                      bool
}

// verdictClass is the CSS class of a verdict or outcome.
func verdictClass(v string) string {
	switch v {
	case "pass", "warn", "fail", "inconclusive", "waived":
		return "v-" + v
	case "needs judgments":
		return "v-inconclusive"
	}
	return "v-other"
}

func buildHTMLPage(r *result.Result, lim htmlLimits) *htmlPage {
	d := r.Decision
	if d == nil {
		d = &policies.Decision{}
	}
	pg := &htmlPage{
		Verdict: string(r.Verdict()), VerdictClass: verdictClass(string(r.Verdict())),
		DryRun: r.DryRun, ExitStatus: r.ExitStatus(),
		Policy: htmlpage.Name(r.Policy.Name), Champion: htmlpage.Name(r.Data.Champion),
		Challengers: len(r.Data.Challengers), Artifacts: len(r.Data.Artifacts), Topics: len(r.Data.Topics),
		Measure: htmlpage.Name(r.Data.Measure), Example: r.Data.Example,
		Reason:        htmlpage.Sentence(shortReason(r, d.Reason), 2000),
		Weighting:     htmlpage.Sentence(r.WeightingText(), 1000),
		Tool:          htmlpage.Name(r.Tool.Name + " " + r.Tool.Version),
		SchemaVersion: r.SchemaVersion,
	}
	for _, s := range d.Selected {
		pg.Ship = append(pg.Ship, htmlpage.Name(s))
	}
	for _, u := range d.Unmet {
		pg.Unmet = append(pg.Unmet, htmlpage.Pair{Key: htmlpage.Name(u.Requirement), Value: htmlpage.Sentence(u.Reason, 1000)})
	}
	for i, n := range d.Notes {
		if i >= lim.lines {
			pg.NotesLeft = len(d.Notes) - i
			break
		}
		pg.Notes = append(pg.Notes, htmlpage.Sentence(n, 1000))
	}
	pg.ExtraCSS = template.CSS(reportCSS) + challengerCSS()
	htmlSummary(pg, r, lim)
	htmlSegmentSections(pg, r)
	htmlPolicy(pg, r)
	htmlRules(pg, r, d, lim)
	pg.Risk = htmlRiskTable(r, lim)

	// Figure 4 is of the model on the raw scores: the raw-score fit, or
	// BRisk's at w = 1, the same model on the same scores.
	raw, rawName := r.RawFit()
	pg.SystemsFig = systemForest(raw)
	pg.TopicsFig = topicIntervals(raw)
	if raw != nil && rawName != result.FitHier {
		for _, fig := range []*figure{&pg.SystemsFig, &pg.TopicsFig} {
			if fig.Missing == "" {
				fig.Caption += " From " + result.FitLabel(rawName) + "."
			}
		}
	}
	pg.TopicsFig.Legend = nil
	fits := drawableFits(r)
	pg.LossWeight = riskByLossWeight(r, fits)
	pg.Comparisons = htmlComparisons(fits, lim)
	htmlChallengerPlots(pg, r, fits, lim)
	htmlDiagnostics(pg, r, lim)
	htmlProvenance(pg, r, lim)
	return pg
}

func htmlPolicy(pg *htmlPage, r *result.Result) {
	p := r.Policy
	add := func(k, v string) { pg.PolicyFacts = append(pg.PolicyFacts, htmlpage.Pair{Key: k, Value: v}) }
	if p.Description != "" {
		add("description", htmlpage.Sentence(p.Description, 1000))
	}
	add("file", htmlpage.Sentence(p.File, 300))
	if p.LossWeight > 0 {
		add("loss weight", "w = "+numfmt.G(p.LossWeight)+" (losses count w times)")
	}
	sel := string(p.Select)
	if p.RankBy != "" {
		sel += ", ranked by " + htmlpage.Sentence(p.RankBy, 200)
	}
	add("select", sel)
	add("on inconclusive", string(p.OnInconclusive))
	rq := p.Requirements
	add("requirements", fmt.Sprintf("at least %d topics, %d artifacts, topic coverage %s", rq.MinTopics, rq.MinArtifacts, numfmt.Percent(rq.MinTopicCoverage)))
	add("model", fmt.Sprintf("%s, %d chains, target ESS %d, max R-hat %s", p.Model.Family, p.Model.Chains, p.Model.TargetESS, numfmt.G(p.Model.MaxRhat)))
	add("seed", fmt.Sprint(p.Seed))
}

func htmlRules(pg *htmlPage, r *result.Result, d *policies.Decision, lim htmlLimits) {
	total := 0
	for _, c := range d.Challengers {
		total += len(c.Rules)
		if len(pg.Rules) > 0 && len(pg.Rules)+len(c.Rules) > lim.ruleRows {
			continue
		}
		first := len(pg.Rules)
		for i, rr := range c.Rules {
			row := htmlRuleRow{
				First:      i == 0,
				Challenger: htmlpage.Name(c.Name), Selected: c.Selected,
				Verdict: string(c.Verdict), VerdictClass: verdictClass(string(c.Verdict)),
				ChallengerReason: htmlpage.Sentence(c.Reason, 600),
				Rule:             htmlpage.Name(rr.Rule), Description: htmlpage.Sentence(rr.Description, 600),
				Severity: string(rr.Severity), Query: breakable(htmlpage.Sentence(rr.Query.String(), 200)), Segments: htmlpage.Sentence(ruleSegmentsText(rr), 300),
				Observed: observedLines(htmlpage.Sentence(result.RuleObserved(rr), 120)),
				Bound:    htmlpage.Sentence(rr.Bound.String(), 120),
				Outcome:  string(rr.Outcome), OutcomeClass: verdictClass(string(rr.Outcome)),
			}
			if rr.Unadjusted != nil {
				row.Unadjusted = fmt.Sprintf("%s before %s correction", htmlpage.Sentence(observedText(*rr.Unadjusted, rr.Bound), 80), htmlpage.Sentence(string(rr.Correction), 40))
			}
			if w := rr.Waiver; w != nil {
				state := "applied"
				if !w.Applied {
					state = "expired, not applied"
				}
				row.Waiver = fmt.Sprintf("%s: %s (approved by %s, expires %s)", state, htmlpage.Sentence(w.Reason, 300), htmlpage.Sentence(w.Approver, 100), htmlpage.Sentence(w.Expires, 20))
				if w.Note != "" {
					row.Waiver += "; " + htmlpage.Sentence(w.Note, 300)
				}
				if rr.WaivedOutcome != "" {
					row.Waiver += "; without it: " + string(rr.WaivedOutcome)
				}
			}
			if rr.Outcome != policies.OutcomePass {
				row.Why = htmlpage.Sentence(rr.Reason, 600)
				if e := evidenceOf(r, c.Name, rr.Rule); e != nil {
					row.Why += "; " + htmlpage.Sentence(decideText(e), 600)
				}
			}
			pg.Rules = append(pg.Rules, row)
		}
		// The challenger's cell spans its rules' rows, and the row of
		// details (why, waiver) below each rule that has one.
		for _, row := range pg.Rules[first:] {
			pg.Rules[first].Span++
			if row.Why != "" || row.Waiver != "" {
				pg.Rules[first].Span++
			}
		}
	}
	pg.RulesLeft = total - len(pg.Rules)
	for _, w := range r.Policy.Waivers {
		pg.Waivers = append(pg.Waivers, htmlWaiver{Rule: htmlpage.Name(w.Rule), Challenger: htmlpage.Name(w.Challenger),
			Reason: htmlpage.Sentence(w.Reason, 600), Approver: htmlpage.Sentence(w.Approver, 100), Expires: htmlpage.Sentence(w.Expires, 20), Active: w.Active})
	}
}

func htmlRiskTable(r *result.Result, lim htmlLimits) htmlpage.Table {
	rt := r.RiskTable
	hasBCa, hasBRisk := false, false
	for _, s := range rt.Systems {
		hasBCa = hasBCa || s.BCa != nil
		hasBRisk = hasBRisk || s.BRisk != nil
	}
	t := htmlpage.Table{Align: "lrrrrrrrrrr", Head: []string{"System", "Mean", "Mean diff.", "Wins / ties / losses", "URisk", "TRisk", "TRisk p"}}
	if hasBCa {
		t.Head = append(t.Head, "BCa "+numfmt.Percent(rt.BCaLevel)+" of URisk")
	}
	t.Head = append(t.Head, "ZRisk", "GeoRisk")
	if hasBRisk {
		t.Head = append(t.Head, "BRisk 95%")
	}
	for i, s := range rt.Systems {
		if i > lim.riskRows {
			t.Left = len(rt.Systems) - i
			break
		}
		name, class := htmlpage.Name(s.Name), ""
		if s.Role == result.RoleChampion {
			name += " (champion)"
			class = result.RoleChampion // the row's CSS class
		}
		wtl := "–"
		if s.Wins != nil && s.Ties != nil && s.Losses != nil {
			wtl = fmt.Sprintf("%d / %d / %d", *s.Wins, *s.Ties, *s.Losses)
		}
		row := []string{name, num(s.Mean, 4), numPtr(s.MeanDiff, 4), wtl, numPtr(s.URisk, 4), numPtr(s.TRisk, 2), pValue(s.TRiskP)}
		if hasBCa {
			row = append(row, intervalText(s.BCa))
		}
		row = append(row, numPtr(s.ZRisk, 2), numPtr(s.GeoRisk, 4))
		if hasBRisk {
			row = append(row, intervalText(s.BRisk))
		}
		t.Rows = append(t.Rows, row)
		t.Classes = append(t.Classes, class)
	}
	return t
}

// pValue prints an optional p-value as R does ("<0.0001" below 0.0001, an
// underflow to 0 included), "–" when absent.
func pValue(p *jsonfloat.Float) string {
	if p == nil || !stats.Finite(float64(*p)) {
		return "–"
	}
	return numfmt.R.P(float64(*p))
}

func htmlComparisons(fits []labelledFit, lim htmlLimits) htmlpage.Table {
	t := htmlpage.Table{Align: "llrrrrll", Head: []string{"Fit", "Challenger", "P(δ > 0)", "P(δ < 0)", "Mean δ", "95% interval", "Other intervals", "ROPE"}}
	for _, lf := range fits {
		for i, c := range lf.fit.Comparisons {
			if i >= lim.riskRows {
				t.Left += len(lf.fit.Comparisons) - i
				break
			}
			var lo, hi jsonfloat.Float = jsonfloat.Float(math.NaN()), jsonfloat.Float(math.NaN())
			var other, ropes []string
			for _, in := range c.Intervals {
				if in.Level == 0.95 {
					lo, hi = in.Lo, in.Hi
					continue
				}
				other = append(other, fmt.Sprintf("%s [%s, %s]", numfmt.Percent(in.Level), num(in.Lo, 4), num(in.Hi, 4)))
			}
			for _, rp := range c.ROPE {
				ropes = append(ropes, fmt.Sprintf("%s (ROPE [%s, %s], %s HDI [%s, %s], %s inside)", htmlpage.Sentence(rp.Decision, 40), numfmt.G(rp.Lo), numfmt.G(rp.Hi),
					numfmt.Percent(rp.Level), num(rp.HDILo, 4), num(rp.HDIHi, 4), num(rp.Inside, 3)))
			}
			t.Rows = append(t.Rows, []string{lf.label, htmlpage.Name(c.Challenger), numfmt.Dash.P(float64(c.PBetter)), numfmt.Dash.P(float64(c.PWorse)), num(c.Diff.Mean, 4),
				fmt.Sprintf("[%s, %s]", num(lo, 4), num(hi, 4)), numfmt.OrDash(strings.Join(other, "; ")), numfmt.OrDash(strings.Join(ropes, "; "))})
			t.Classes = append(t.Classes, "")
		}
	}
	return t
}

// htmlChallengerPlots draws the per-topic predictive plot and the density
// plot of each challenger, the selected ones first, at most
// lim.challengerPlots of them.
func htmlChallengerPlots(pg *htmlPage, r *result.Result, fits []labelledFit, lim htmlLimits) {
	var order []string
	if r.Decision != nil {
		order = slices.Clone(r.Decision.Selected)
	}
	for _, c := range r.Data.Challengers {
		if !slices.Contains(order, c) {
			order = append(order, c)
		}
	}
	if len(order) > lim.challengerPlots {
		pg.ChallengerNote = fmt.Sprintf("Plots are drawn for %d of the %d challengers (the selected ones first, then in data order); result.json has the values of every one.",
			lim.challengerPlots, len(order))
		order = order[:lim.challengerPlots]
	}
	htmlDiffPlots(pg, r, fits, order)
	colors := challengerIndex(r)

	pf, ok := predictiveFit(r, fits)
	switch {
	case len(order) == 0:
		pg.PredictiveMissing = "The run has no challenger."
	case !ok && len(fits) == 0:
		pg.PredictiveMissing = fitMissing(r.Bayes, "predictive intervals")
	case !ok:
		pg.PredictiveMissing = "No fit of this run has per-topic predictive intervals."
	default:
		if pf.fit.Pool == result.PoolRiskAdjusted {
			pg.PredictiveNote = fmt.Sprintf("From the hierarchical model fitted to the risk-adjusted pool at w = %s (Benham et al., Figure 8): for each topic, the 95%% posterior predictive interval of the champion's score (blue) and of the challenger's risk-adjusted score, champion + d with losses counted %s times (in the challenger's colour), with the observed scores as dots. A topic is at risk when the challenger's observed difference to the champion falls below the lower end of its predictive interval; such topics are shaded red and their dot is ringed.",
				numfmt.G(pf.fit.LossWeight), numfmt.G(pf.fit.LossWeight))
		} else {
			pg.PredictiveNote = "From the hierarchical model fitted to the raw scores: for each topic, the 95% posterior predictive interval of the champion's score (blue) and of the challenger's (in its colour), with the observed scores as dots. Topics at risk come from a risk-adjusted (BRisk) fit; none is marked here. " + noRiskFitReason(r)
		}
		for i, c := range order {
			fig := predictivePlot(c, i+1, colors[c], pf, r.Data.Champion)
			htmlAtRiskRows(&fig, pf, lim)
			pg.Predictive = append(pg.Predictive, fig)
		}
	}

	if len(fits) == 0 {
		pg.DensityMissing = fitMissing(r.Bayes, "posterior densities")
		return
	}
	if len(order) == 0 {
		pg.DensityMissing = "The run has no challenger."
		return
	}
	for k, lf := range fits {
		pg.Densities = append(pg.Densities, densityPlot(lf, k+1, order, colors))
	}
}

// predictiveFit is the fit whose predictive intervals the per-topic plots
// show: the risk-adjusted fit at the policy's loss weight, else the
// risk-adjusted fit with the largest loss weight, else the raw fit.
func predictiveFit(r *result.Result, fits []labelledFit) (labelledFit, bool) {
	var best labelledFit
	found := false
	for _, lf := range fits {
		if len(lf.fit.Predictive) == 0 {
			continue
		}
		switch {
		case !found:
			best, found = lf, true
		case lf.fit.Pool == result.PoolRiskAdjusted && best.fit.Pool == result.PoolRiskAdjusted && best.fit.LossWeight == r.RiskTable.LossWeight:
			// keep the fit at the policy's loss weight
		case lf.fit.Pool == result.PoolRiskAdjusted:
			best = lf
		}
	}
	return best, found
}

func htmlAtRiskRows(fig *figure, lf labelledFit, lim htmlLimits) {
	if fig.Missing != "" {
		return
	}
	if lf.fit.Pool != result.PoolRiskAdjusted {
		return
	}
	if !fig.AtRiskKnown {
		fig.AtRiskNote = "This fit has no topics-at-risk analysis for this challenger."
		return
	}
	if len(fig.AtRisk) == 0 {
		fig.AtRiskNote = "No topic at risk."
		return
	}
	for i, t := range fig.AtRisk {
		if i >= lim.topicsAtRisk {
			fig.AtRiskLeft = len(fig.AtRisk) - i
			break
		}
		fig.AtRiskRows = append(fig.AtRiskRows, htmlTopicRow{htmlpage.Name(t.Topic), num(t.Observed, 4), fmt.Sprintf("[%s, %s]", num(t.Lo, 4), num(t.Hi, 4))})
	}
}

func htmlDiagnostics(pg *htmlPage, r *result.Result, lim htmlLimits) {
	pg.Analyses = htmlpage.Table{Align: "llll", Head: []string{"Analysis", "Needed by a rule", "Computed", "Note"}}
	for _, a := range r.Analyses {
		pg.Analyses.Rows = append(pg.Analyses.Rows, []string{htmlpage.Name(string(a.Name)), yesNo(a.Needed), yesNo(a.Computed), numfmt.OrDash(htmlpage.Sentence(a.Reason, 600))})
		pg.Analyses.Classes = append(pg.Analyses.Classes, "")
	}
	pg.Fits = htmlpage.Table{Align: "lllrrrrrrrr", Head: []string{"Fit", "Converged", "Method", "Chains × draws", "Warmup", "Worst R-hat", "Worst bulk-ESS", "Worst tail-ESS", "Divergences", "Max-depth hits", "Lowest E-BFMI"}}
	pg.Parameters = htmlpage.Table{Align: "lllrrrrrr", Head: []string{"Fit", "Parameter", "Prior", "Mean", "SD", "95% interval", "R-hat", "Bulk-ESS", "Tail-ESS"}}
	for _, f := range r.Fits() {
		name := f.Label()
		if f.Unavailable != "" {
			pg.Fits.Rows = append(pg.Fits.Rows, []string{name, "not fitted: " + htmlpage.Sentence(f.Unavailable, 300), "–", "–", "–", "–", "–", "–", "–", "–", "–"})
			pg.Fits.Classes = append(pg.Fits.Classes, "")
			continue
		}
		for _, w := range f.Warnings {
			pg.FitWarnings = append(pg.FitWarnings, name+": "+htmlpage.Sentence(w, 600))
		}
		row := []string{name, yesNo(f.Converged), htmlpage.Sentence(f.Family+", "+f.Method, 80)}
		if dg := f.Diagnostics; dg != nil {
			ebfmi := math.Inf(1)
			for _, e := range dg.EBFMI {
				ebfmi = math.Min(ebfmi, float64(e))
			}
			if math.IsInf(ebfmi, 1) {
				ebfmi = math.NaN()
			}
			draws := fmt.Sprintf("%d × %d", dg.Chains, dg.Draws)
			if dg.Extended > 0 {
				draws += fmt.Sprintf(" (%d added per chain)", dg.Extended)
			}
			row = append(row, draws, fmt.Sprint(dg.Warmup),
				fmt.Sprintf("%s (≤ %s)", num(dg.WorstRhat, 4), numfmt.G(dg.MaxRhat)),
				fmt.Sprintf("%s (≥ %s)", num(dg.WorstESSBulk, 0), numfmt.G(dg.TargetESS)), num(dg.WorstESSTail, 0),
				fmt.Sprint(dg.Divergences), fmt.Sprint(dg.MaxDepthHits), num(jsonfloat.Float(ebfmi), 2))
		} else {
			row = append(row, "–", "–", "–", "–", "–", "–", "–", "–")
		}
		class := ""
		if !f.Converged {
			class = "bad"
		}
		pg.Fits.Rows = append(pg.Fits.Rows, row)
		pg.Fits.Classes = append(pg.Fits.Classes, class)
		for _, e := range f.Parameters {
			pg.Parameters.Rows = append(pg.Parameters.Rows, []string{name, htmlpage.Name(e.Name), numfmt.OrDash(htmlpage.Sentence(f.Priors[e.Name], 200)),
				num(e.Mean, 4), num(e.SD, 4), fmt.Sprintf("[%s, %s]", num(e.Q2_5, 4), num(e.Q97_5, 4)),
				num(e.Rhat, 4), num(e.ESSBulk, 0), num(e.ESSTail, 0)})
			pg.Parameters.Classes = append(pg.Parameters.Classes, "")
		}
	}
	pg.WarningsHead = r.WarningsLabel()
	labels, texts := r.WarningList()
	for i, w := range texts {
		if i >= lim.lines {
			pg.WarningsLeft = len(texts) - i
			break
		}
		pg.Warnings = append(pg.Warnings, htmlWarning{About: htmlpage.Sentence(labels[i], 200), Text: htmlpage.Sentence(w, 1000)})
	}
}

// htmlWarning is one warning with what it concerns (result.Result.WarningList).
type htmlWarning struct{ About, Text string }

func htmlProvenance(pg *htmlPage, r *result.Result, lim htmlLimits) {
	p := r.Provenance
	add := func(k, v string) { pg.Provenance = append(pg.Provenance, htmlpage.Pair{Key: k, Value: v}) }
	add("riskgate", htmlpage.Sentence(r.Tool.Version, 80))
	add("policy", htmlpage.Sentence(r.Policy.File, 300))
	add("policy SHA-256", htmlpage.Sentence(r.Policy.SHA256, 64))
	add("seed", fmt.Sprint(r.Policy.Seed))
	if s := p.Sampler; s != nil {
		add("sampler", fmt.Sprintf("NUTS, %s path, %s likelihood, %d chains, %d warmup, target ESS %d, max R-hat %s, adapt delta %s, max depth %d",
			htmlpage.Sentence(s.Method, 40), htmlpage.Sentence(s.Family, 40), s.Chains, s.Warmup, s.TargetESS, numfmt.G(s.MaxRhat), numfmt.G(s.AdaptDelta), s.MaxDepth))
	}
	if p.BootstrapSamples > 0 {
		add("bootstrap", fmt.Sprintf("B = %d", p.BootstrapSamples))
	}
	// StartedAt, ElapsedMS and Timings vary from run to run: they stay in
	// result.json, so that the page of a replayed run is the same page.
	pg.Inputs = htmlpage.Table{Align: "llrl", Head: []string{"Role", "Path", "Bytes", "SHA-256"}}
	for i, in := range p.Inputs {
		if i >= lim.lines {
			pg.Inputs.Left = len(p.Inputs) - i
			break
		}
		pg.Inputs.Rows = append(pg.Inputs.Rows, []string{htmlpage.Sentence(in.Role, 20), htmlpage.Sentence(in.Path, 300), fmt.Sprint(in.Bytes), numfmt.OrDash(htmlpage.Sentence(in.SHA256, 64))})
		pg.Inputs.Classes = append(pg.Inputs.Classes, "")
	}
	pg.Command = htmlpage.Sentence(p.Command, 4000)
}

// htmlTemplate is the page; report.html.tmpl follows the head all pages share.
//
// reportCSS is the report's own style beyond the pages' (htmlpage): the
// summary and the rules fill the page's width, wrap their notes and long
// names, and show each challenger's and failed rule's why on a row of its
// own, so that neither scrolls sideways at 1,200 or 800 px.
//
//go:embed report.css
var reportCSS string

//go:embed report.html.tmpl
var htmlBody string

var htmlTemplate = htmlpage.Template("report", htmlBody)

// breakable is a query for the page: escaped, with a line break allowed
// (<wbr>) after its "(" and each ",", so that a long query wraps at its
// parameters instead of widening the rules table past the page.
// observedLines escapes a rule's observed text and, when it is "value +
// margin = observed", breaks it before "= observed": the cell is a numeric
// one, which does not wrap, and one long line would squeeze the rules
// table's other columns at 800 px.
func observedLines(observed string) template.HTML {
	return template.HTML(strings.ReplaceAll(template.HTMLEscapeString(observed), " = ", "<br>= "))
}

func breakable(query string) template.HTML {
	e := template.HTMLEscapeString(query)
	e = strings.ReplaceAll(e, "(", "(<wbr>")
	e = strings.ReplaceAll(e, ",", ",<wbr>")
	return template.HTML(e)
}
