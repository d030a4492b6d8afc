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

// CalibrateReport is what riskgate calibrate found: the policy's verdict
// rates on simulated pools like the user's, per true effect of the
// challenger. Every format renders it; it holds no timing, so the same
// inputs, policy and seed give the same bytes.
type Report struct {
	SchemaVersion int    `json:"schema_version"`
	Tool          string `json:"tool_version"`
	Policy        Policy `json:"policy"`
	Pools         Pools  `json:"pools"`
	Model         Model  `json:"model"`
	Reps          int    `json:"reps"` // simulated pools per effect
	Seed          uint64 `json:"seed"`
	// MinEffect is the smallest effect that matters: effects at or above it
	// read as power.
	MinEffect jsonfloat.Float `json:"min_effect"`
	// LossWeight is the policy's loss weight (1 when it has none), at which
	// each effect's MeanURisk is computed.
	LossWeight jsonfloat.Float `json:"loss_weight"`
	Effects    []Effect        `json:"effects"`
	// FalseShip is the largest ship rate over the negative effects; Power
	// the smallest over the effects at or above MinEffect (nil when no
	// effect is of that kind).
	FalseShip *Figure  `json:"false_ship,omitempty"`
	Power     *Figure  `json:"power,omitempty"`
	Warnings  []string `json:"warnings"`
}

// CalibratePolicy identifies the policy calibrated.
type Policy struct {
	Name           string `json:"name"`
	File           string `json:"file"`
	SHA256         string `json:"sha256"`
	Seed           uint64 `json:"seed"` // of the analyses in every simulated run
	OnInconclusive string `json:"on_inconclusive"`
}

// CalibratePools describes the simulated pools.
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

// CalibrateModel is the generating model (bayes.PoolModel), estimated by
// moments from the user's pool.
type Model struct {
	Intercept jsonfloat.Float `json:"intercept"`
	Sigma     jsonfloat.Float `json:"sigma"`
	SDTopic   jsonfloat.Float `json:"sd_topic"`
	SDSystem  jsonfloat.Float `json:"sd_system"`
	DiffSD    jsonfloat.Float `json:"diff_sd"`   // SD of the challenger's per-topic differences to the champion
	DiffSkew  jsonfloat.Float `json:"diff_skew"` // their skewness
}

// CalibrateEffect is the verdicts of the pools of one true effect. The rates
// count the gate's final verdicts (after on_inconclusive); they add up to 1.
type Effect struct {
	Effect           jsonfloat.Float `json:"effect"`
	Reps             int             `json:"reps"`
	PassRate         jsonfloat.Float `json:"pass_rate"`
	WarnRate         jsonfloat.Float `json:"warn_rate"`
	FailRate         jsonfloat.Float `json:"fail_rate"`
	InconclusiveRate jsonfloat.Float `json:"inconclusive_rate"`
	// ShipRate is pass + warn: the gate exits 0 and ships the challenger.
	// Below effect 0 it is the false-ship rate; at or above the smallest
	// effect that matters, the power.
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
	// MeanDiff is the challenger's mean difference to the champion, averaged
	// over the pools: the effect plus Monte Carlo noise.
	MeanDiff jsonfloat.Float `json:"mean_diff"`
	// MeanURisk is the challenger's URisk against the champion at the
	// policy's loss weight (losses count w times), averaged over the pools:
	// what the effect is worth once losses are weighted. A challenger better
	// on average can be worse here, and risk rules then block it.
	MeanURisk jsonfloat.Float `json:"mean_urisk"`
	// ReadsAs is "false-ship rate", "power" or "" (a positive effect smaller
	// than the one that matters, or 0).
	ReadsAs string `json:"reads_as,omitempty"`
}

// CalibrateFigure is a headline rate with its standard error.
type Figure struct {
	Effect jsonfloat.Float `json:"effect"`
	Rate   jsonfloat.Float `json:"rate"`
	SE     jsonfloat.Float `json:"se"`
}

// calibrateEffectScale says what an effect is, for every format.
const calibrateEffectScale = "A true effect is the challenger's expected score minus the champion's over the population of topics, on the [0, 1] score scale; " +
	"URisk is its mean URisk against the champion with losses counted w times (the policy's loss weight) over the pools; " +
	"ship = the gate passes (with or without warnings) and exits 0."

func (r *Report) Write(w io.Writer, format string) error {
	if format == "html" {
		return WriteHTML(w, r)
	}
	return reportfmt.Write(w, format, r, r.writeCSV, r.writeText)
}

// subtitle is the sentence under the title: the policy, pools and model.
func (r *Report) subtitle() []string {
	m, p := r.Model, r.Pools
	measure := ""
	if p.Measure != "" {
		measure = " of " + p.Measure
	}
	return []string{
		fmt.Sprintf("Policy %q (seed %d) on %s simulated pools per effect (seed %d): champion %s, challenger %s, %s, %s%s.",
			r.Policy.Name, r.Policy.Seed, numfmt.Thousands(r.Reps), r.Seed, p.Champion, p.Challenger, numfmt.Plural(p.Artifacts, "artifact"), numfmt.Plural(p.Topics, "topic"), measure),
		fmt.Sprintf("Drawn from your pool's moment estimates: intercept %s, σ %s, sd_topic %s, sd_system %s; challenger − champion per topic: SD %s, skewness %s (from %s).",
			numfmt.G4(float64(m.Intercept)), numfmt.G4(float64(m.Sigma)), numfmt.G4(float64(m.SDTopic)), numfmt.G4(float64(m.SDSystem)), numfmt.G4(float64(m.DiffSD)), numfmt.G4(float64(m.DiffSkew)),
			numfmt.Plural(p.EstimatedFrom, "challenger")),
		calibrateEffectScale,
	}
}

// rows is the table of rates.
func (r *Report) rows() [][]string {
	st := numfmt.Dash
	rows := [][]string{{"effect", "URisk (w=" + numfmt.G(float64(r.LossWeight)) + ")", "pass", "warn", "fail", "inconclusive", "ship ± SE", "95% interval", "reads as"}}
	for _, e := range r.Effects {
		rows = append(rows, []string{numfmt.G(float64(e.Effect)), st.Fixed(float64(e.MeanURisk), 4), st.Fixed(float64(e.PassRate), 3), st.Fixed(float64(e.WarnRate), 3),
			st.Fixed(float64(e.FailRate), 3), st.Fixed(float64(e.InconclusiveRate), 3),
			st.Fixed(float64(e.ShipRate), 3) + " ± " + st.Fixed(float64(e.SE), 3),
			st.Interval(float64(e.ShipCI95[0]), float64(e.ShipCI95[1]), 3), e.ReadsAs})
	}
	return rows
}

// headlines are the false-ship and power sentences.
func (r *Report) headlines() []string {
	var out []string
	if f := r.FalseShip; f != nil {
		out = append(out, fmt.Sprintf("False-ship rate (a worse challenger ships) at effect %s: %s ± %s.", numfmt.G(float64(f.Effect)), numfmt.Dash.Fixed(float64(f.Rate), 3), numfmt.Dash.Fixed(float64(f.SE), 3)))
	}
	if p := r.Power; p != nil {
		out = append(out, fmt.Sprintf("Power (a challenger at least %s better ships) at effect %s: %s ± %s.", numfmt.G(float64(r.MinEffect)), numfmt.G(float64(p.Effect)), numfmt.Dash.Fixed(float64(p.Rate), 3), numfmt.Dash.Fixed(float64(p.SE), 3)))
	}
	return out
}

func (r *Report) writeText(w io.Writer, md bool) error {
	sub := r.subtitle()
	if err := reportfmt.Title(w, md, "riskgate calibrate", reportfmt.EscapeIf(md, strings.TrimSuffix(strings.Join(sub[:2], " "), "."))); err != nil {
		return err
	}
	if err := reportfmt.Table(w, md, "rrrrrrrrl", r.rows()); err != nil {
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
	cw := csv.NewWriter(w)
	cw.Write([]string{"effect", "reps", "pass_rate", "warn_rate", "fail_rate", "inconclusive_rate", "ship_rate", "se", "ship_lo95", "ship_hi95", "raw_inconclusive_rate", "mean_diff", "mean_urisk", "reads_as"})
	for _, e := range r.Effects {
		cw.Write([]string{numfmt.CSV(e.Effect), strconv.Itoa(e.Reps), numfmt.CSV(e.PassRate), numfmt.CSV(e.WarnRate), numfmt.CSV(e.FailRate), numfmt.CSV(e.InconclusiveRate),
			numfmt.CSV(e.ShipRate), numfmt.CSV(e.SE), numfmt.CSV(e.ShipCI95[0]), numfmt.CSV(e.ShipCI95[1]), numfmt.CSV(e.RawInconclusiveRate), numfmt.CSV(e.MeanDiff), numfmt.CSV(e.MeanURisk), e.ReadsAs})
	}
	cw.Flush()
	return cw.Error()
}
