package policies

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Version is the policy file format version this package reads.
const Version = 1

// Pos is a position in the policy file (1-based; zero when the value did not
// come from the file, e.g. a command-line override).
type Pos struct {
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
}

// Policy is a parsed, validated policy. The gate may override fields from the
// command line after parsing (inputs, champion, challengers, seed, model);
// everything derived from them (queries, explanations) is computed on demand.
type Policy struct {
	File        string // the name the policy was parsed under (a path for Load)
	Digest      string // hex SHA-256 of the policy's bytes, for provenance
	Version     int
	Name        string
	Description string
	Inputs      Inputs

	// Champion is the production system; empty when the policy leaves it to --champion.
	Champion    string
	ChampionPos Pos
	// Challengers are names or globs; empty when the policy leaves them to --challenger.
	Challengers []Pattern

	// LossWeight w is how many times a loss against the champion counts in the
	// risk quantities (w = 1 + alpha); 0 when the policy sets neither loss_weight
	// nor alpha, which it may only do when no rule weighs losses.
	LossWeight float64
	// FromAlpha records that the file gave alpha rather than loss_weight.
	FromAlpha bool

	Seed         uint64
	Model        Model
	Requirements Requirements
	Rules        []*Rule
	Select       Select
	// RankBy is the quantity that orders passing challengers for select: best.
	RankBy         string
	RankByPos      Pos
	OnInconclusive Verdict
	// OnInconclusivePos and MaxRhatPos are where on_inconclusive and
	// model.max_rhat are, for the lint's warnings (zero when not given).
	OnInconclusivePos, MaxRhatPos Pos
	// OnInsufficientPool caps a Bayesian rule's pass when the pool has fewer
	// artifacts than requirements.min_artifacts, so that its model took the
	// system spread from the day-one prior (ir_pools) instead of the pool:
	// warn (default), inconclusive or fail. A rule such a model fails still
	// fails.
	OnInsufficientPool Verdict
	Waivers            []*Waiver
}

// Inputs are the score inputs a policy names; command-line flags override them.
// Empty fields are left to the flags' defaults.
type Inputs struct {
	Paths  []string // relative paths are relative to the policy file's folder; see Policy.InputPaths
	Format string   // one of InputFormats
	Qrels  string
	// Measure is the measure of the rules that name none (canonical when a
	// spelling knows it); empty: the inputs' only measure.
	Measure string
	Topics  string // one of TopicModes
	// LowerIsBetter are the measures of which a lower score is better
	// (canonical spellings), declared once for every rule on them.
	LowerIsBetter []string
	// QrelsPos is where inputs.qrels is, for the loader's messages.
	QrelsPos Pos
	// Pool is the run history (docs/pool.md) whose stored systems join the
	// gate as artifacts; relative to the policy file's folder (PoolPath).
	// Empty: none, unless --pool names one.
	Pool string
	// PoolMismatch says what the gate does with a stored system scored
	// against other qrels or another topic set than the champion:
	// PoolExclude (default) leaves it out with a warning naming it,
	// PoolRefuse refuses the gate.
	PoolMismatch string
	// TopicsFile is the topics file (docs/inputs.md, "Topics file") whose
	// dimensions the by: rules name; relative to the policy file's folder
	// (TopicsFilePath). Empty: none, unless --topics-file names one.
	TopicsFile string
}

// What inputs.pool_mismatch accepts.
const (
	PoolExclude = "exclude"
	PoolRefuse  = "refuse"
)

// PoolMismatches are the values inputs.pool_mismatch accepts, the default first.
var PoolMismatches = []string{PoolExclude, PoolRefuse}

// PoolPath is inputs.pool as a path: relative to the policy file's folder
// (as InputPaths); "" when the policy names no pool.
func (p *Policy) PoolPath() string {
	path := p.Inputs.Pool
	if path == "" || filepath.IsAbs(path) || p.File == "" || p.File == StarterName {
		return path
	}
	return filepath.Join(filepath.Dir(p.File), path)
}

// InputFormats and TopicModes are the values inputs.format and inputs.topics
// accept; they mirror gate's --format and --topics flags (a gate test checks that).
var (
	InputFormats = []string{"auto", "run", "trec_eval", "ir_measures", "csv-long", "csv-wide", "csv-measures", "jsonl", "parquet"}
	TopicModes   = []string{"intersect", "zero", "error", "keep"}
)

// Model are the settings of the Bayesian fits.
type Model struct {
	Family    Family
	Chains    int
	TargetESS int     // the sampler draws until the bulk ESS of the quantities the rules use reaches this
	MaxRhat   float64 // a fit with R̂ above this on a quantity a rule uses has not converged
	// MaxDraws caps the draws per chain a fit may take to reach TargetESS;
	// a fit that reaches the cap short of the target has not converged.
	MaxDraws int
	// EarlyStop: a fit that only decides — no report shows it (riskgate
	// calibrate's) — stops sampling once every rule on it is decided, its
	// quantity beyond the rule's bound by 4 Monte Carlo standard errors
	// (bayes.Sequential). The gate's fits are all shown in its reports and
	// always run to TargetESS.
	EarlyStop bool
}

// Family is the likelihood of the hierarchical model.
type Family string

const (
	Gaussian   Family = "gaussian"
	SkewNormal Family = "skew_normal"
)

var families = []Family{Gaussian, SkewNormal}

// Defaults for keys a policy leaves out.
var defaultModel = Model{Family: Gaussian, Chains: 4, TargetESS: 4000, MaxRhat: 1.01, MaxDraws: 10000, EarlyStop: true}

const defaultSeed = 1

// Requirements are the data a policy needs before its rules mean anything.
// Zero means no requirement.
type Requirements struct {
	MinTopics        int
	MinArtifacts     int
	MinTopicCoverage float64
	// MinTopicsPerSegment: a segment of a by: rule with fewer topics is
	// reported and its outcome is inconclusive, never pass.
	MinTopicsPerSegment int
}

// Select says which passing challengers the gate ships.
type Select string

const (
	SelectBest Select = "best" // the best passing challenger by rank_by
	SelectAll  Select = "all"  // every challenger must pass
)

// Severity is what a failing rule does to its challenger.
type Severity string

const (
	SeverityFail Severity = "fail"
	SeverityWarn Severity = "warn"
)

// Rule bounds one quantity for every challenger.
type Rule struct {
	ID          string
	Pos         Pos // of the rule's mapping
	Quantity    *Quantity
	Description string
	Severity    Severity
	Bound       Bound

	// Parameters; zero when not given (Query fills in defaults).
	Level       float64
	Correction  Correction
	Rope        [2]float64
	LossWeight  float64 // overrides the policy's loss weight for this rule
	Alternative Alternative
	Margin      float64 // non-inferiority margin δ of a risk quantity, in score units
	// MarginPercent is a relative margin: δ is this percentage of the
	// champion's mean score on the rule's measure (see Query.MarginPercent).
	MarginPercent float64
	// Measure is the measure the rule is judged on (canonical when a
	// spelling knows it); empty: the policy's default (Policy.DefaultMeasure).
	Measure    string
	MeasurePos Pos
	// By is the dimension of the topics file (a column: origin, locale,
	// traffic band) within every segment of which the rule is evaluated;
	// empty: the rule is evaluated on the whole table. BySemantics says how
	// the segments' outcomes combine (segments.go).
	By          string
	BySemantics SegmentSemantics
	ByPos       Pos
	// Judgments says whether the rule is also judged under the other
	// assumptions about unjudged documents (Evidence.Assumptions; docs/
	// policies.md, "Needs judgments"): check (the default) or ignore.
	Judgments JudgmentsMode

	idPos, quantityPos Pos
	// boundPos, levelPos and marginPos are where the bound's value, level
	// and margin are, for the lint's warnings (zero when not given).
	boundPos, levelPos, marginPos Pos
}

// BoundOp is the kind of bound a rule sets.
type BoundOp string

const (
	AtLeast BoundOp = "at_least"
	AtMost  BoundOp = "at_most"
	In      BoundOp = "in"
)

// Bound is a rule's condition on the observed value.
type Bound struct {
	Op       BoundOp
	Value    float64  // AtLeast, AtMost
	Lo, Hi   float64  // In on a numeric quantity (closed interval)
	Outcomes []string // In on a category
}

// Holds reports whether the observation satisfies the bound. An observation
// of the wrong kind never does.
func (b Bound) Holds(o Observation) bool {
	if b.Op == In && b.Outcomes != nil {
		c, ok := o.Category()
		return ok && slices.Contains(b.Outcomes, c)
	}
	v, ok := o.Number()
	if !ok || math.IsNaN(v) {
		return false
	}
	switch b.Op {
	case AtLeast:
		return v >= b.Value
	case AtMost:
		return v <= b.Value
	case In:
		return b.Lo <= v && v <= b.Hi
	}
	return false
}

// MarshalJSON writes the bound as in the policy: {"at_least": 0.95},
// {"in": [-0.01, 0.01]} or {"in": ["much_better", "better"]}.
func (b Bound) MarshalJSON() ([]byte, error) {
	var v any
	switch {
	case b.Op == In && b.Outcomes != nil:
		v = b.Outcomes
	case b.Op == In:
		v = [2]float64{b.Lo, b.Hi}
	default:
		v = b.Value
	}
	return json.Marshal(map[string]any{string(b.Op): v})
}

// UnmarshalJSON reads what MarshalJSON writes (result.json read back by
// riskgate publish).
func (b *Bound) UnmarshalJSON(data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	bad := fmt.Errorf("a bound: expected {\"at_least\": v}, {\"at_most\": v}, {\"in\": [lo, hi]} or {\"in\": [outcome, …]}, got %s", clipJSON(data))
	if len(m) != 1 {
		return bad
	}
	for op, raw := range m {
		switch BoundOp(op) {
		case AtLeast, AtMost:
			var v float64
			if json.Unmarshal(raw, &v) != nil {
				return bad
			}
			*b = Bound{Op: BoundOp(op), Value: v}
		case In:
			var pair []float64
			if json.Unmarshal(raw, &pair) == nil && len(pair) == 2 {
				*b = Bound{Op: In, Lo: pair[0], Hi: pair[1]}
				return nil
			}
			var outcomes []string
			if json.Unmarshal(raw, &outcomes) != nil || outcomes == nil {
				return bad
			}
			*b = Bound{Op: In, Outcomes: outcomes}
		default:
			return bad
		}
	}
	return nil
}

// Words is the bound in plain words: "at least 0.95", "between -0.01 and 0.01",
// "one of much_better, better".
func (b Bound) Words() string {
	switch {
	case b.Op == AtLeast:
		return "at least " + formatNumber(b.Value)
	case b.Op == AtMost:
		return "at most " + formatNumber(b.Value)
	case b.Outcomes != nil:
		return "one of " + strings.Join(b.Outcomes, ", ")
	default:
		return "between " + formatNumber(b.Lo) + " and " + formatNumber(b.Hi)
	}
}

// String is the bound in symbols: "≥ 0.95", "∈ [-0.01, 0.01]", "∈ {much_better, better}".
func (b Bound) String() string {
	switch {
	case b.Op == AtLeast:
		return "≥ " + formatNumber(b.Value)
	case b.Op == AtMost:
		return "≤ " + formatNumber(b.Value)
	case b.Outcomes != nil:
		return "∈ {" + strings.Join(b.Outcomes, ", ") + "}"
	default:
		return "∈ [" + formatNumber(b.Lo) + ", " + formatNumber(b.Hi) + "]"
	}
}

// Waiver exempts one rule for matching challengers until its expiry date.
type Waiver struct {
	Pos        Pos
	Rule       string
	Challenger Pattern
	Reason     string
	Approver   string
	// Expires is the last day the waiver applies (UTC midnight of that date);
	// from the next day on it no longer applies.
	Expires time.Time

	rulePos Pos
}

// Active reports whether the waiver still applies at now: through the whole
// expiry date in UTC.
func (w *Waiver) Active(now time.Time) bool {
	return now.UTC().Before(w.Expires.AddDate(0, 0, 1))
}

// ExpiresText is the expiry date as written in the policy.
func (w *Waiver) ExpiresText() string { return w.Expires.Format(dateLayout) }

const dateLayout = "2006-01-02"

// Pattern is a challenger name or glob: * matches any run of characters
// (including none), ? any one character; everything else matches itself.
type Pattern struct {
	Text string
	Pos  Pos
}

// IsGlob reports whether the pattern has wildcards.
func (p Pattern) IsGlob() bool { return strings.ContainsAny(p.Text, "*?") }

// Match reports whether name matches the pattern.
func (p Pattern) Match(name string) bool { return globMatch(p.Text, name) }

// globMatch matches name against pattern with * and ? wildcards, iteratively
// with backtracking to the last star (linear in practice, no recursion).
func globMatch(pattern, name string) bool {
	pr, nr := []rune(pattern), []rune(name)
	pi, ni := 0, 0
	star, mark := -1, 0
	for ni < len(nr) {
		switch {
		case pi < len(pr) && (pr[pi] == '?' || (pr[pi] != '*' && pr[pi] == nr[ni])):
			pi++
			ni++
		case pi < len(pr) && pr[pi] == '*':
			star, mark = pi, ni
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			ni = mark
		default:
			return false
		}
	}
	for pi < len(pr) && pr[pi] == '*' {
		pi++
	}
	return pi == len(pr)
}

// Query is what the gate must compute for one rule: a quantity with the
// parameters that change its value. It is comparable, so it keys Values, and
// rules that ask for the same thing share one Query.
//
// Corrections of tests.*.p are not part of the Query: the gate supplies raw
// p-values and Evaluate adjusts them over the challengers (and a by: rule's
// segments). A BCa correction is
// part of it, because it changes the interval the gate computes (see
// IntervalLevel).
type Query struct {
	Quantity    string      `json:"quantity"`
	LossWeight  float64     `json:"loss_weight,omitempty"` // > 0 for quantities that weigh losses
	Level       float64     `json:"level,omitempty"`       // > 0 for quantities with a level
	Correction  Correction  `json:"correction,omitempty"`  // bca.* only
	Rope        [2]float64  `json:"rope,omitzero"`         // rope.decision only
	Alternative Alternative `json:"alternative,omitempty"` // tests.*.p only
	// Margin δ ≥ 0 of a risk quantity: it is computed for d_w + δ (score units).
	Margin float64 `json:"margin,omitempty"`
	// MarginPercent, when > 0, gives δ relative to the champion: δ =
	// MarginPercent/100 × |the champion's mean score on the query's measure,
	// over the topics of the gate's aligned table| (the engine resolves it).
	MarginPercent float64 `json:"margin_percent,omitempty"`
	// Measure is the measure the query is computed on; empty: the gate's
	// default measure (inputs.measure or the inputs' only one), so that a
	// one-measure policy's queries are what they always were.
	Measure string `json:"measure,omitempty"`
	// By is the dimension of a by: rule's query and Segment the segment
	// of that dimension it is computed in: Policy.Queries gives a by:
	// rule's query with By set and Segment empty, and the gate supplies a
	// value for each segment under q.InSegment(segment).
	By      string `json:"by,omitempty"`
	Segment string `json:"segment,omitempty"`
}

// Analysis is the analysis that computes the query.
func (q Query) Analysis() Analysis {
	if qq := LookupQuantity(q.Quantity); qq != nil {
		return qq.Analysis
	}
	return ""
}

// IntervalLevel is the level at which to compute an interval quantity for a
// run with the given number of challengers: Level itself, or with a Bonferroni
// correction 1 − (1 − Level)/challengers, as in the paper's BCa⁻ column.
func (q Query) IntervalLevel(challengers int) float64 {
	if q.Correction == CorrectBonferroni && challengers > 1 {
		return 1 - (1-q.Level)/float64(challengers)
	}
	return q.Level
}

// String is the query in one token, e.g. "bca.lo(loss_weight=5,level=0.95,correction=bonferroni)".
func (q Query) String() string {
	var ps []string
	if q.LossWeight > 0 {
		ps = append(ps, "loss_weight="+formatNumber(q.LossWeight))
	}
	if q.Level > 0 {
		ps = append(ps, "level="+formatNumber(q.Level))
	}
	if q.Correction != "" {
		ps = append(ps, "correction="+string(q.Correction))
	}
	if q.Rope != [2]float64{} {
		ps = append(ps, "rope=["+formatNumber(q.Rope[0])+","+formatNumber(q.Rope[1])+"]")
	}
	if q.Alternative != "" {
		ps = append(ps, "alternative="+string(q.Alternative))
	}
	if q.Margin > 0 {
		ps = append(ps, "margin="+formatNumber(q.Margin))
	}
	if q.MarginPercent > 0 {
		ps = append(ps, "margin="+formatNumber(q.MarginPercent)+"%")
	}
	if q.Measure != "" {
		ps = append(ps, "measure="+q.Measure)
	}
	if q.By != "" {
		ps = append(ps, "by="+q.By)
	}
	if q.Segment != "" {
		ps = append(ps, "segment="+q.Segment)
	}
	if len(ps) == 0 {
		return q.Quantity
	}
	return q.Quantity + "(" + strings.Join(ps, ",") + ")"
}

// Query returns what the gate must compute for rule r, with defaults filled
// in and the policy's loss weight where the rule sets none.
func (p *Policy) Query(r *Rule) Query {
	q := p.query(r.Quantity, r.LossWeight, r.Level, r.Correction, r.Rope, r.Alternative)
	if r.Quantity.Accepts(ParamMargin) {
		q.Margin, q.MarginPercent = r.Margin, r.MarginPercent
	}
	q.Measure = r.Measure
	q.By = r.By
	return q
}

func (p *Policy) query(q *Quantity, lossWeight, level float64, corr Correction, rope [2]float64, alt Alternative) Query {
	out := Query{Quantity: q.Name}
	if q.Weighted() {
		out.LossWeight = lossWeight
		if out.LossWeight == 0 {
			out.LossWeight = p.LossWeight
		}
	}
	if q.Accepts(ParamLevel) {
		out.Level = level
		if out.Level == 0 {
			out.Level = DefaultLevel
		}
	}
	if q.Accepts(ParamCorrection) && !q.isTest() {
		out.Correction = corr
		if out.Correction == "" {
			out.Correction = CorrectNone
		}
	}
	if q.Accepts(ParamRope) {
		out.Rope = rope
	}
	if q.Accepts(ParamAlternative) {
		out.Alternative = alt
		if out.Alternative == "" {
			out.Alternative = TwoSided
		}
	}
	return out
}

// RankQuery is what the gate must compute to order passing challengers for
// select: best; ok is false for select: all.
func (p *Policy) RankQuery() (q Query, ok bool) {
	if p.Select != SelectBest {
		return Query{}, false
	}
	return p.query(LookupQuantity(p.RankBy), 0, 0, "", [2]float64{}, ""), true
}

// Queries lists, without repeats, everything the gate must compute for each
// challenger: the rules' queries in rule order, then the rank_by query.
func (p *Policy) Queries() []Query {
	var qs []Query
	add := func(q Query) {
		if !slices.Contains(qs, q) {
			qs = append(qs, q)
		}
	}
	for _, r := range p.Rules {
		add(p.Query(r))
	}
	if q, ok := p.RankQuery(); ok {
		add(q)
	}
	return qs
}

// Needs lists the analyses the gate must run, cheapest first. An analysis
// absent from the list is not needed: no rule (and not rank_by) uses it.
func (p *Policy) Needs() []Analysis {
	used := map[Analysis]bool{}
	for _, q := range p.Queries() {
		used[q.Analysis()] = true
	}
	var out []Analysis
	for _, a := range analysisOrder {
		if used[a] {
			out = append(out, a)
		}
	}
	return out
}

// BRiskWeights lists the distinct loss weights at which the BRisk model must be
// fitted (one MCMC fit each), in increasing order.
func (p *Policy) BRiskWeights() []float64 {
	var ws []float64
	for _, q := range p.Queries() {
		if q.Analysis() == AnalysisBRisk && !slices.Contains(ws, q.LossWeight) {
			ws = append(ws, q.LossWeight)
		}
	}
	slices.Sort(ws)
	return ws
}

// RiskDefinition is the policy's own definition of a riskier challenger: the
// loss weight w and non-inferiority margin δ of its first fail-severity rule
// on a quantity of the risk-adjusted difference (Quantity.RiskAdjusted:
// brisk.p_riskier, brisk.diff.*, urisk, trisk, bca.*), so that a challenger
// whose true risk-adjusted difference d_w is below −δ is riskier. A by:
// rule defines harm in a segment, not overall, and is passed over. ok is
// false when no such rule exists (the policy does not judge risk).
func (p *Policy) RiskDefinition() (rule *Rule, q Query, ok bool) {
	for _, r := range p.Rules {
		if r.Severity == SeverityFail && r.Quantity.RiskAdjusted() && r.By == "" {
			return r, p.Query(r), true
		}
	}
	return nil, Query{}, false
}

// InsufficientPool is what a Bayesian rule's pass on a pool with too few
// artifacts counts as: OnInsufficientPool, warn when unset.
func (p *Policy) InsufficientPool() Verdict {
	if p.OnInsufficientPool == "" {
		return Warn
	}
	return p.OnInsufficientPool
}

// InputPaths returns inputs.paths with relative paths resolved against the
// folder of the policy file, so that a policy means the same files wherever it
// is run from. "-" (standard input) is kept as is.
func (p *Policy) InputPaths() []string {
	dir := filepath.Dir(p.File)
	out := make([]string, len(p.Inputs.Paths))
	for i, path := range p.Inputs.Paths {
		if path == "-" || filepath.IsAbs(path) || p.File == "" {
			out[i] = path
		} else {
			out[i] = filepath.Join(dir, path)
		}
	}
	return out
}

// formatNumber prints a number as written in a policy: the shortest form that
// reads back as the same float64 (0.95, not 0.9500000000000001).
func formatNumber(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// FormatObserved prints an observation for a report: a category as is; a
// number with four significant digits, or more when four would put it on the
// other side of the bound (0.94996 against "at least 0.95" prints as 0.94996,
// not 0.95), so that a report never shows a number that seems to contradict
// its outcome; "–" when there is no value.
func (b Bound) FormatObserved(o Observation) string {
	if c, ok := o.Category(); ok {
		return c
	}
	v, ok := o.Number()
	if !ok {
		return "–"
	}
	return formatObserved(v, b)
}

func formatObserved(v float64, b Bound) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return formatNumber(v)
	}
	holds := b.Holds(Number(v))
	for prec := 4; prec < 17; prec++ {
		s := strconv.FormatFloat(v, 'g', prec, 64)
		r, err := strconv.ParseFloat(s, 64)
		if err == nil && b.Holds(Number(r)) == holds && (r == v || !onBoundary(r, b)) {
			return s
		}
	}
	return formatNumber(v)
}

// onBoundary reports whether r equals an end of the bound, where a rounded
// value would read as "exactly the bound" though the observation is not.
func onBoundary(r float64, b Bound) bool {
	switch b.Op {
	case AtLeast, AtMost:
		return r == b.Value
	case In:
		return b.Outcomes == nil && (r == b.Lo || r == b.Hi)
	}
	return false
}

func percent(level float64) string {
	return strconv.FormatFloat(level*100, 'g', -1, 64) + "%"
}

// describeRoles says which systems play which role, for explain.
func (p *Policy) describeChallengers() string {
	if len(p.Challengers) == 0 {
		return "given on the command line (--challenger)"
	}
	var parts []string
	for _, c := range p.Challengers {
		if c.IsGlob() {
			parts = append(parts, fmt.Sprintf("every system matching %q", c.Text))
		} else {
			parts = append(parts, fmt.Sprintf("%q", c.Text))
		}
	}
	return joinAnd(parts)
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	case 2:
		return parts[0] + " and " + parts[1]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
