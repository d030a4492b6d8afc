package policies

import (
	"slices"
	"strings"

	"github.com/riskgate/riskgate/bayes/posterior"
)

// Kind is what sort of value a quantity takes, which decides the bounds a rule
// may put on it.
type Kind string

const (
	KindNumber      Kind = "number"      // any finite number; at_least, at_most, in: [lo, hi]
	KindProbability Kind = "probability" // a number in [0, 1] (probabilities and p-values)
	KindCount       Kind = "count"       // a whole number ≥ 0 (topics)
	KindCategory    Kind = "category"    // one of Quantity.Outcomes; only in: [outcomes…]
)

// Numeric reports whether values of the kind are numbers.
func (k Kind) Numeric() bool { return k != KindCategory }

// Analysis names a computation the gate runs to obtain quantities. The gate
// runs only the analyses a policy needs (see Policy.Needs), so that a policy
// without Bayesian rules costs no MCMC.
type Analysis string

const (
	// AnalysisBayes is the hierarchical model score ~ (1|topic) + (1|system)
	// fitted by MCMC over the champion, the challengers and the artifacts.
	AnalysisBayes Analysis = "bayes"
	// AnalysisBRisk is the same model fitted on the risk-adjusted pool (BRisk,
	// Benham et al. SIGIR 2020): the champion's scores unchanged, every other
	// system's scores replaced by champion + d, losses in d counted w times.
	// One fit per loss weight.
	AnalysisBRisk Analysis = "brisk"
	// AnalysisRisk is the closed-form risk measures URisk, TRisk, ZRisk and GeoRisk.
	AnalysisRisk Analysis = "risk"
	// AnalysisBCa is the BCa bootstrap interval of URisk.
	AnalysisBCa Analysis = "bca"
	// AnalysisTests is the frequentist tests of challenger against champion.
	AnalysisTests Analysis = "tests"
	// AnalysisDescriptive is counts and means read straight off the score table.
	AnalysisDescriptive Analysis = "descriptive"
)

// analysisOrder is the order in which Needs lists analyses: cheap first.
var analysisOrder = []Analysis{AnalysisDescriptive, AnalysisRisk, AnalysisTests, AnalysisBCa, AnalysisBayes, AnalysisBRisk}

// UsesArtifacts reports whether the analysis learns from the artifact pool,
// so that requirements.min_artifacts applies to its quantities.
func (a Analysis) UsesArtifacts() bool { return a == AnalysisBayes || a == AnalysisBRisk }

// Words is the analysis in plain words, for explain and reports.
func (a Analysis) Words() string {
	switch a {
	case AnalysisBayes:
		return "the Bayesian hierarchical model fitted by MCMC"
	case AnalysisBRisk:
		return "the Bayesian hierarchical model on the risk-adjusted pool (BRisk), fitted by MCMC"
	case AnalysisRisk:
		return "the closed-form risk measures (URisk, TRisk, ZRisk, GeoRisk)"
	case AnalysisBCa:
		return "the BCa bootstrap of URisk"
	case AnalysisTests:
		return "frequentist significance tests"
	case AnalysisDescriptive:
		return "counts and means of the scores"
	}
	return string(a)
}

// Statistic is what a quantity reads off the output of its analysis. The
// engine has one reader per analysis and statistic; a test walks the
// registry to prove that every quantity, with every parameter it declares,
// is computed.
type Statistic string

const (
	StatMean     Statistic = "mean"      // the challenger's mean score
	StatMeanDiff Statistic = "mean_diff" // its mean minus the champion's
	StatWins     Statistic = "wins"      // topics on which it scores higher
	StatLosses   Statistic = "losses"    // lower
	StatTies     Statistic = "ties"      // the same
	StatURisk    Statistic = "urisk"     // URisk at the loss weight
	StatTRisk    Statistic = "trisk"     // TRisk, URisk over its standard error
	StatTRiskP   Statistic = "trisk_p"   // TRisk's two-sided p-value
	StatZRisk    Statistic = "zrisk"     // ZRisk over champion and challengers
	StatGeoRisk  Statistic = "georisk"   // GeoRisk over champion and challengers
	StatLo       Statistic = "lo"        // the lower end of the analysis's interval (BCa of URisk; credible interval of δ)
	StatHi       Statistic = "hi"        // its upper end
	StatPGreater Statistic = "p_greater" // P(δ > 0), δ = S_challenger − S_champion
	StatPLess    Statistic = "p_less"    // P(δ < 0)
	StatDiffMean Statistic = "diff_mean" // the posterior mean of δ
	StatROPE     Statistic = "rope"      // the HDI+ROPE decision on δ
	StatAtRisk   Statistic = "at_risk"   // the number of topics at risk
	StatPValue   Statistic = "p_value"   // the p-value of the quantity's Test
)

// Direction says which values of a quantity are better for the challenger; it
// orders challengers for select: best.
type Direction int

const (
	Neutral Direction = iota // neither (p-values, ties, categories): cannot rank_by it
	Higher                   // higher is better for the challenger
	Lower                    // lower is better for the challenger
)

// Param names a rule parameter. Every parameter a quantity accepts is listed
// in its Quantity.Params; any other is an error.
type Param string

const (
	ParamLevel       Param = "level"       // credible/confidence level of an interval, default 0.95
	ParamCorrection  Param = "correction"  // multiple-comparison correction over the challengers
	ParamRope        Param = "rope"        // region of practical equivalence [lo, hi]
	ParamLossWeight  Param = "loss_weight" // losses count w times (overrides the policy's)
	ParamAlpha       Param = "alpha"       // the same as loss_weight = 1 + alpha
	ParamAlternative Param = "alternative" // two_sided, greater or less, for tests
	ParamMargin      Param = "margin"      // margin δ ≥ 0 in score units of a risk quantity (non-inferiority) or a test (of d + δ)
)

// params lists every rule parameter in the order messages and the schema give them.
var params = []Param{ParamLevel, ParamCorrection, ParamRope, ParamLossWeight, ParamAlpha, ParamAlternative, ParamMargin}

// Correction is a multiple-comparison correction over the challengers of a run.
type Correction string

const (
	CorrectNone       Correction = "none"
	CorrectBonferroni Correction = "bonferroni"
	CorrectHolm       Correction = "holm"
	CorrectBH         Correction = "bh" // Benjamini–Hochberg false-discovery rate
)

// Alternative is the alternative hypothesis of a test.
type Alternative string

const (
	TwoSided Alternative = "two_sided" // challenger ≠ champion (R's default)
	Greater  Alternative = "greater"   // challenger > champion
	Less     Alternative = "less"      // challenger < champion
)

var alternatives = []Alternative{TwoSided, Greater, Less}

// DefaultLevel is the level of an interval when a rule gives none.
const DefaultLevel = 0.95

// Quantity is one value the gate can compute per challenger and a rule can bound.
type Quantity struct {
	Name     string
	Kind     Kind
	Analysis Analysis
	// Statistic is what the engine reads off the analysis (and Test, the
	// test whose p-value it is, for StatPValue).
	Statistic Statistic
	Test      string
	Better    Direction
	// Params are the rule parameters the quantity accepts; Required those it needs.
	Params   []Param
	Required []Param
	// Corrections are the values correction: may take (when Params has it).
	Corrections []Correction
	// Alternatives are the values alternative: may take (when Params has it).
	Alternatives []Alternative
	// Outcomes are the categories of a KindCategory quantity.
	Outcomes []string
	// Description says in plain words what the value is; explain and the
	// JSON Schema print it.
	Description string
}

// Weighted reports whether the quantity weighs losses, so that it needs a loss weight.
func (q *Quantity) Weighted() bool { return slices.Contains(q.Params, ParamLossWeight) }

// Accepts reports whether a rule on q may set parameter p.
func (q *Quantity) Accepts(p Param) bool { return slices.Contains(q.Params, p) }

// RopeOutcomes are the decisions of Zhang et al.'s HDI+ROPE rule (SIGIR 2016,
// §3.3), as package bayes names them (posterior.Decisions).
var RopeOutcomes = enumStrings(posterior.Decisions)

// TestNames are the frequentist tests behind the tests.<name>.p quantities.
var TestNames = []string{"paired_t", "welch_t", "wilcoxon", "sign", "permutation", "bootstrap"}

var testWords = map[string]string{
	"paired_t":    "the paired t-test",
	"welch_t":     "Welch's two-sample t-test",
	"wilcoxon":    "the Wilcoxon signed-rank test",
	"sign":        "the sign test (a binomial test of wins against losses)",
	"permutation": "the paired randomisation (permutation) test of the mean difference",
	"bootstrap":   "the paired studentised bootstrap test (Sakai 2006)",
}

var (
	weighted = []Param{ParamLossWeight, ParamAlpha}
	// twoSidedOnly are the tests whose one-sided p-values riskgate does not
	// compute (the randomisation and bootstrap tests of package risk).
	twoSidedOnly  = []string{"permutation", "bootstrap"}
	weightedLevel = []Param{ParamLossWeight, ParamAlpha, ParamLevel}
	// A test takes a margin δ too: it then compares the challenger's scores
	// plus δ with the champion's (H0: Δ = −δ; R's mu = −δ), the form a
	// non-inferiority or harm test takes.
	testParams = []Param{ParamCorrection, ParamAlternative, ParamMargin}
	// risky quantities compare the challenger's risk-adjusted difference d_w
	// with 0 and take a non-inferiority margin δ: they are computed for
	// d_w + δ, so that "not riskier" reads "not riskier by more than δ".
	risky          = []Param{ParamLossWeight, ParamAlpha, ParamMargin}
	riskyLevel     = []Param{ParamLossWeight, ParamAlpha, ParamLevel, ParamMargin}
	testCorrection = []Correction{CorrectNone, CorrectBonferroni, CorrectHolm, CorrectBH}
)

// registry is every quantity, in the order explain, errors and the schema list them.
var registry = buildRegistry()

func buildRegistry() []*Quantity {
	qs := []*Quantity{
		{Name: "bayes.p_better", Kind: KindProbability, Analysis: AnalysisBayes, Statistic: StatPGreater, Better: Higher,
			Description: "the posterior probability that the challenger's system effect exceeds the champion's (P(S_challenger > S_champion)) in the hierarchical model over champion, challengers and artifacts"},
		{Name: "bayes.p_worse", Kind: KindProbability, Analysis: AnalysisBayes, Statistic: StatPLess, Better: Lower, Params: []Param{ParamMargin},
			Description: "the posterior probability that the challenger's system effect is below the champion's by more than the margin (P(S_challenger − S_champion < −margin)) in the hierarchical model; under by:, of the segment's difference in the partially pooled segment model"},
		{Name: "bayes.diff.mean", Kind: KindNumber, Analysis: AnalysisBayes, Statistic: StatDiffMean, Better: Higher,
			Description: "the posterior mean of the challenger's system effect minus the champion's (S_challenger − S_champion), in score units"},
		{Name: "bayes.diff.lo", Kind: KindNumber, Analysis: AnalysisBayes, Statistic: StatLo, Better: Higher, Params: []Param{ParamLevel},
			Description: "the lower end of the central credible interval of S_challenger − S_champion"},
		{Name: "bayes.diff.hi", Kind: KindNumber, Analysis: AnalysisBayes, Statistic: StatHi, Better: Higher, Params: []Param{ParamLevel},
			Description: "the upper end of the central credible interval of S_challenger − S_champion"},
		{Name: "brisk.p_riskier", Kind: KindProbability, Analysis: AnalysisBRisk, Statistic: StatPLess, Better: Lower, Params: risky,
			Description: "the posterior probability that the challenger's system effect is below the champion's — by more than the margin, when one is given — in the risk-adjusted pool (BRisk), where each system's losses against the champion are weighted"},
		{Name: "brisk.diff.mean", Kind: KindNumber, Analysis: AnalysisBRisk, Statistic: StatDiffMean, Better: Higher, Params: risky,
			Description: "the posterior mean of S_challenger − S_champion in the risk-adjusted pool (BRisk); negative means riskier than the champion"},
		{Name: "brisk.diff.lo", Kind: KindNumber, Analysis: AnalysisBRisk, Statistic: StatLo, Better: Higher, Params: riskyLevel,
			Description: "the lower end of the central credible interval of S_challenger − S_champion in the risk-adjusted pool (BRisk)"},
		{Name: "brisk.diff.hi", Kind: KindNumber, Analysis: AnalysisBRisk, Statistic: StatHi, Better: Higher, Params: riskyLevel,
			Description: "the upper end of the central credible interval of S_challenger − S_champion in the risk-adjusted pool (BRisk)"},
		{Name: "urisk", Kind: KindNumber, Analysis: AnalysisRisk, Statistic: StatURisk, Better: Higher, Params: risky,
			Description: "URisk: the mean per-topic difference challenger − champion with losses weighted (Wang et al. 2012); negative means the weighted losses outweigh the gains"},
		{Name: "trisk", Kind: KindNumber, Analysis: AnalysisRisk, Statistic: StatTRisk, Better: Higher, Params: risky,
			Description: "TRisk: URisk divided by its standard error, a paired t statistic (Dinçer et al. 2014); below −2 means significantly riskier"},
		{Name: "trisk_p", Kind: KindProbability, Analysis: AnalysisRisk, Statistic: StatTRiskP, Better: Neutral, Params: weighted,
			Description: "the two-sided p-value of TRisk against Student's t with n − 1 degrees of freedom"},
		{Name: "bca.lo", Kind: KindNumber, Analysis: AnalysisBCa, Statistic: StatLo, Better: Higher, Params: []Param{ParamLossWeight, ParamAlpha, ParamLevel, ParamCorrection, ParamMargin},
			Corrections: []Correction{CorrectNone, CorrectBonferroni},
			Description: "the lower end of the BCa bootstrap confidence interval of URisk"},
		{Name: "bca.hi", Kind: KindNumber, Analysis: AnalysisBCa, Statistic: StatHi, Better: Higher, Params: []Param{ParamLossWeight, ParamAlpha, ParamLevel, ParamCorrection, ParamMargin},
			Corrections: []Correction{CorrectNone, CorrectBonferroni},
			Description: "the upper end of the BCa bootstrap confidence interval of URisk"},
		{Name: "zrisk", Kind: KindNumber, Analysis: AnalysisRisk, Statistic: StatZRisk, Better: Higher, Params: weighted,
			Description: "ZRisk: the sum of the challenger's per-topic z-scores against the scores expected from the champion-and-challengers table, negative ones weighted (Dinçer et al. 2016)"},
		{Name: "georisk", Kind: KindNumber, Analysis: AnalysisRisk, Statistic: StatGeoRisk, Better: Higher, Params: weighted,
			Description: "GeoRisk: the geometric mean of the challenger's mean score and Φ(ZRisk/topics) (Dinçer et al. 2016)"},
	}
	for _, t := range TestNames {
		alts := alternatives
		if slices.Contains(twoSidedOnly, t) {
			alts = []Alternative{TwoSided}
		}
		qs = append(qs, &Quantity{Name: "tests." + t + ".p", Kind: KindProbability, Analysis: AnalysisTests, Statistic: StatPValue, Test: t,
			Better: Neutral, Params: testParams, Corrections: testCorrection, Alternatives: alts,
			Description: "the p-value of " + testWords[t] + ", comparing the challenger's scores with the champion's"})
	}
	qs = append(qs,
		&Quantity{Name: "rope.decision", Kind: KindCategory, Analysis: AnalysisBayes, Statistic: StatROPE, Better: Neutral,
			Params: []Param{ParamRope, ParamLevel}, Required: []Param{ParamRope}, Outcomes: RopeOutcomes,
			Description: "Zhang et al.'s HDI+ROPE decision on the posterior of S_challenger − S_champion: much_better (the HDI lies above the ROPE), better (mostly above), equivalent (inside), worse (mostly below), much_worse (below), else undecided"},
		&Quantity{Name: "topics_at_risk.count", Kind: KindCount, Analysis: AnalysisBRisk, Statistic: StatAtRisk, Better: Lower, Params: weightedLevel,
			Description: "the number of topics on which the challenger's risk-adjusted score falls below the lower end of its central posterior predictive interval in the BRisk model"},
		&Quantity{Name: "wins", Kind: KindCount, Analysis: AnalysisDescriptive, Statistic: StatWins, Better: Higher,
			Description: "the number of topics on which the challenger scores higher than the champion"},
		&Quantity{Name: "losses", Kind: KindCount, Analysis: AnalysisDescriptive, Statistic: StatLosses, Better: Lower,
			Description: "the number of topics on which the challenger scores lower than the champion"},
		&Quantity{Name: "ties", Kind: KindCount, Analysis: AnalysisDescriptive, Statistic: StatTies, Better: Neutral,
			Description: "the number of topics on which the challenger and the champion score the same"},
		&Quantity{Name: "mean", Kind: KindNumber, Analysis: AnalysisDescriptive, Statistic: StatMean, Better: Higher,
			Description: "the challenger's mean score over the topics"},
		&Quantity{Name: "mean_diff", Kind: KindNumber, Analysis: AnalysisDescriptive, Statistic: StatMeanDiff, Better: Higher,
			Description: "the challenger's mean score minus the champion's"},
	)
	return qs
}

// Reference describes the quantity for the JSON Schema and documentation:
// its description, kind, the bounds it takes and its parameters.
func (q *Quantity) Reference() string {
	var b strings.Builder
	b.WriteString(capitalizeFirst(q.Description) + ". ")
	switch q.Kind {
	case KindCategory:
		b.WriteString("A category; bound it with in: a list of " + strings.Join(q.Outcomes, ", ") + ".")
	case KindProbability:
		b.WriteString("A probability from 0 to 1.")
	case KindCount:
		b.WriteString("A whole number of topics.")
	default:
		b.WriteString("A number.")
	}
	switch q.Better {
	case Higher:
		b.WriteString(" Higher is better for the challenger.")
	case Lower:
		b.WriteString(" Lower is better for the challenger.")
	}
	var ps []string
	for _, p := range q.Params {
		switch p {
		case ParamLossWeight:
			ps = append(ps, "loss_weight or alpha (default: the policy's)")
		case ParamAlpha:
		case ParamLevel:
			ps = append(ps, "level (default 0.95)")
		case ParamCorrection:
			ps = append(ps, "correction: "+strings.Join(correctionNames(q.Corrections), ", ")+" (default none)")
		case ParamAlternative:
			ps = append(ps, "alternative: two_sided, greater, less (default two_sided)")
		case ParamRope:
			ps = append(ps, "rope: [lo, hi] (required)")
		case ParamMargin:
			if q.isTest() {
				ps = append(ps, "margin: δ ≥ 0 in score units: the test compares the challenger's scores plus δ with the champion's — H0 Δ ≤ −δ against greater (non-inferiority), Δ ≥ −δ against less (harm beyond δ) (default 0)")
			} else {
				ps = append(ps, "margin: a non-inferiority margin δ ≥ 0 in score units (default 0)")
			}
		}
	}
	if len(ps) > 0 {
		b.WriteString(" Parameters: " + strings.Join(ps, "; ") + ".")
	}
	return b.String()
}

func capitalizeFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

// Quantities returns every quantity a rule can use, in documentation order.
func Quantities() []*Quantity { return slices.Clone(registry) }

// LookupQuantity returns the named quantity, or nil.
func LookupQuantity(name string) *Quantity {
	for _, q := range registry {
		if q.Name == name {
			return q
		}
	}
	return nil
}

func quantityNames() []string {
	names := make([]string, len(registry))
	for i, q := range registry {
		names[i] = q.Name
	}
	return names
}

// rankable are the quantities select: best can rank by: numbers with a direction.
func rankableNames() []string {
	var names []string
	for _, q := range registry {
		if q.Kind.Numeric() && q.Better != Neutral && !slices.Contains(q.Required, ParamRope) {
			names = append(names, q.Name)
		}
	}
	return names
}

func paramNames(ps []Param) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = string(p)
	}
	return out
}

func correctionNames(cs []Correction) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

// RiskAdjusted reports whether q is a quantity of the challenger's
// risk-adjusted difference d_w (it weighs losses and takes a margin:
// brisk.p_riskier, brisk.diff.*, urisk, trisk, bca.*), which calibrate
// and the gate's evidence judge at other loss weights. The tests take a
// margin too, but weigh no losses.
func (q *Quantity) RiskAdjusted() bool { return q.Accepts(ParamMargin) && q.Weighted() }

// isTest reports whether q is one of the tests.<name>.p quantities, whose
// correction Evaluate applies to the raw p-values the gate supplies.
func (q *Quantity) isTest() bool { return strings.HasPrefix(q.Name, "tests.") }
