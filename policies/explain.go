package policies

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// explainWidth is the line width of Explain's paragraphs.
const explainWidth = 88

// Explain says in plain words what the policy will do: roles, inputs,
// settings, each rule, how verdicts combine, the waivers (as of now) and the
// analyses the gate will run.
func (p *Policy) Explain(now time.Time) string {
	var b strings.Builder
	para := func(indent, text string) { b.WriteString(wrap(text, indent, explainWidth)) }
	head := func(s string) { b.WriteString("\n" + s + "\n") }

	fmt.Fprintf(&b, "Policy %s (%s, format version %d)\n", p.Name, p.File, p.Version)
	if p.Description != "" {
		para("  ", strings.TrimSpace(p.Description))
	}

	head("Roles")
	champ := "given on the command line (--champion)"
	if p.Champion != "" {
		champ = fmt.Sprintf("%q", p.Champion)
	}
	para("  ", fmt.Sprintf("Champion: %s. Challengers: %s. Every other system in the data is an artifact: "+
		"the Bayesian model learns from it, and nothing is decided about it. "+
		"--champion and --challenger override these.", champ, p.describeChallengers()))

	head("Inputs")
	para("  ", p.describeInputs())

	head("Settings")
	weighted := p.weightedRules()
	if p.LossWeight > 0 {
		how := fmt.Sprintf("loss_weight %s", formatNumber(p.LossWeight))
		if p.FromAlpha {
			how = fmt.Sprintf("alpha %s", formatNumber(p.LossWeight-1))
		}
		used := "no rule uses it"
		if len(weighted) > 0 {
			used = "it applies to " + joinAnd(weighted)
		}
		para("  ", fmt.Sprintf("A loss against the champion counts %s times as much as a gain of the same size (%s); %s.",
			formatNumber(p.LossWeight), how, used))
	}
	para("  ", fmt.Sprintf("Random procedures (MCMC, bootstrap, permutation tests) use seed %d, so the same data give the same verdict.", p.Seed))
	if p.needs(AnalysisBayes) || p.needs(AnalysisBRisk) {
		para("  ", fmt.Sprintf("Bayesian fits: %s likelihood, %d chains, drawing until the effective sample size reaches %d "+
			"(at most %d draws per chain). A fit still short of it, or with R-hat above %s, has not converged, and the rules that use it are inconclusive.",
			strings.ReplaceAll(string(p.Model.Family), "_", "-"), p.Model.Chains, p.Model.TargetESS, p.Model.MaxDraws, formatNumber(p.Model.MaxRhat)))
	}

	head("Requirements")
	para("  ", p.describeRequirements())

	head("Rules, applied to each challenger")
	for i, r := range p.Rules {
		prefix := fmt.Sprintf("  %d. ", i+1)
		indent := strings.Repeat(" ", len(prefix))
		b.WriteString(fmt.Sprintf("%s%s (severity %s): %s%s must be %s\n", prefix, r.ID, r.Severity, r.Quantity.Name, p.measureWords(r), r.Bound.Words()))
		b.WriteString(wrap(capitalizeFirst(p.describeRuleValue(r))+".", indent, explainWidth))
		if m := p.ruleMeasure(r); m != "" && p.LowerIsBetter(m) {
			b.WriteString(wrap(fmt.Sprintf("Lower is better on %s: the rule is judged on the improvement, the champion's score minus the challenger's, so that higher is better here as on every measure.", m), indent, explainWidth))
		}
		if r.Description != "" {
			b.WriteString(wrapHanging(strings.TrimSpace(r.Description), indent+"Why: ", indent+"     ", explainWidth))
		}
		if r.By != "" {
			b.WriteString(wrap(p.segmentWords(r), indent, explainWidth))
		}
		if note := twoSidedNote(p, r); note != "" {
			b.WriteString(wrap(note, indent, explainWidth))
		}
		if r.Judgments == JudgmentsIgnore {
			b.WriteString(wrap("Judgments: ignore. With runs scored against qrels, the rule is judged on the standard scores alone "+
				"(a document the qrels have not judged counts as not relevant), never also with the unjudged documents left out "+
				"(condensed lists) or relevant (optimistic): it cannot say \"needs judgments\", and a challenger that retrieves "+
				"documents nobody judged may fail it, or pass it, on that account alone.", indent, explainWidth))
		}
	}

	head("Verdict")
	para("  ", "A challenger fails when it misses a fail rule; it is inconclusive when a fail rule cannot be decided "+
		"(too little data, a fit that did not converge); it passes with a warning when it misses a warn rule or one "+
		"cannot be decided; otherwise it passes. Waived rules do not count.")
	if len(p.RuleMeasures()) > 0 {
		para("  ", "The rules are on several measures and a challenger must pass every one of them: an intersection-union test, "+
			"so the chance of shipping a challenger that is worse on some rule's measure is at most that rule's own error rate, "+
			"with no correction across measures; each added rule can only lower the chance of shipping a good one (docs/policies.md).")
	}
	switch p.Select {
	case SelectAll:
		para("  ", "Every challenger must pass (select: all): the gate fails if any challenger fails, is inconclusive "+
			"if any is inconclusive, warns if any passes with warnings, and passes otherwise.")
	default:
		q := LookupQuantity(p.RankBy)
		dir := "higher"
		if q.Better == Lower {
			dir = "lower"
		}
		para("  ", fmt.Sprintf("The gate ships the best passing challenger (select: best), ranked by %s (%s is better: %s). "+
			"If no challenger passes, the gate is inconclusive when some challenger is inconclusive, and fails otherwise.",
			p.RankBy, dir, q.Description))
	}
	if p.OnInconclusive == Inconclusive {
		para("  ", "An inconclusive gate stays inconclusive (on_inconclusive: inconclusive).")
	} else {
		para("  ", fmt.Sprintf("An inconclusive gate counts as %s (on_inconclusive: %s).", p.OnInconclusive, p.OnInconclusive))
	}
	if p.neverFails() {
		para("  ", "This policy is advisory: every rule only warns and an inconclusive gate does not fail, so it never fails a run.")
	}

	head("Waivers")
	if len(p.Waivers) == 0 {
		para("  ", "None.")
	}
	for _, w := range p.Waivers {
		status := "applies through " + w.ExpiresText()
		if !w.Active(now) {
			status = "EXPIRED on " + w.ExpiresText() + ": it no longer applies"
		}
		b.WriteString(wrapHanging(fmt.Sprintf("Rule %s for %s, approved by %s (%q): %s.", w.Rule, w.Challenger.Text, w.Approver, w.Reason, status),
			"  - ", "    ", explainWidth))
	}

	head("Computation")
	var runs []string
	for _, a := range p.Needs() {
		s := a.Words()
		if a == AnalysisBRisk {
			var ws []string
			for _, w := range p.BRiskWeights() {
				ws = append(ws, formatNumber(w))
			}
			s += " at loss weight " + joinAnd(ws)
		}
		runs = append(runs, s)
	}
	para("  ", "The gate computes only what the rules need: "+strings.Join(runs, "; ")+".")
	if dims := p.bayesianDimensions(); len(dims) > 0 {
		para("  ", fmt.Sprintf("The Bayesian rules by %s take their values from the partially pooled segment model, fitted on the whole table once per dimension (docs/segments.md).", joinAnd(dims)))
	}
	if !p.needs(AnalysisBayes) && !p.needs(AnalysisBRisk) {
		para("  ", "No rule is Bayesian, so the gate runs no MCMC.")
	}
	return b.String()
}

func (p *Policy) needs(a Analysis) bool { return slices.Contains(p.Needs(), a) }

// bayesianDimensions are the dimensions of the by: rules on a Bayesian
// quantity (bayes.*, brisk.*), in rule order.
func (p *Policy) bayesianDimensions() []string {
	var ds []string
	for _, r := range p.Rules {
		if r.By != "" && r.Quantity.Analysis.UsesArtifacts() && !slices.Contains(ds, r.By) {
			ds = append(ds, r.By)
		}
	}
	return ds
}

func (p *Policy) describeInputs() string {
	in := p.Inputs
	var parts []string
	if len(in.Paths) == 0 {
		parts = append(parts, "Score files are given as INPUT arguments.")
	} else {
		parts = append(parts, fmt.Sprintf("Score files: %s (relative to the policy file's folder; INPUT arguments replace them).", strings.Join(in.Paths, ", ")))
	}
	format := in.Format
	if format == "" {
		format = "auto"
	}
	parts = append(parts, "Format: "+format+".")
	if in.Qrels != "" {
		parts = append(parts, "Qrels: "+in.Qrels+".")
	}
	switch ms := p.RuleMeasures(); {
	case len(ms) > 0 && in.Measure != "":
		parts = append(parts, fmt.Sprintf("Measures: %s, named by the rules; a rule that names none is judged on %s.", joinAnd(ms), in.Measure))
	case len(ms) > 0:
		parts = append(parts, fmt.Sprintf("Measures: %s, named by the rules; a rule that names none is judged on the inputs' measure (--measure picks one of several).", joinAnd(ms)))
	case in.Measure != "":
		parts = append(parts, "Measure: "+in.Measure+".")
	default:
		parts = append(parts, "Measure: the one in the inputs (--measure picks one of several).")
	}
	if len(in.LowerIsBetter) > 0 {
		parts = append(parts, fmt.Sprintf("Lower is better on %s: every quantity of a rule on one is of the improvement, the champion's score minus the challenger's, and reports say so.", joinAnd(in.LowerIsBetter)))
	}
	switch in.Topics {
	case "zero":
		parts = append(parts, "A topic a system did not score counts as 0 for it.")
	case "error":
		parts = append(parts, "A topic not scored by every system is an error.")
	case "keep":
		parts = append(parts, "Topics not scored by every system are kept with missing cells.")
	default:
		parts = append(parts, "Topics not scored by every system are dropped.")
	}
	if in.Pool != "" {
		mismatch := "left out with a warning that names them"
		if in.PoolMismatch == PoolRefuse {
			mismatch = "refused: the gate stops with an error naming them"
		}
		parts = append(parts, fmt.Sprintf("Pool: the systems stored in %s (relative to the policy file's folder; --pool replaces it) join as artifacts; those scored against other qrels or another topic set than the champion are %s.", in.Pool, mismatch))
	}
	if in.TopicsFile != "" {
		parts = append(parts, fmt.Sprintf("Topics file: %s (relative to the policy file's folder; --topics-file replaces it), whose columns are the dimensions the by: rules name.", in.TopicsFile))
	} else if dims := p.Dimensions(); len(dims) > 0 {
		parts = append(parts, fmt.Sprintf("The by: rules name %s, columns of a topics file that --topics-file must give.", joinAnd(dims)))
	}
	parts = append(parts, "Flags --input-format, --qrels, --measure and --topics override these.")
	return strings.Join(parts, " ")
}

func (p *Policy) describeRequirements() string {
	rq := p.Requirements
	var parts []string
	if rq.MinTopics > 0 {
		parts = append(parts, fmt.Sprintf("at least %d topics", rq.MinTopics))
	}
	if rq.MinArtifacts > 0 && (p.needs(AnalysisBayes) || p.needs(AnalysisBRisk)) {
		parts = append(parts, fmt.Sprintf("at least %d artifact systems for the Bayesian rules", rq.MinArtifacts))
	}
	switch {
	case rq.MinTopicCoverage == 1:
		parts = append(parts, "every topic scored by every system")
	case rq.MinTopicCoverage > 0:
		parts = append(parts, fmt.Sprintf("at least %s of the topics scored by every system", share(rq.MinTopicCoverage)))
	}
	if len(parts) == 0 && rq.MinTopicsPerSegment == 0 {
		return "None: the rules are judged on whatever data there is."
	}
	text := ""
	if len(parts) > 0 {
		text = "The data must have " + joinAnd(parts) + "; otherwise a rule that depends on them cannot pass, though one the evidence there is fails still fails."
	}
	if rq.MinTopicsPerSegment > 0 {
		text += fmt.Sprintf(" A segment of a by: rule needs at least %d topics: a smaller one is reported, and its outcome is inconclusive, never pass.", rq.MinTopicsPerSegment)
		text = strings.TrimSpace(text)
	}
	if rq.MinArtifacts > 0 {
		text += fmt.Sprintf(" With fewer artifacts the Bayesian rules use the day-one prior on the system spread (ir_pools, from published IR pools) instead of learning it from the pool, and a rule that model passes counts as %s (on_insufficient_pool).", p.InsufficientPool())
	}
	return text
}

// describeRuleValue is the rule's quantity in words, with its parameters.
func (p *Policy) describeRuleValue(r *Rule) string {
	q := p.Query(r)
	var ps []string
	if q.LossWeight > 0 {
		ps = append(ps, "losses count "+formatNumber(q.LossWeight)+" times")
	}
	if q.Level > 0 {
		ps = append(ps, "level "+percent(q.Level))
	}
	if q.Rope != [2]float64{} {
		ps = append(ps, "ROPE ["+formatNumber(q.Rope[0])+", "+formatNumber(q.Rope[1])+"]")
	}
	if q.Alternative != "" {
		ps = append(ps, "alternative "+string(q.Alternative))
	}
	if q.Margin > 0 && r.Quantity.isTest() {
		ps = append(ps, testMarginWords(q))
	} else if q.Margin > 0 {
		ps = append(ps, marginWords(q))
	}
	if q.MarginPercent > 0 {
		ps = append(ps, relativeMarginWords(q, p.ruleMeasure(r), r.Quantity.isTest()))
	}
	corr := r.Correction
	if corr == "" && r.Quantity.Accepts(ParamCorrection) {
		corr = CorrectNone
	}
	switch corr {
	case "":
	case CorrectNone:
		ps = append(ps, "no correction for multiple challengers")
	default:
		over := "the challengers"
		if r.By != "" && r.Quantity.isTest() {
			over = "the segments and the challengers"
		}
		ps = append(ps, correctionWords(corr)+"-corrected over "+over)
	}
	text := r.Quantity.Description
	if len(ps) > 0 {
		text += " (" + strings.Join(ps, "; ") + ")"
	}
	return text
}

// twoSidedNote warns that a two-sided p-value is small for a worse challenger too.
func twoSidedNote(p *Policy, r *Rule) string {
	q := p.Query(r)
	if q.Alternative == TwoSided && r.Bound.Op == AtMost {
		return "Note: the test is two-sided, so a challenger significantly worse than the champion also passes this rule; alternative: greater tests for better only."
	}
	return ""
}

func (p *Policy) weightedRules() []string {
	var ids []string
	for _, r := range p.Rules {
		if r.Quantity.Weighted() && r.LossWeight == 0 {
			ids = append(ids, r.ID)
		}
	}
	if q := LookupQuantity(p.RankBy); p.Select == SelectBest && q != nil && q.Weighted() {
		ids = append(ids, "rank_by")
	}
	return ids
}

// neverFails reports whether no outcome of the policy can be a failing run.
func (p *Policy) neverFails() bool {
	if p.OnInconclusive != Warn && p.OnInconclusive != Pass {
		return false
	}
	for _, r := range p.Rules {
		if r.Severity == SeverityFail {
			return false
		}
	}
	return true
}

// Warnings lists things in a valid policy that are probably mistakes, as of
// now: expired waivers, settings with no effect, two-sided tests bounded from
// above. validate prints them; they never make a policy invalid.
func (p *Policy) Warnings(now time.Time) []string {
	var out []string
	at := func(pos Pos) string {
		if pos.Line == 0 {
			return p.File
		}
		return fmt.Sprintf("%s:%d:%d", p.File, pos.Line, pos.Column)
	}
	for _, w := range p.Waivers {
		if !w.Active(now) {
			out = append(out, fmt.Sprintf("%s: waiver of rule %s for %s expired on %s and no longer applies; remove or renew it", at(w.Pos), w.Rule, w.Challenger.Text, w.ExpiresText()))
		}
	}
	if p.Select == SelectAll && p.RankByPos.Line > 0 {
		out = append(out, fmt.Sprintf("%s: rank_by has no effect with select: all", at(p.RankByPos)))
	}
	if p.LossWeight > 0 && len(p.weightedRules()) == 0 {
		out = append(out, fmt.Sprintf("%s: the policy sets a loss weight but no rule uses it", p.File))
	}
	if p.Requirements.MinTopicsPerSegment > 0 && len(p.Dimensions()) == 0 {
		out = append(out, fmt.Sprintf("%s: requirements.min_topics_per_segment has no effect: no rule has by:", p.File))
	}
	for _, r := range p.Rules {
		if r.By != "" && r.BySemantics == SegmentsAllPass && r.Quantity.isTest() && p.Query(r).Alternative != Greater {
			out = append(out, fmt.Sprintf("%s: rule %s must pass in every segment of %s (segments: all_pass), but a p-value of alternative %s cannot show the challenger non-inferior there; use alternative: greater (with margin: for non-inferiority), or segments: no_harm with alternative: less to fail only on harm",
				at(r.Pos), r.ID, r.By, p.Query(r).Alternative))
		}
		if twoSidedNote(p, r) != "" {
			fix := "consider alternative: greater"
			if q := r.Quantity; q != nil && !slices.Contains(q.Alternatives, Greater) {
				fix = "consider a test with one-sided p-values (e.g. tests.paired_t.p with alternative: greater)"
			}
			out = append(out, fmt.Sprintf("%s: rule %s bounds a two-sided p-value from above, so a significantly worse challenger passes it; %s", at(r.Pos), r.ID, fix))
		}
	}
	return append(out, p.Lax(now)...)
}

// wrap fills text into lines of at most width runes, each starting with indent.
func wrap(text, indent string, width int) string {
	return wrapHanging(text, indent, indent, width)
}

// wrapHanging is wrap with a different prefix on the first line.
func wrapHanging(text, first, rest string, width int) string {
	var b strings.Builder
	line := first
	empty := true
	for _, word := range strings.Fields(text) {
		if !empty && len([]rune(line))+1+len([]rune(word)) > width {
			b.WriteString(line + "\n")
			line, empty = rest, true
		}
		if !empty {
			line += " "
		}
		line += word
		empty = false
	}
	b.WriteString(line + "\n")
	return b.String()
}

// marginWords says what a non-inferiority margin means on the score scale.
func marginWords(q Query) string {
	return fmt.Sprintf("margin %s: computed for the risk-adjusted difference plus %s, so the challenger counts as riskier only when, with losses counted %s times, its scores fall more than %s below the champion's on average",
		formatNumber(q.Margin), formatNumber(q.Margin), formatNumber(q.LossWeight), formatNumber(q.Margin))
}

// testMarginWords says what a margin on a test means: the test compares
// the challenger's scores plus δ with the champion's.
func testMarginWords(q Query) string {
	m := formatNumber(q.Margin)
	switch q.Alternative {
	case Less:
		return fmt.Sprintf("margin %s: the test compares the challenger's scores plus %s with the champion's, so a small p-value shows harm beyond the margin (the challenger worse by more than %s on average)", m, m, m)
	case Greater:
		return fmt.Sprintf("margin %s: the test compares the challenger's scores plus %s with the champion's, so a small p-value shows the challenger non-inferior (not worse by more than %s on average)", m, m, m)
	}
	return fmt.Sprintf("margin %s: the test compares the challenger's scores plus %s with the champion's", m, m)
}

// relativeMarginWords says what a relative margin is.
func relativeMarginWords(q Query, measure string, test bool) string {
	on := "the measure"
	if measure != "" {
		on = measure
	}
	if test {
		return fmt.Sprintf("margin %s%% of the champion's mean %s over the gate's topics: the test compares the challenger's scores plus that δ with the champion's",
			formatNumber(q.MarginPercent), on)
	}
	return fmt.Sprintf("margin %s%% of the champion's mean %s over the gate's topics: computed for the risk-adjusted difference plus that δ, so the challenger counts as riskier only when, with losses counted %s times, its scores fall more than %s%% of the champion's mean below it on average",
		formatNumber(q.MarginPercent), on, formatNumber(q.LossWeight), formatNumber(q.MarginPercent))
}

// ruleMeasure is the measure rule r is judged on as the policy says it:
// its own, else inputs.measure; "" when the policy leaves it to the inputs.
func (p *Policy) ruleMeasure(r *Rule) string {
	if r.Measure != "" {
		return r.Measure
	}
	return p.Inputs.Measure
}

// measureWords names the measure of rule r in its explain line: " on map";
// nothing for a policy whose rules name no measure (the inputs' one).
func (p *Policy) measureWords(r *Rule) string {
	m := p.ruleMeasure(r)
	switch {
	case len(p.RuleMeasures()) == 0:
		return ""
	case m == "":
		return " on the inputs' measure"
	case p.LowerIsBetter(m):
		return " on " + m + " (lower is better)"
	}
	return " on " + m
}
