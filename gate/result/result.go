package result

import (
	"math"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// SchemaVersion is the version of the layout of Result and of its JSON
// form, result.json. Within a version fields are only added, never renamed or
// removed; a reader refuses a result of another version.
const SchemaVersion = 1

// Result is everything one run of riskgate gate decided and computed. Every
// report — the terminal table, markdown, JSON (result.json is Result itself),
// JUnit XML and HTML — is rendered from a Result and from nothing else, and
// riskgate publish reads result.json back into one.
//
// Numbers are reward-positive (higher is better for the system) unless a
// field says otherwise; a number that could not be computed is NaN in Go and
// null in JSON. Sections of analyses the policy did not need are absent
// (nil); Analyses says which ran and why the others did not.
type Result struct {
	SchemaVersion int  `json:"schema_version"`
	Tool          Tool `json:"tool"`

	// result.json's top level also holds the verdict and its exit status,
	// for pipelines that read only these: derived from Decision when
	// written (Verdict, ExitStatus), and refused when read unless they are
	// what Decision gives (Read).

	// DryRun: the run was to say what the verdict would be, and exit 0.
	DryRun bool `json:"dry_run"`

	// Summary is one line per challenger: means, Δ, W/T/L, P(better), the
	// policy's risk figure, the verdict and its reason (NewSummary).
	Summary []Summary `json:"summary,omitempty"`

	Policy   Policy             `json:"policy"`
	Decision *policies.Decision `json:"decision"`
	Data     Data               `json:"data"`
	// Analyses lists every analysis a policy can ask for, cheapest first,
	// with whether it ran and, if not, why.
	Analyses []Analysis `json:"analyses"`

	// RiskTable is Benham et al.'s Table 3 view: the champion and every
	// challenger with mean, URisk, TRisk, BCa, ZRisk, GeoRisk and BRisk.
	RiskTable RiskTable `json:"risk_table"`
	// Bayes is the hierarchical model fitted to the raw scores of every
	// system; nil when no rule needs it.
	Bayes *FitResult `json:"bayes,omitempty"`
	// BRisk holds the hierarchical model fitted to the risk-adjusted pool,
	// one fit per loss weight the rules use, in increasing order.
	BRisk []*FitResult `json:"brisk,omitempty"`

	// Segments are, per dimension a by: rule names, each challenger's
	// segment table (segments.go); nil without by: rules.
	Segments []SegmentTable `json:"segments,omitempty"`

	// Weighting says the means are traffic-weighted (weights.go); nil
	// when they are plain means.
	Weighting *Weighting `json:"weighting,omitempty"`

	// Regressions are, per challenger, the topics it loses most on against
	// the champion (riskgate gate --worst, DefaultWorst by default).
	Regressions []Regressions `json:"regressions,omitempty"`

	// Evidence says, for each challenger and each rule it did not pass, what
	// would decide the rule: the difference this pool resolves, the topics
	// that would likely decide it, the loss weights at which it passes.
	Evidence []Evidence `json:"evidence,omitempty"`

	// Coverage is, for runs + qrels inputs, how much of the top k of each
	// system the qrels judge, for each rule measure with a cutoff k; nil for
	// score files.
	Coverage []Coverage `json:"coverage,omitempty"`
	// Judgments is the judging worklist of the rules that need judgments
	// (runs + qrels inputs); nil when no rule does.
	Judgments *JudgmentsNeeded `json:"judgments_needed,omitempty"`

	// Warnings are everything a reader should know that is not a verdict:
	// policy warnings, alignment of the inputs, degenerate statistics,
	// sampler warnings. Never empty in JSON ([] when there are none).
	// Ranked: those tied to rules first, those that affect no rule last
	// (SetWarnings).
	Warnings []string `json:"warnings"`
	// WarningDetails are the same warnings as data, in the same (ranked)
	// order: what each is about and the rules it concerns (SetWarnings).
	WarningDetails []Warning  `json:"warning_details,omitempty"`
	Provenance     Provenance `json:"provenance"`
	// DecisionSHA256 is the integrity digest of the decision: the SHA-256 of
	// the canonical JSON of what decides (see DecisionDigest), set by
	// WriteJSON. riskgate publish refuses a result whose decision no longer
	// has this digest. Anyone can compute it: it detects an edit, it does
	// not prove who wrote the file (docs/ci.md).
	DecisionSHA256 string `json:"decision_sha256,omitempty"`

	// written are the derived fields as a file being read holds them, for
	// Read to check; nil otherwise.
	written *derived
}

// Evidence is what would decide one rule of one challenger that did not
// pass. Differences are on the scale of the rule's quantity: the score
// difference to the champion, or — for a risk quantity — the risk-adjusted
// difference at LossWeight (plus the rule's margin).
type Evidence struct {
	Challenger string `json:"challenger"`
	Rule       string `json:"rule"`
	// Scale says what the differences below are differences of.
	Scale      string  `json:"scale"`
	LossWeight float64 `json:"loss_weight,omitempty"` // of a risk quantity
	// Estimate is the difference as observed, beyond what the rule's bound
	// asks (positive: on the passing side); SE its standard error on this
	// pool (posterior SD for a Bayesian quantity).
	Estimate jsonfloat.Float `json:"estimate"`
	SE       jsonfloat.Float `json:"se"`
	Topics   int             `json:"topics"` // the pool's
	// ResolvableDifference is the smallest true difference (beyond the
	// bound) that this pool makes the rule pass with 80% probability:
	// (z_rule + z_0.8)·SE, z_rule the standard normal quantile of the
	// rule's threshold (Student's t for the tests).
	ResolvableDifference *jsonfloat.Float `json:"resolvable_difference,omitempty"`
	// TopicsToDecide is the number of topics with which the rule would pass
	// with 80% probability were the observed difference the true one
	// (Sakai's topic set size design for the tests and the risk-adjusted
	// mean; for a Bayesian quantity the posterior SD taken to shrink as
	// 1/√topics). Absent, with TopicsNote, when no number would do.
	TopicsToDecide *int   `json:"topics_to_decide,omitempty"`
	TopicsNote     string `json:"topics_note,omitempty"`
	// PassesAtLossWeight are the loss weights of the risk sweep at which
	// the rule, everything else the same, passes (risk quantities only).
	PassesAtLossWeight []float64 `json:"passes_at_loss_weight,omitempty"`
}

// Tool names the program that wrote the result.
type Tool struct {
	Name    string `json:"name"`    // "riskgate"
	Version string `json:"version"` // the release, or "(devel)"
}

// Policy is the policy as the run applied it, after command-line
// overrides (champion, challengers, loss weight, seed).
type Policy struct {
	Name        string `json:"name"`
	File        string `json:"file"`   // as given to --policy; "default policy" for the built-in one
	SHA256      string `json:"sha256"` // of the policy file's bytes
	Description string `json:"description,omitempty"`
	Default     bool   `json:"default"` // the built-in default policy (no --policy)

	// LossWeight w: losses against the champion count w times (w = 1 + α);
	// 0 when neither the policy nor --loss-weight sets one.
	LossWeight     float64          `json:"loss_weight"`
	Seed           uint64           `json:"seed"`
	Model          Model            `json:"model"`
	Requirements   Requirements     `json:"requirements"`
	Select         policies.Select  `json:"select"`
	RankBy         string           `json:"rank_by,omitempty"` // select: best only
	OnInconclusive policies.Verdict `json:"on_inconclusive"`
	Rules          []Rule           `json:"rules"`
	Waivers        []Waiver         `json:"waivers,omitempty"`
}

// Model are the policy's settings of the Bayesian fits.
type Model struct {
	Family    policies.Family `json:"family"`
	Chains    int             `json:"chains"`
	TargetESS int             `json:"target_ess"`
	MaxRhat   float64         `json:"max_rhat"`
	MaxDraws  int             `json:"max_draws"` // per chain
}

// Requirements are the policy's data requirements (0: none).
type Requirements struct {
	MinTopics        int     `json:"min_topics"`
	MinArtifacts     int     `json:"min_artifacts"`
	MinTopicCoverage float64 `json:"min_topic_coverage"`
}

// Rule is one rule of the policy.
type Rule struct {
	ID       string `json:"id"`
	Line     int    `json:"line,omitempty"` // of the rule in the policy file (0 for the built-in policy's)
	Column   int    `json:"column,omitempty"`
	Quantity string `json:"quantity"`
	// Query is the quantity with its parameters, e.g. "brisk.p_riskier(loss_weight=5)".
	Query       string            `json:"query"`
	Bound       policies.Bound    `json:"bound"`
	BoundWords  string            `json:"bound_words"` // "at most 0.05"
	Severity    policies.Severity `json:"severity"`
	Description string            `json:"description,omitempty"`
}

// Waiver is one waiver of the policy, active or not on the run's date.
type Waiver struct {
	Rule       string `json:"rule"`
	Challenger string `json:"challenger"` // name or glob
	Reason     string `json:"reason"`
	Approver   string `json:"approver"`
	Expires    string `json:"expires"` // YYYY-MM-DD, the last day it applies (UTC)
	Active     bool   `json:"active"`
}

// Data describes the score table the analyses ran on.
type Data struct {
	// Measure is the default measure's: that of the rules that name none,
	// of Scores, of the risk table and of the fits the reports show.
	Measure string `json:"measure,omitempty"`
	// Measures are every measure a rule of a gate of several measures is
	// judged on, the default first; absent for a one-measure gate.
	Measures []string `json:"measures,omitempty"`
	// LowerIsBetter are the measures of Measures of which lower is better.
	LowerIsBetter []string `json:"lower_is_better,omitempty"`
	Champion      string   `json:"champion"`
	Challengers   []string `json:"challengers"` // in data order
	Artifacts     []string `json:"artifacts"`   // every other system, in data order
	Topics        []string `json:"topics"`      // the aligned table's topics, in data order
	// MissingCells counts the cells left missing (--topics keep).
	MissingCells int `json:"missing_cells"`
	// TopicCoverage is the share of the inputs' topics scored by every
	// system (requirements.min_topic_coverage), in [0, 1].
	TopicCoverage jsonfloat.Float `json:"topic_coverage"`
	// Alignment says what aligning the inputs changed; absent when nothing.
	Alignment *scores.Alignment `json:"alignment,omitempty"`
	// Example is true for the built-in simulated pool of --example.
	Example bool `json:"example,omitempty"`
	// Scores are the per-topic scores of the champion and the challengers,
	// aligned with Topics (NaN/null where missing).
	Scores []SystemScores `json:"scores"`
	// Pool is the run history the artifacts were taken from (gate --pool);
	// absent when none.
	Pool *PoolUse `json:"pool,omitempty"`
}

// PoolUse says which stored systems of a run history (docs/pool.md) a gate
// took as artifacts, against which fingerprints, and which it left out.
type PoolUse struct {
	Dir string `json:"dir"`
	// Qrels is the SHA-256 of the qrels the champion was scored against,
	// which every stored system must share; "unknown" when none was given
	// (then only the topic sets are compared, for systems whose qrels are
	// unknown too).
	Qrels string `json:"qrels"`
	// Topics is the fingerprint of the champion's topic set (pool.
	// TopicSetSHA256), which every stored system must share, and NTopics
	// its size.
	Topics  string `json:"topics"`
	NTopics int    `json:"n_topics"`
	// Stored counts the systems the pool held; Artifacts are those taken,
	// in data order; Excluded those left out, each with its reason.
	Stored    int             `json:"stored"`
	Artifacts []string        `json:"artifacts"`
	Excluded  []PoolExclusion `json:"excluded"`
}

// PoolExclusion is a stored system a gate left out of its pool.
type PoolExclusion struct {
	System string `json:"system"`
	// Reason is one of pool.Reason's values (other-qrels, unknown-qrels,
	// other-topics, no-measure, in-inputs) or "challenger-name" (a stored
	// system a challenger pattern matches: stored systems join only as
	// artifacts).
	Reason string `json:"reason"`
	Detail string `json:"detail"` // every reason, in words
}

// SystemScores are one system's scores, aligned with Data.Topics.
type SystemScores struct {
	System string            `json:"system"`
	Role   string            `json:"role"` // champion or challenger
	Scores []jsonfloat.Float `json:"scores"`
}

// Roles of the systems in a result.
const (
	RoleChampion   = "champion"
	RoleChallenger = "challenger"
	RoleArtifact   = "artifact"
)

// Analysis says whether one analysis ran.
type Analysis struct {
	Name     policies.Analysis `json:"name"`
	Computed bool              `json:"computed"`
	// Needed is true when a rule (or rank_by) uses the analysis; cheap
	// analyses also run for the reports when not needed.
	Needed bool `json:"needed"`
	// Reason says why the analysis did not run, or what limited it.
	Reason string `json:"reason,omitempty"`
}

// RiskTable is the Table 3 view of Benham et al. (SIGIR 2020): one row for
// the champion and one per challenger, in the reward-positive signs of
// package risk (the paper's "⁻" columns are their negations).
type RiskTable struct {
	// LossWeight is the w of URisk, TRisk, BCa, ZRisk, GeoRisk and BRisk in
	// this view: the policy's (1 when it sets none). Rules with their own
	// loss_weight show their values in the decision.
	LossWeight float64 `json:"loss_weight"`
	// BCaLevel is the level of the BCa intervals; 0 when no rule needed BCa.
	BCaLevel float64 `json:"bca_level,omitempty"`
	// Pool is the systems ZRisk and GeoRisk are computed over.
	Pool    string       `json:"pool"`
	Systems []SystemRisk `json:"systems"`
}

// SystemRisk is one row of the Table 3 view. Fields that do not apply to
// the system (the champion against itself) or were not computed are absent.
type SystemRisk struct {
	Name string          `json:"name"`
	Role string          `json:"role"` // champion or challenger
	Mean jsonfloat.Float `json:"mean"` // mean score over the topics it was scored on
	// Against the champion, challengers only:
	MeanDiff *jsonfloat.Float `json:"mean_diff,omitempty"`
	Wins     *int             `json:"wins,omitempty"`
	Ties     *int             `json:"ties,omitempty"`
	Losses   *int             `json:"losses,omitempty"`
	URisk    *jsonfloat.Float `json:"urisk,omitempty"`
	TRisk    *jsonfloat.Float `json:"trisk,omitempty"`
	TRiskP   *jsonfloat.Float `json:"trisk_p,omitempty"` // two-sided, uncorrected
	// BCa is the bootstrap interval of URisk at RiskTable.BCaLevel.
	BCa *Interval `json:"bca,omitempty"`
	// Over the pool, champion included:
	ZRisk   *jsonfloat.Float `json:"zrisk,omitempty"`
	GeoRisk *jsonfloat.Float `json:"georisk,omitempty"`
	// BRisk is the system effect in the risk-adjusted pool at LossWeight
	// with its 95% credible interval (BRisk⁻ in the paper is its negation).
	BRisk *Interval `json:"brisk,omitempty"`
}

// Interval is an estimate with an interval at Level.
type Interval struct {
	Estimate jsonfloat.Float `json:"estimate"`
	Lo       jsonfloat.Float `json:"lo"`
	Hi       jsonfloat.Float `json:"hi"`
	Level    float64         `json:"level"`
}

// Pools of FitResult.
const (
	PoolRaw          = "raw"           // the observed scores
	PoolRiskAdjusted = "risk-adjusted" // BRisk: champion unchanged, others champion + risk-adjusted difference
)

// FitResult is one fit of the hierarchical model
//
//	y_st = β0 + T_t + S_s + e_st,  T_t ~ N(0, sd_topic²),  S_s ~ N(0, sd_system²),  e_st ~ N(0, σ²)
//
// (Benham et al., SIGIR 2020, eq. 3) over the champion, the challengers and
// the artifacts, on the raw scores (the bayes.* quantities) or on the
// risk-adjusted pool at one loss weight (BRisk, the brisk.* quantities).
// Everything a forest plot, a density plot or a predictive plot needs is
// here: effects with quantiles and HDIs, the densities of the differences,
// and per-topic posterior predictive intervals.
type FitResult struct {
	Pool       string  `json:"pool"`                  // PoolRaw or PoolRiskAdjusted
	LossWeight float64 `json:"loss_weight,omitempty"` // the risk-adjusted pool's w
	// Unavailable says why there is no fit (the model could not be fitted);
	// the other fields are then empty.
	Unavailable string `json:"unavailable,omitempty"`
	// Fallback says why the model's system spread has the day-one prior
	// (bayes.IRPools) instead of one learnt from the pool: fewer artifacts
	// than requirements.min_artifacts; empty when it learnt it from the pool.
	Fallback string `json:"fallback,omitempty"`

	Family string            `json:"family,omitempty"` // likelihood: gaussian or skew_normal
	Method string            `json:"method,omitempty"` // sampler path: collapsed or general
	Priors map[string]string `json:"priors,omitempty"`
	// Converged is false when any R-hat exceeds the policy's max_rhat, any
	// bulk- or tail-ESS stays below its target_ess, or a transition
	// diverged. The rules using a fit that did not converge are inconclusive.
	Converged bool `json:"converged"`
	// NotConverged says, when Converged is false, which check failed and
	// which policy setting would help, in one sentence.
	NotConverged string   `json:"not_converged,omitempty"`
	Warnings     []string `json:"warnings,omitempty"`

	// Parameters are intercept, sigma, sd_topic and sd_system, then the
	// family's own (alpha, the skewness of the skew normal).
	Parameters []Effect `json:"parameters,omitempty"`
	// Systems are the system effects S_s of every system, in data order.
	Systems []Effect `json:"systems,omitempty"`
	// Topics are the topic effects T_t, in data order.
	Topics []Effect `json:"topics,omitempty"`
	// Comparisons compare each challenger's system effect with the champion's.
	Comparisons []Comparison `json:"comparisons,omitempty"`
	// Predictive are the posterior predictive intervals of every
	// observation of the champion and the challengers.
	Predictive []Prediction `json:"predictive,omitempty"`
	// TopicsAtRisk (risk-adjusted pool only) are, per challenger, the topics
	// whose observed difference to the champion falls below the lower end of
	// its central posterior predictive interval.
	TopicsAtRisk []TopicsAtRisk `json:"topics_at_risk,omitempty"`
	Diagnostics  *Diagnostics   `json:"diagnostics,omitempty"`
}

// Effect summarises the posterior draws of one quantity of the model.
type Effect struct {
	Name  string          `json:"name"`
	Role  string          `json:"role,omitempty"` // for system effects: champion, challenger or artifact
	Mean  jsonfloat.Float `json:"mean"`
	SD    jsonfloat.Float `json:"sd"`
	Q2_5  jsonfloat.Float `json:"q2_5"`
	Q25   jsonfloat.Float `json:"q25"`
	Q50   jsonfloat.Float `json:"q50"`
	Q75   jsonfloat.Float `json:"q75"`
	Q97_5 jsonfloat.Float `json:"q97_5"`
	HDILo jsonfloat.Float `json:"hdi_lo"` // 95% highest-density interval
	HDIHi jsonfloat.Float `json:"hdi_hi"`
	// Convergence of this quantity (R-hat, bulk- and tail-ESS; Vehtari et al. 2021).
	Rhat    jsonfloat.Float `json:"rhat"`
	ESSBulk jsonfloat.Float `json:"ess_bulk"`
	ESSTail jsonfloat.Float `json:"ess_tail"`
	// EffectDetail, when set (riskgate fit's variance components), is the
	// rest of the draws' summary.
	*EffectDetail
}

// EffectDetail is the rest of a quantity's summary (bayes.VarSummary):
// the median and MAD, the 5% and 95% quantiles, the basic (unranked) R-hat
// and ESS, and the Monte Carlo standard errors of the mean, the SD and the
// 2.5% and 97.5% quantiles (Vehtari et al. 2021; posterior's mcse_*).
type EffectDetail struct {
	Median    jsonfloat.Float `json:"median"`
	MAD       jsonfloat.Float `json:"mad"`
	Q5        jsonfloat.Float `json:"q5"`
	Q95       jsonfloat.Float `json:"q95"`
	RhatBasic jsonfloat.Float `json:"rhat_basic"`
	ESSBasic  jsonfloat.Float `json:"ess_basic"`
	MCSEMean  jsonfloat.Float `json:"mcse_mean"`
	MCSESD    jsonfloat.Float `json:"mcse_sd"`
	MCSEQ2_5  jsonfloat.Float `json:"mcse_q2_5"`
	MCSEQ97_5 jsonfloat.Float `json:"mcse_q97_5"`
}

// Comparison is the posterior of δ = S_challenger − S_champion.
type Comparison struct {
	Challenger string `json:"challenger"`
	// PBetter is P(δ > 0): bayes.p_better on the raw pool.
	PBetter jsonfloat.Float `json:"p_better"`
	// PWorse is P(δ < 0): brisk.p_riskier on the risk-adjusted pool.
	PWorse jsonfloat.Float `json:"p_worse"`
	// Diff summarises δ (Name is "diff"; no convergence fields are set).
	Diff Effect `json:"diff"`
	// Intervals are central credible intervals of δ at the levels the rules
	// ask for (bayes.diff.lo|hi, brisk.diff.lo|hi), 95% always included.
	Intervals []Interval `json:"intervals"`
	// ROPE are the HDI+ROPE decisions the rules ask for (rope.decision).
	ROPE []ROPEResult `json:"rope,omitempty"`
	// Density is a kernel density estimate of δ's posterior.
	Density Density `json:"density"`
}

// Fits are the run's fits: the raw-score fit, when there is one, then the
// BRisk fits in loss-weight order.
func (r *Result) Fits() []*FitResult {
	var out []*FitResult
	for _, f := range append([]*FitResult{r.Bayes}, r.BRisk...) {
		if f != nil { // a result read back from JSON may hold nulls
			out = append(out, f)
		}
	}
	return out
}

// Label names a fit in the reports' tables.
func (f *FitResult) Label() string {
	if f.Pool == PoolRiskAdjusted {
		return "BRisk, w = " + numfmt.G(f.LossWeight)
	}
	return "raw scores"
}

// Interval is the central credible interval of δ at level, NaN if the
// comparison has none at that level.
func (c Comparison) Interval(level float64) (lo, hi float64) {
	for _, in := range c.Intervals {
		if in.Level == level {
			return float64(in.Lo), float64(in.Hi)
		}
	}
	return math.NaN(), math.NaN()
}

// ROPEResult is Zhang et al.'s HDI+ROPE decision on δ.
type ROPEResult struct {
	Lo       float64         `json:"lo"` // the region of practical equivalence
	Hi       float64         `json:"hi"`
	Level    float64         `json:"level"` // mass of the HDI
	HDILo    jsonfloat.Float `json:"hdi_lo"`
	HDIHi    jsonfloat.Float `json:"hdi_hi"`
	Inside   jsonfloat.Float `json:"inside"` // share of the draws inside the ROPE
	Decision string          `json:"decision"`
}

// Density is a density curve on an even grid: Y[i] is the density at X[i].
type Density struct {
	X []jsonfloat.Float `json:"x"`
	Y []jsonfloat.Float `json:"y"`
	// Bandwidth of the Gaussian kernel (R's bw.nrd0).
	Bandwidth jsonfloat.Float `json:"bandwidth"`
}

// PredictiveLevel is the level of the per-topic posterior predictive
// intervals (Prediction) and of the topics at risk every BRisk fit lists.
const PredictiveLevel = 0.95

// Prediction is the posterior predictive distribution of one observation
// y_st (one replicate y_st = β0 + T_t + S_s + e_st per posterior draw, e_st
// from the family): its mean and central interval, beside the observed value
// (risk-adjusted in the risk-adjusted pool). These are Figure 8's intervals.
type Prediction struct {
	System   string          `json:"system"`
	Topic    string          `json:"topic"`
	Observed jsonfloat.Float `json:"observed"` // NaN/null for a missing cell
	Mean     jsonfloat.Float `json:"mean"`
	Lo       jsonfloat.Float `json:"lo"`
	Hi       jsonfloat.Float `json:"hi"`
	Level    float64         `json:"level"`
}

// TopicsAtRisk lists one challenger's topics at risk.
type TopicsAtRisk struct {
	Challenger string        `json:"challenger"`
	Level      float64       `json:"level"` // of the central predictive interval
	Topics     []TopicAtRisk `json:"topics"`
}

// TopicAtRisk is a topic whose observed risk-adjusted difference to the
// champion fell below its predictive interval [Lo, Hi].
type TopicAtRisk struct {
	Topic    string          `json:"topic"`
	Observed jsonfloat.Float `json:"observed"`
	Lo       jsonfloat.Float `json:"lo"`
	Hi       jsonfloat.Float `json:"hi"`
}

// Diagnostics are the sampler's settings and convergence checks of a fit.
type Diagnostics struct {
	Chains       int               `json:"chains"`
	Draws        int               `json:"draws"` // kept draws per chain, after any extension
	Warmup       int               `json:"warmup"`
	Thin         int               `json:"thin"`
	Extended     int               `json:"extended"` // draws per chain added to reach TargetESS
	AdaptDelta   float64           `json:"adapt_delta"`
	MaxDepth     int               `json:"max_depth"`
	TargetESS    float64           `json:"target_ess"`
	MaxRhat      float64           `json:"max_rhat"` // the threshold
	Divergences  int               `json:"divergences"`
	MaxDepthHits int               `json:"max_depth_hits"`
	EBFMI        []jsonfloat.Float `json:"ebfmi"` // per chain
	// The worst values over every quantity of the model.
	WorstRhat    jsonfloat.Float `json:"worst_rhat"`
	WorstESSBulk jsonfloat.Float `json:"worst_ess_bulk"`
	WorstESSTail jsonfloat.Float `json:"worst_ess_tail"`
}

// Provenance is what it takes to reproduce the run. In result.json it also
// holds copies of the tool's version and of the policy's file, digest and
// seed (tool_version, policy_file, policy_sha256, seed): derived from
// Result.Tool and Result.Policy when written, and refused when read unless
// they are theirs (Read).
type Provenance struct {
	// Inputs are the files read, with their SHA-256 (empty for standard
	// input or the simulated example).
	Inputs []InputFile `json:"inputs"`
	// Sampler are the settings of the Bayesian fits (absent when none ran).
	Sampler *SamplerSettings `json:"sampler,omitempty"`
	// Bootstrap replicates of BCa and of the permutation and bootstrap tests.
	BootstrapSamples int `json:"bootstrap_samples,omitempty"`
	// Command is one line that replays the run (shell-quoted), from the
	// folder it ran in.
	Command string `json:"command"`
	// StartedAt (RFC 3339, UTC) and ElapsedMS vary from run to run; nothing
	// else in a result does for the same inputs, policy and seed.
	StartedAt string           `json:"started_at"`
	ElapsedMS int64            `json:"elapsed_ms"`
	Timings   map[string]int64 `json:"timings_ms,omitempty"` // per analysis
}

// NewInputFiles are the inputs' provenance: the digest of each is of the
// bytes the loader parsed (scores.LoadSources reads every input once); nil
// when nothing was read (the built-in example).
func NewInputFiles(sources []scores.Source) []InputFile {
	if len(sources) == 0 {
		return nil
	}
	out := make([]InputFile, len(sources))
	for i, src := range sources {
		out[i] = InputFile{Role: src.Role, Path: src.Path, SHA256: src.SHA256, Bytes: src.Bytes}
	}
	return out
}

// InputFile is one input file and its digest.
type InputFile struct {
	Role   string `json:"role"` // scores or qrels
	Path   string `json:"path"`
	SHA256 string `json:"sha256,omitempty"`
	Bytes  int64  `json:"bytes"`
}

// SamplerSettings are the NUTS settings every Bayesian fit of the run used.
type SamplerSettings struct {
	Family     string  `json:"family"`
	Method     string  `json:"method"`
	Chains     int     `json:"chains"`
	Warmup     int     `json:"warmup"`
	TargetESS  int     `json:"target_ess"`
	MaxRhat    float64 `json:"max_rhat"`
	AdaptDelta float64 `json:"adapt_delta,omitempty"`
	MaxDepth   int     `json:"max_depth,omitempty"`
}

// Verdict is the run's verdict after on_inconclusive: pass, warn, fail or
// inconclusive (the decision's).
func (r *Result) Verdict() policies.Verdict {
	if r.Decision == nil {
		return ""
	}
	return r.Decision.Verdict
}

// ExitStatus is the exit status the verdict maps to: 0 pass or warn, 1
// fail, 3 inconclusive. Under DryRun the process exits 0 instead.
func (r *Result) ExitStatus() int { return ExitStatus(r.Verdict()) }

// ExitStatus maps a verdict to the exit status.
func ExitStatus(v policies.Verdict) int {
	switch v {
	case policies.Fail:
		return ExitFail
	case policies.Inconclusive:
		return ExitInconclusive
	}
	return ExitPass
}

// Exit statuses of a verdict: Result.ExitStatus, and riskgate gate's exit
// status unless --dry-run.
const (
	ExitPass         = 0 // pass (warnings allowed)
	ExitFail         = 1 // the gate failed a challenger
	ExitInconclusive = 3 // the gate could not decide (after on_inconclusive)
)

// JudgmentsNeeded is the judging worklist of the rules that need judgments:
// the unjudged (topic, document) pairs within the depth of their measures
// that the champion or the challengers rank, of which Movable could change
// a system's per-topic score, the most influential Listed of them in File.
type JudgmentsNeeded struct {
	// File is the worklist's name in the report folder (judgments-needed.tsv);
	// empty when the run wrote no report folder (--out).
	File     string   `json:"file,omitempty"`
	Measures []string `json:"measures"` // of the rules that need judgments
	Unjudged int      `json:"unjudged"`
	Movable  int      `json:"movable"`
	Listed   int      `json:"listed"`
	// Rules names each rule that needs judgments, as "challenger rule".
	Rules []string `json:"rules"`
}

// Coverage is judged@k of the champion and each challenger, the share of a
// ranking's top k that the qrels judge (trec_eval's 1 − unj@k; ranks past
// the end of a ranking count as judged), averaged over the gate's topics,
// for a measure that reads the top k.
type Coverage struct {
	Measure string `json:"measure"` // the measure it qualifies
	K       int64  `json:"k"`
	// Judged maps each system (champion and challengers) to its mean
	// judged@k over the gate's topics.
	Judged map[string]jsonfloat.Float `json:"judged"`
}
