package policies

// The keys of every mapping in a policy, each with its JSON Schema. The parser
// rejects any key not listed here and the JSON Schema is generated from these
// lists, so the two cannot drift apart (schema_test.go checks both ways).

type obj = map[string]any

// field is one key a policy mapping accepts.
type field struct {
	name     string
	required bool
	doc      string // one line, shown by editors through the schema
	schema   obj    // the JSON Schema of the value (without description)
}

// idPattern is the shape of policy names and rule ids: they appear in check
// names, PR-comment markers and JUnit test names, so they stay plain.
const idPattern = `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`

var (
	stringSchema    = obj{"type": "string"}
	nonEmptyString  = obj{"type": "string", "minLength": 1}
	idSchema        = obj{"type": "string", "pattern": idPattern}
	numberSchema    = obj{"type": "number"}
	lossWeightValue = obj{"type": "number", "minimum": 1, "maximum": MaxLossWeight}
	alphaValue      = obj{"type": "number", "minimum": 0, "maximum": MaxLossWeight - 1}
	levelValue      = obj{"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}
	// marginValue is δ in score units (0 to 1) or a share of the champion's
	// mean on the rule's measure ("2%").
	marginValue = obj{"oneOf": []any{obj{"type": "number", "minimum": 0, "maximum": 1},
		obj{"type": "string", "pattern": `^[0-9]+(\.[0-9]+)?%$`}}}
	ropeValue = obj{"type": "array", "prefixItems": []any{obj{"type": "number", "maximum": 0}, obj{"type": "number", "minimum": 0}},
		"minItems": 2, "maxItems": 2}
)

func enumSchema[T ~string](values []T) obj {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return obj{"type": "string", "enum": out}
}

func stringList(minItems int) obj {
	return obj{"type": "array", "items": nonEmptyString, "minItems": minItems, "uniqueItems": true}
}

var onInconclusiveValues = []Verdict{Fail, Warn, Pass, Inconclusive}

// onInsufficientPoolValues are what a Bayesian rule's pass on a too small pool
// may count as: never pass (a requirement that is not met cannot let a rule pass).
var onInsufficientPoolValues = []Verdict{Warn, Inconclusive, Fail}

var topFields = []field{
	{name: "version", required: true, doc: "policy format version; must be 1", schema: obj{"const": Version}},
	{name: "name", required: true, doc: "the policy's name, used in report titles, PR-comment markers and check names (letters, digits, _ . -)", schema: idSchema},
	{name: "description", doc: "what the policy is for, in a sentence or two", schema: stringSchema},
	{name: "inputs", doc: "the score inputs; command-line flags override each key", schema: obj{"$ref": "#/$defs/inputs"}},
	{name: "champion", doc: "the production system every challenger is compared with (or --champion)", schema: nonEmptyString},
	{name: "challengers", doc: "challenger names or globs (* any characters, ? one); every other system except the champion is an artifact (or --challenger)", schema: stringList(1)},
	{name: "loss_weight", doc: "how many times a loss against the champion counts in the risk quantities (w ≥ 1; w = 1 + alpha)", schema: lossWeightValue},
	{name: "alpha", doc: "extra weight of losses, as in URisk_α: losses count 1 + alpha times (give loss_weight or alpha, not both)", schema: alphaValue},
	{name: "seed", doc: "seed of every random procedure (MCMC, bootstrap, permutation tests); default 1", schema: obj{"type": "integer", "minimum": 0}},
	{name: "model", doc: "settings of the Bayesian fits", schema: obj{"$ref": "#/$defs/model"}},
	{name: "requirements", doc: "data the rules need; a rule whose requirements are unmet can still fail, but cannot pass", schema: obj{"$ref": "#/$defs/requirements"}},
	{name: "rules", required: true, doc: "the checks every challenger must pass", schema: obj{"type": "array", "items": obj{"$ref": "#/$defs/rule"}, "minItems": 1}},
	{name: "select", doc: "best: ship the best passing challenger (by rank_by); all: every challenger must pass; default best", schema: enumSchema([]Select{SelectBest, SelectAll})},
	{name: "rank_by", doc: "the quantity that orders passing challengers for select: best (higher or lower is better as the quantity says); default mean_diff", schema: enumSchema(rankableNames())},
	{name: "on_inconclusive", doc: "what an inconclusive gate counts as: fail, warn, pass, or inconclusive (exit status 3); default inconclusive", schema: enumSchema(onInconclusiveValues)},
	{name: "on_insufficient_pool", doc: "with fewer artifacts than requirements.min_artifacts the Bayesian rules take the system spread from the day-one prior (ir_pools, from published IR pools) instead of the pool; a rule that model passes counts as warn (default), inconclusive or fail — one it fails still fails", schema: enumSchema(onInsufficientPoolValues)},
	{name: "waivers", doc: "time-limited exemptions of one rule for matching challengers", schema: obj{"type": "array", "items": obj{"$ref": "#/$defs/waiver"}}},
}

var inputFields = []field{
	{name: "paths", doc: "score files (relative to the policy file's folder); INPUT arguments override", schema: stringList(1)},
	{name: "format", doc: "input format (--input-format)", schema: enumSchema(InputFormats)},
	{name: "qrels", doc: "qrels file for TREC run inputs (--qrels)", schema: stringSchema},
	{name: "measure", doc: "the measure of the rules that name none, in trec_eval's, ir_measures' or NTCIREVAL's spelling: map, ndcg_cut_10, nDCG@10, Q, nERR@10 (riskgate help measures; --measure)", schema: stringSchema},
	{name: "topics", doc: "topics not scored for every system: intersect, zero, error or keep (--topics)", schema: enumSchema(TopicModes)},
	{name: "lower_is_better", doc: "measures of which a lower score is better (latency, cost, an error rate; --lower-is-better): every quantity of a rule on one is of the improvement, champion − challenger", schema: stringList(1)},
	{name: "pool", doc: "the run history folder (riskgate pool; relative to the policy file's folder) whose stored systems join the gate as artifacts (--pool)", schema: stringSchema},
	{name: "pool_mismatch", doc: "a stored system scored against other qrels or another topic set than the champion: exclude it with a warning naming it (default), or refuse the gate", schema: enumSchema(PoolMismatches)},
	{name: "topics_file", doc: "the topics file (CSV, TSV or Parquet; relative to the policy file's folder): a topic column, the dimensions (columns) the rules' by: name, and optionally a weight column (--topics-file)", schema: nonEmptyString},
}

var modelFields = []field{
	{name: "family", doc: "likelihood of the hierarchical model: gaussian or skew_normal; default gaussian", schema: enumSchema(families)},
	{name: "chains", doc: "number of MCMC chains; default 4", schema: obj{"type": "integer", "minimum": 1, "maximum": maxChains}},
	{name: "target_ess", doc: "effective sample size the sampler aims for on the quantities the rules use; default 4000", schema: obj{"type": "integer", "minimum": minTargetESS}},
	{name: "max_rhat", doc: "a fit with R-hat above this on a quantity a rule uses has not converged, and the rule is inconclusive; default 1.01", schema: obj{"type": "number", "exclusiveMinimum": 1}},
	{name: "max_draws", doc: "the most draws per chain a fit may take to reach target_ess (it costs time in proportion); a fit still short of the target has not converged; default 10000", schema: obj{"type": "integer", "minimum": minMaxDraws, "maximum": maxMaxDraws}},
	{name: "early_stop", doc: "a fit that only decides (riskgate calibrate's; the gate's fits are shown in its reports and always reach target_ess) stops sampling once every rule on it is beyond its bound by 4 Monte Carlo standard errors; default true", schema: obj{"type": "boolean"}},
}

const (
	maxChains    = 64
	minTargetESS = 100
	minMaxDraws  = 100
	maxMaxDraws  = 1_000_000
)

// Bounds of a fit's settings, for the command lines that take them as flags
// (fit, compare) as well as a policy's model.
const (
	MaxChains        = maxChains
	MaxDrawsPerChain = maxMaxDraws
)

var requirementFields = []field{
	{name: "min_topics", doc: "fewest topics (after alignment) the rules may be judged on", schema: obj{"type": "integer", "minimum": 0}},
	{name: "min_artifacts", doc: "fewest artifact systems the Bayesian rules may learn from", schema: obj{"type": "integer", "minimum": 0}},
	{name: "min_topic_coverage", doc: "smallest share (0–1) of the topics in the inputs that every system must have scored", schema: obj{"type": "number", "minimum": 0, "maximum": 1}},
	{name: "min_topics_per_segment", doc: "fewest topics a segment of a by: rule may be judged on; a smaller segment is reported and its outcome is inconclusive, never pass", schema: obj{"type": "integer", "minimum": 1}},
}

// ruleKeys are a rule's own keys; its parameters follow (ruleFields).
var ruleKeys = []field{
	{name: "id", required: true, doc: "the rule's name in reports (letters, digits, _ . -; unique)", schema: idSchema},
	{name: "quantity", required: true, doc: "what the rule bounds", schema: obj{"$ref": "#/$defs/quantity"}},
	{name: "description", doc: "why the rule exists, shown in reports", schema: stringSchema},
	{name: "measure", doc: "the measure the rule is judged on, in any spelling (map, ndcg_cut.10, nDCG@10, a column of the inputs); default inputs.measure, else the inputs' only measure", schema: nonEmptyString},
	{name: "judgments", doc: "runs + qrels: check (default) also judges the rule with the challenger's unjudged documents left out (condensed lists) and relevant (optimistic), and where the outcome changes the rule needs judgments (inconclusive); ignore judges it on the standard scores alone (unjudged documents not relevant)", schema: enumSchema([]JudgmentsMode{JudgmentsCheck, JudgmentsIgnore})},
	{name: "by", doc: "a dimension (column) of the topics file: the rule's quantity is computed and bounded within every segment of it", schema: nonEmptyString},
	{name: "segments", doc: "how a by: rule's segments combine: all_pass (default) — the bound must hold in every segment (non-inferiority in each, an intersection–union test); no_harm — the challenger fails when some segment shows harm beyond the margin (a harm test with alternative: less and at_least, Holm or BH across segments and challengers; or bayes.p_worse, brisk.p_riskier at_most)", schema: enumSchema([]SegmentSemantics{SegmentsAllPass, SegmentsNoHarm})},
	{name: "severity", doc: "fail: a challenger failing the rule fails; warn: it passes with a warning; default fail", schema: enumSchema([]Severity{SeverityFail, SeverityWarn})},
	{name: string(AtLeast), doc: "pass when the value is at least this", schema: numberSchema},
	{name: string(AtMost), doc: "pass when the value is at most this", schema: numberSchema},
	{name: string(In), doc: "pass when the value is in [lo, hi] (numbers) or one of the listed outcomes (categories)", schema: obj{"type": "array", "minItems": 1}},
}

var paramFields = map[Param]field{
	ParamLevel:       {name: string(ParamLevel), doc: "credible or confidence level of the interval; default 0.95", schema: levelValue},
	ParamCorrection:  {name: string(ParamCorrection), doc: "multiple-comparison correction over the challengers (and, for a by: rule's test, its segments): none, bonferroni, holm or bh (tests); none or bonferroni (bca); default none, holm for a segments: no_harm test", schema: enumSchema(testCorrection)},
	ParamRope:        {name: string(ParamRope), doc: "region of practical equivalence [lo, hi] around 0, in score units", schema: ropeValue},
	ParamLossWeight:  {name: string(ParamLossWeight), doc: "loss weight for this rule only (overrides the policy's)", schema: lossWeightValue},
	ParamAlpha:       {name: string(ParamAlpha), doc: "alpha for this rule only: losses count 1 + alpha times", schema: alphaValue},
	ParamAlternative: {name: string(ParamAlternative), doc: "alternative hypothesis: two_sided, greater (challenger better) or less; default two_sided", schema: enumSchema(alternatives)},
	ParamMargin:      {name: string(ParamMargin), doc: "non-inferiority margin δ in score units (0 to 1), or relative to the champion: \"2%\" is 2% of the champion's mean score on the rule's measure; the quantity is computed for the risk-adjusted difference plus δ, so 'not riskier' means 'not riskier by more than δ'; a test (tests.*.p) compares the challenger's scores plus δ with the champion's; default 0", schema: marginValue},
}

var ruleFields = func() []field {
	fs := append([]field(nil), ruleKeys...)
	for _, p := range params {
		fs = append(fs, paramFields[p])
	}
	return fs
}()

var waiverFields = []field{
	{name: "rule", required: true, doc: "id of the waived rule", schema: idSchema},
	{name: "challenger", required: true, doc: "challenger name or glob the waiver covers", schema: nonEmptyString},
	{name: "reason", required: true, doc: "why the rule may be ignored", schema: nonEmptyString},
	{name: "approver", required: true, doc: "who accepted the risk", schema: nonEmptyString},
	{name: "expires", required: true, doc: "last day (YYYY-MM-DD, UTC) the waiver applies", schema: obj{"type": "string", "format": "date", "pattern": `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`}},
}

func fieldNames(fs []field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}
