package calibrate

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
)

// SchemaVersion is the version of calibrate's JSON. Version 2 replaced the
// per-effect rates (effects) by the cells of the effect × risk grid.
const SchemaVersion = 2

// Report is what riskgate calibrate found: the policy's verdict rates on
// simulated pools like the user's, per cell of a grid of the challenger's
// true effect × risk scale, beside each cell's truth and the class the
// policy's own definition gives it. Every format renders it; it holds no
// timing, so the same inputs, policy and seed give the same bytes.
type Report struct {
	SchemaVersion int    `json:"schema_version"`
	Tool          string `json:"tool_version"`
	Policy        Policy `json:"policy"`
	Pools         Pools  `json:"pools"`
	// Model is the parametric model of a one-measure calibration; nil for
	// one of several measures, whose pools are resampled (Resampling).
	Model *Model `json:"model,omitempty"`
	// Resampling describes the population of a calibration of several
	// measures; nil for one measure.
	Resampling *Resampling `json:"resampling,omitempty"`
	// Segments describes the pools of a calibration of a policy with by:
	// rules (segment scenarios); nil otherwise.
	Segments *SegmentCalibration `json:"segments,omitempty"`
	Reps     int                 `json:"reps"` // simulated pools per cell
	Seed     uint64              `json:"seed"`
	// MinEffect is the smallest effect that matters: a cell at or above it
	// that is not harmful is beneficial, and its ship rate is power.
	MinEffect jsonfloat.Float `json:"min_effect"`
	// Effects and Risks are the grid's axes; Cells its cells, effect-major.
	Effects []jsonfloat.Float `json:"effects"`
	Risks   []jsonfloat.Float `json:"risks"`
	// Harm is the policy's definition of a harmful challenger.
	Harm  Harm   `json:"harm"`
	Cells []Cell `json:"cells"`
	// FalseShip is the largest ship rate over the harmful cells (the worst
	// false-ship rate); Power the smallest over the beneficial cells (the
	// worst power); nil when no cell is of that class.
	FalseShip *Figure  `json:"false_ship,omitempty"`
	Power     *Figure  `json:"power,omitempty"`
	Warnings  []string `json:"warnings"`
}

// Harm is the policy's own definition of a harmful challenger: a true mean
// effect ≤ 0, or — when a fail rule judges risk — a true risk-adjusted
// difference at that rule's loss weight below −margin.
type Harm struct {
	LossWeight jsonfloat.Float `json:"loss_weight"` // w of the true risk-adjusted differences
	Margin     jsonfloat.Float `json:"margin"`      // δ
	Rule       string          `json:"rule,omitempty"`
	Query      string          `json:"query,omitempty"`
	Words      string          `json:"words"`
}

// Policy identifies the policy calibrated.
type Policy struct {
	Name           string `json:"name"`
	File           string `json:"file"`
	SHA256         string `json:"sha256"`
	Seed           uint64 `json:"seed"` // of the analyses in every simulated run
	OnInconclusive string `json:"on_inconclusive"`
}

// Pools describes the simulated pools.
type Pools struct {
	Measure    string `json:"measure,omitempty"`
	Champion   string `json:"champion"`
	Challenger string `json:"challenger"` // the one challenger of every pool
	Artifacts  int    `json:"artifacts"`
	Topics     int    `json:"topics"`
	// EstimatedFrom is how many challengers of the user's pool the
	// differences' SD and skewness were estimated from.
	EstimatedFrom int `json:"differences_from_challengers"`
}

// Model is the generating model (bayes.PoolModel), estimated by
// moments from the user's pool.
type Model struct {
	Intercept jsonfloat.Float `json:"intercept"`
	Sigma     jsonfloat.Float `json:"sigma"`
	SDTopic   jsonfloat.Float `json:"sd_topic"`
	SDSystem  jsonfloat.Float `json:"sd_system"`
	// SDSystemFrom says where SDSystem comes from when the pool has too few
	// artifacts to estimate it by moments (the day-one prior's posterior
	// median); empty for the moments.
	SDSystemFrom string          `json:"sd_system_from,omitempty"`
	DiffSD       jsonfloat.Float `json:"diff_sd"`   // SD of the challenger's per-topic differences to the champion
	DiffSkew     jsonfloat.Float `json:"diff_skew"` // their skewness
}

// Cell is the pools of one true effect and risk scale: what they were drawn
// with, what that is worth, and the gate's verdicts on them. The rates count
// the final verdicts (after on_inconclusive); they add up to 1.
type Cell struct {
	Effect jsonfloat.Float `json:"effect"` // the true mean effect the pools were drawn with
	Risk   jsonfloat.Float `json:"risk"`   // the scale of the challenger's per-topic differences, relative to the pool's
	// TrueMeanDiff and TrueRiskDiff are the generating model's expected
	// difference and risk-adjusted difference (at Harm.LossWeight) of the
	// challenger to the champion (bayes.PoolModel.Truth): computed, not
	// assumed.
	TrueMeanDiff jsonfloat.Float `json:"true_mean_diff"`
	TrueRiskDiff jsonfloat.Float `json:"true_risk_diff"`
	// Class is harmful, neutral or beneficial by the policy's definition.
	Class            string          `json:"class"`
	Reps             int             `json:"reps"`
	PassRate         jsonfloat.Float `json:"pass_rate"`
	WarnRate         jsonfloat.Float `json:"warn_rate"`
	FailRate         jsonfloat.Float `json:"fail_rate"`
	InconclusiveRate jsonfloat.Float `json:"inconclusive_rate"`
	// ShipRate is pass + warn: the gate exits 0 and ships the challenger.
	// In a harmful cell it is a false-ship rate; in a beneficial one, power.
	ShipRate jsonfloat.Float `json:"ship_rate"`
	// SE is the Monte Carlo standard error of ShipRate, √(p(1 − p)/reps);
	// SERates those of the four verdict rates.
	SE      jsonfloat.Float `json:"se"`
	SERates struct {
		Pass         jsonfloat.Float `json:"pass"`
		Warn         jsonfloat.Float `json:"warn"`
		Fail         jsonfloat.Float `json:"fail"`
		Inconclusive jsonfloat.Float `json:"inconclusive"`
	} `json:"se_rates"`
	// ShipCI95 is Wilson's 95% interval of the ship rate.
	ShipCI95 [2]jsonfloat.Float `json:"ship_ci95"`
	// RawInconclusiveRate is the share of pools the gate found inconclusive
	// before on_inconclusive mapped them.
	RawInconclusiveRate jsonfloat.Float `json:"raw_inconclusive_rate"`

	// A calibration of several measures adds the following (nil otherwise).
	// Edge names the rules at whose null edge the cell is (the other
	// measures clearly passing); nil for a cell of the effects axis, whose
	// Effect is on the primary measure with every other measure unchanged.
	Edge []string `json:"null_edge_of,omitempty"`
	// Measures are the cell's truth on every measure.
	Measures []MeasureTruth `json:"measures,omitempty"`
	// PrimaryAlone is the ship rate of the policy's rules on the primary
	// measure alone, on the same pools: the power without the guardrails.
	PrimaryAlone *Rate `json:"ship_rate_primary_alone,omitempty"`
	// BlockedBy counts, for every fail rule, the pools it blocked: it
	// failed, or was inconclusive in a pool the gate found inconclusive.
	// The gate decides in order of cost and stops at the first analysis
	// that fails the challenger, so a rule of a later analysis is counted
	// only in pools the earlier ones let through: the rule that stopped it.
	BlockedBy []RuleCount `json:"blocked_by,omitempty"`
	// Segment is the scenario of a cell of a calibration of by: rules.
	Segment *SegmentTruth `json:"segment,omitempty"`
}

// MeasureTruth is a cell's truth on one measure, in the improvement
// direction (for a lower-is-better measure, champion − challenger): the
// true mean effect, the shift that gives it, and, when a non-inferiority
// rule judges the measure, the true risk-adjusted effect at that rule's
// loss weight.
type MeasureTruth struct {
	Measure      string           `json:"measure"`
	Effect       jsonfloat.Float  `json:"effect"`
	Shift        jsonfloat.Float  `json:"shift"`
	LossWeight   *jsonfloat.Float `json:"loss_weight,omitempty"`
	TrueRiskDiff *jsonfloat.Float `json:"true_risk_diff,omitempty"`
}

// Rate is a proportion of a cell's pools and its Monte Carlo standard
// error √(p(1 − p)/reps).
type Rate struct {
	Rate jsonfloat.Float `json:"rate"`
	SE   jsonfloat.Float `json:"se"`
}

// RuleCount is how many of a cell's pools a fail rule blocked.
type RuleCount struct {
	Rule    string          `json:"rule"`
	Measure string          `json:"measure"`
	Count   int             `json:"count"`
	Rate    jsonfloat.Float `json:"rate"`
}

// Resampling is the population the pools of a calibration of several
// measures are resampled from (resample.go): the data's topics, each with
// every system's scores on every measure, and its challengers' centred
// improvements over the champion.
type Resampling struct {
	Topics      int                `json:"topics"`
	Challengers int                `json:"challengers"` // whose improvements the simulated challenger carries
	Measures    []ResampledMeasure `json:"measures"`
	// Correlation is the between-measure correlation of the data's centred
	// improvements, pooled over its challengers: what the pools keep.
	Correlation [][]jsonfloat.Float `json:"correlation"`
	// PassingSEs is how far beyond its rules' null edges, in standard
	// errors, a measure is put in the cells at another rule's null edge.
	PassingSEs float64 `json:"passing_ses"`
	// GuardrailEffect is the true effect of every measure but the primary
	// in the cells of the effects axis.
	GuardrailEffect jsonfloat.Float `json:"guardrail_effect"`
}

// ResampledMeasure is one measure of the population.
type ResampledMeasure struct {
	Measure       string          `json:"measure"`
	Primary       bool            `json:"primary,omitempty"`
	LowerIsBetter bool            `json:"lower_is_better,omitempty"`
	Bounded       bool            `json:"bounded"` // clamped to [0, 1]
	FailRules     []string        `json:"fail_rules"`
	DiffSD        jsonfloat.Float `json:"diff_sd"` // SD of the centred improvements
}

// Figure is a headline rate, the cell it is of, and its standard error.
type Figure struct {
	Effect jsonfloat.Float `json:"effect"`
	// Edge names the rules at whose null edge the cell is (several measures).
	Edge []string        `json:"null_edge_of,omitempty"`
	Risk jsonfloat.Float `json:"risk"`
	Rate jsonfloat.Float `json:"rate"`
	SE   jsonfloat.Float `json:"se"`
}

// cellScale says what a cell is, for every format.
const cellScale = "A cell's true effect is the challenger's expected score minus the champion's over the population of topics, on the [0, 1] score scale; " +
	"its risk scales the spread of the challenger's per-topic differences relative to your pool's (at the same mean, more and larger losses); " +
	"the true risk-adjusted difference counts losses w times; ship = the gate passes (with or without warnings) and exits 0."

func (r *Report) Write(w io.Writer, format string) error {
	if format == "html" && r.Segments != nil {
		return fmt.Errorf("--format html: a calibration of by: rules has no figure yet; use table, md, json or csv")
	}
	if format == "html" {
		return WriteHTML(w, r)
	}
	return reportfmt.Write(w, format, r, r.writeCSV, r.writeText)
}

// subtitle is the sentences under the title: the policy, pools and model.
func (r *Report) subtitle() []string {
	if r.Segments != nil {
		return r.subtitleSegments()
	}
	if r.Resampling != nil {
		return r.subtitleMeasures()
	}
	m, p := r.Model, r.Pools
	measure := ""
	if p.Measure != "" {
		measure = " of " + p.Measure
	}
	return []string{
		fmt.Sprintf("Policy %q (seed %d) on %s simulated pools per cell (seed %d): champion %s, challenger %s, %s, %s%s.",
			r.Policy.Name, r.Policy.Seed, numfmt.Thousands(r.Reps), r.Seed, p.Champion, p.Challenger, numfmt.Plural(p.Artifacts, "artifact"), numfmt.Plural(p.Topics, "topic"), measure),
		fmt.Sprintf("Drawn from your pool's moment estimates: intercept %s, σ %s, sd_topic %s, sd_system %s%s; challenger − champion per topic: SD %s, skewness %s (from %s).",
			numfmt.G4(float64(m.Intercept)), numfmt.G4(float64(m.Sigma)), numfmt.G4(float64(m.SDTopic)), numfmt.G4(float64(m.SDSystem)), sdSystemFrom(m.SDSystemFrom), numfmt.G4(float64(m.DiffSD)), numfmt.G4(float64(m.DiffSkew)),
			numfmt.Plural(p.EstimatedFrom, "challenger")),
		cellScale + " " + capitalize(r.Harm.Words) + ".",
	}
}

// sdSystemFrom is the subtitle's note on where sd_system comes from.
func sdSystemFrom(from string) string {
	if from == "" {
		return ""
	}
	return " (not a moment estimate: " + from + ")"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// rows is the table of rates, one row per cell, and its column alignment.
func (r *Report) rows() ([][]string, string) {
	if r.Segments != nil {
		return r.rowsSegments()
	}
	if r.Resampling != nil {
		return r.rowsMeasures()
	}
	st := numfmt.Dash
	rows := [][]string{{"effect", "risk", "true mean", "true risk-adj. (w=" + numfmt.G(float64(r.Harm.LossWeight)) + ")", "class",
		"pass", "warn", "fail", "inconclusive", "ship ± SE", "95% interval"}}
	for _, c := range r.Cells {
		rows = append(rows, []string{numfmt.G(float64(c.Effect)), numfmt.G(float64(c.Risk)), st.Fixed(float64(c.TrueMeanDiff), 4), st.Fixed(float64(c.TrueRiskDiff), 4), c.Class,
			st.Fixed(float64(c.PassRate), 3), st.Fixed(float64(c.WarnRate), 3), st.Fixed(float64(c.FailRate), 3), st.Fixed(float64(c.InconclusiveRate), 3),
			st.Fixed(float64(c.ShipRate), 3) + " ± " + st.Fixed(float64(c.SE), 3),
			st.Interval(float64(c.ShipCI95[0]), float64(c.ShipCI95[1]), 3)})
	}
	return rows, "rrrrlrrrrrr"
}

// headlines are the worst false-ship rate and the worst power.
func (r *Report) headlines() []string {
	if r.Segments != nil {
		return r.headlinesSegments()
	}
	var out []string
	st := numfmt.Dash
	if f := r.FalseShip; f != nil {
		out = append(out, fmt.Sprintf("Worst false-ship rate (a harmful challenger ships): %s ± %s, %s.",
			st.Fixed(float64(f.Rate), 3), st.Fixed(float64(f.SE), 3), where(float64(f.Effect), f.Edge, float64(f.Risk))))
	}
	if p := r.Power; p != nil {
		out = append(out, fmt.Sprintf("Worst power (a beneficial challenger, at least %s better, ships): %s ± %s, %s.",
			numfmt.G(float64(r.MinEffect)), st.Fixed(float64(p.Rate), 3), st.Fixed(float64(p.SE), 3), where(float64(p.Effect), p.Edge, float64(p.Risk))))
	}
	return out
}

func (r *Report) writeText(w io.Writer, md bool) error {
	sub := r.subtitle()
	if err := reportfmt.Title(w, md, "riskgate calibrate", reportfmt.EscapeIf(md, strings.TrimSuffix(strings.Join(sub[:2], " "), "."))); err != nil {
		return err
	}
	rows, align := r.rows()
	if err := reportfmt.Table(w, md, align, rows); err != nil {
		return err
	}
	if !md {
		fmt.Fprintln(w)
	}
	for _, h := range r.headlines() {
		fmt.Fprintln(w, reportfmt.EscapeIf(md, h))
	}
	fmt.Fprintln(w, reportfmt.EscapeIf(md, sub[2]))
	if md {
		fmt.Fprintln(w)
	}
	return reportfmt.Warnings(w, md, r.Warnings)
}

func (r *Report) writeCSV(w io.Writer) error {
	if r.Segments != nil {
		return r.writeCSVSegments(w)
	}
	if r.Resampling != nil {
		return r.writeCSVMeasures(w)
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"effect", "risk", "true_mean_diff", "true_risk_diff", "class", "reps", "pass_rate", "warn_rate", "fail_rate", "inconclusive_rate",
		"ship_rate", "se", "ship_lo95", "ship_hi95", "raw_inconclusive_rate"})
	for _, c := range r.Cells {
		cw.Write([]string{numfmt.CSV(c.Effect), numfmt.CSV(c.Risk), numfmt.CSV(c.TrueMeanDiff), numfmt.CSV(c.TrueRiskDiff), c.Class, strconv.Itoa(c.Reps),
			numfmt.CSV(c.PassRate), numfmt.CSV(c.WarnRate), numfmt.CSV(c.FailRate), numfmt.CSV(c.InconclusiveRate),
			numfmt.CSV(c.ShipRate), numfmt.CSV(c.SE), numfmt.CSV(c.ShipCI95[0]), numfmt.CSV(c.ShipCI95[1]), numfmt.CSV(c.RawInconclusiveRate)})
	}
	cw.Flush()
	return cw.Error()
}
