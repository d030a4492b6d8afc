package pair

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/bayes/twosample"
	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/risk"
)

// Report is the result of riskgate pair; its JSON form is the command's
// contract (extend it, don't rename).
type Report struct {
	A       string          `json:"a"`
	B       string          `json:"b"`
	Measure string          `json:"measure"`
	Model   string          `json:"model"`  // "paired" or "unpaired"
	Topics  int             `json:"topics"` // topics in the aligned table
	NA      int             `json:"n_a"`    // scores of a used by the model
	NB      int             `json:"n_b"`
	Draws   int             `json:"draws"`
	Seed    uint64          `json:"seed"`
	Level   jsonfloat.Float `json:"level"`
	// Sampler says how the posterior was drawn; AcceptanceRate is that of the
	// paired model's rejection sampler.
	Sampler        string           `json:"sampler"`
	AcceptanceRate *jsonfloat.Float `json:"acceptance_rate,omitempty"`
	Quantities     Quantities       `json:"quantities"`
	Classical      Classical        `json:"classical"`
	Alignment      scores.Alignment `json:"alignment"`
	Warnings       []string         `json:"warnings"`
}

// Quantities are the posterior summaries: diff = μ_a − μ_b,
// glass1 = diff/σ_a, glass2 = diff/σ_b and (paired model) rho.
type Quantities struct {
	Diff   result.Quantity  `json:"diff"`
	Glass1 result.Quantity  `json:"glass1"`
	Glass2 result.Quantity  `json:"glass2"`
	Rho    *result.Quantity `json:"rho,omitempty"`
}

// Classical is the classical test Sakai tabulates beside the Bayesian one.
type Classical struct {
	Test      string           `json:"test"` // "paired_t" or "welch_t"
	MeanDiff  jsonfloat.Float  `json:"mean_diff"`
	T         jsonfloat.Float  `json:"t"`
	DF        jsonfloat.Float  `json:"df"`
	P         jsonfloat.Float  `json:"p"` // one-sided, H1: μ_a > μ_b
	PTwoSided jsonfloat.Float  `json:"p_two_sided"`
	Lo        jsonfloat.Float  `json:"lo"` // confidence interval of μ_a − μ_b at level
	Hi        jsonfloat.Float  `json:"hi"`
	Glass1    jsonfloat.Float  `json:"glass1"` // sample Glass's Δ, baseline a
	Glass2    jsonfloat.Float  `json:"glass2"` // sample Glass's Δ, baseline b
	R         *jsonfloat.Float `json:"r,omitempty"`
}

// Build runs the model on the scores xa and xb of one aligned
// table (NaN = missing): the paired model on the topics both systems scored,
// the unpaired model on each system's scores.
func Build(measure, a, b string, topics []string, xa, xb []float64, opt twosample.Options) (*Report, error) {
	var ua, ub []float64
	missing := 0
	for i := range topics {
		va, vb := xa[i], xb[i]
		if opt.Paired {
			if math.IsNaN(va) || math.IsNaN(vb) {
				missing++
				continue
			}
			ua, ub = append(ua, va), append(ub, vb)
			continue
		}
		if !math.IsNaN(va) {
			ua = append(ua, va)
		}
		if !math.IsNaN(vb) {
			ub = append(ub, vb)
		}
	}
	if n := min(len(ua), len(ub)); n < 2 {
		return nil, fmt.Errorf("pair: %d topic(s) scored for %q and %q; at least 2 are needed (4 for the paired model, 3 for the unpaired)", n, a, b)
	}
	res, err := twosample.CompareTwoSystems(ua, ub, opt)
	if err != nil {
		return nil, fmt.Errorf("pair: %w", err)
	}
	rep := &Report{A: a, B: b, Measure: measure, Model: res.Model, Topics: len(topics), NA: len(ua), NB: len(ub),
		Draws: res.Draws, Seed: res.Seed, Level: jsonfloat.Float(opt.CredMass), Warnings: []string{}}
	if opt.Paired {
		rep.Sampler = "exact: inverse-Wishart proposals accepted with probability 1 − ρ², then μ | Σ normal"
		ar := jsonfloat.Float(res.AcceptanceRate)
		rep.AcceptanceRate = &ar
		if missing > 0 {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d topic(s) lack a score for a or b and are left out of the paired model", missing))
		}
	} else {
		rep.Sampler = "exact: σ² inverse-gamma, then μ | σ normal, per system"
	}
	for _, q := range res.Quantities {
		pq := result.NewQuantity(q)
		switch q.Name {
		case "diff":
			rep.Quantities.Diff = pq
		case "glass1":
			rep.Quantities.Glass1 = pq
		case "glass2":
			rep.Quantities.Glass2 = pq
		case "rho":
			rep.Quantities.Rho = &pq
		}
	}
	classical, warns, err := classical(ua, ub, opt.Paired, opt.CredMass)
	if err != nil {
		return nil, fmt.Errorf("pair: %w", err)
	}
	rep.Classical = classical
	rep.Warnings = append(rep.Warnings, res.Warnings...)
	rep.Warnings = append(rep.Warnings, warns...)
	return rep, nil
}

// classical runs the classical tests Sakai tabulates beside his Bayesian
// ones (package risk): paired, the paired t test, Glass's Δ and Pearson's r
// of the topics both systems scored; unpaired, Welch's t test and Glass's Δ
// of each system's scores. The confidence interval is at level.
func classical(xa, xb []float64, paired bool, level float64) (Classical, []string, error) {
	var (
		t     risk.TTest
		g     risk.GlassDelta
		r     *jsonfloat.Float
		warns []string
		err   error
	)
	c := Classical{Test: "welch_t"}
	if paired {
		c.Test = "paired_t"
		p := risk.Pair{X: xa, Base: xb}
		if t, err = p.PairedT(level); err != nil {
			return c, nil, err
		}
		if g, err = p.GlassDelta(); err != nil {
			return c, nil, err
		}
		var cor risk.Correlation
		if cor, err = p.Pearson(); err != nil {
			return c, nil, err
		}
		r = jsonfloat.Ptr(cor.R)
		warns = reportfmt.Prefixed("correlation", cor.Warnings)
	} else {
		s := risk.TwoSamples{X: xa, Base: xb}
		if t, err = s.WelchT(level); err != nil {
			return c, nil, err
		}
		if g, err = s.GlassDelta(); err != nil {
			return c, nil, err
		}
	}
	warns = append(reportfmt.Prefixed(c.Test, t.Warnings), warns...)
	warns = append(warns, reportfmt.Prefixed("Glass's Δ", g.Warnings)...)
	c.MeanDiff, c.T, c.DF = jsonfloat.Float(t.Estimate), jsonfloat.Float(t.T), jsonfloat.Float(t.DF)
	c.P, c.PTwoSided = jsonfloat.Float(t.PGreater), jsonfloat.Float(t.P)
	c.Lo, c.Hi = jsonfloat.Float(t.CI.Lo), jsonfloat.Float(t.CI.Hi)
	c.Glass1, c.Glass2 = jsonfloat.Float(g.ByX), jsonfloat.Float(g.ByBase)
	c.R = r
	return c, warns, nil
}

// row is one quantity with its name and classical counterpart, for the
// table, md and csv views.
type row struct {
	name  string
	q     result.Quantity
	label string // what the quantity is, for people
	// The classical counterpart: an estimate, optionally an interval and a p-value.
	cEst, cLo, cHi, cP float64
}

func (r *Report) rows() []row {
	c := r.Classical
	nan := math.NaN()
	rows := []row{
		{"diff", r.Quantities.Diff, "μ_a − μ_b", float64(c.MeanDiff), float64(c.Lo), float64(c.Hi), float64(c.P)},
		{"glass1", r.Quantities.Glass1, "diff/σ_a", float64(c.Glass1), nan, nan, nan},
		{"glass2", r.Quantities.Glass2, "diff/σ_b", float64(c.Glass2), nan, nan, nan},
	}
	if r.Quantities.Rho != nil {
		est := nan
		if c.R != nil {
			est = float64(*c.R)
		}
		rows = append(rows, row{"rho", *r.Quantities.Rho, "correlation", est, nan, nan, nan})
	}
	return rows
}

func Write(w io.Writer, r *Report, format string) error {
	return reportfmt.Write(w, format, r, func(w io.Writer) error { return writePairCSV(w, r) },
		func(w io.Writer, md bool) error { return writePairText(w, r, md) })
}

func writePairCSV(w io.Writer, r *Report) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"a", "b", "measure", "model", "quantity", "eap", "sd", "mcse", "lo", "hi", "hdi_lo", "hdi_hi",
		"threshold", "p_greater", "rope_lo", "rope_hi", "rope_inside", "decision",
		"classical_test", "classical_estimate", "classical_lo", "classical_hi", "classical_p"})
	for _, row := range r.rows() {
		q := row.q
		cw.Write([]string{r.A, r.B, r.Measure, r.Model, row.name,
			numfmt.CSV(q.EAP), numfmt.CSV(q.SD), numfmt.CSV(q.MCSE),
			numfmt.CSV(q.Lo), numfmt.CSV(q.Hi), numfmt.CSV(q.HDILo), numfmt.CSV(q.HDIHi),
			numfmt.CSV(q.Threshold), numfmt.CSV(q.PGreater),
			numfmt.CSV(q.ROPE.Lo), numfmt.CSV(q.ROPE.Hi), numfmt.CSV(q.ROPE.Inside), q.ROPE.Decision,
			r.Classical.Test, numfmt.CSV(row.cEst), numfmt.CSV(row.cLo), numfmt.CSV(row.cHi), numfmt.CSV(row.cP)})
	}
	cw.Flush()
	return cw.Error()
}

func writePairText(w io.Writer, r *Report, md bool) error {
	model := "Sakai's paired model (bivariate normal)"
	test := "paired t-test"
	if r.Model == "unpaired" {
		model = "Sakai's unpaired model (two normals)"
		test = "Welch's t-test"
	}
	level := numfmt.Percent(float64(r.Level))
	title := fmt.Sprintf("%s (a) vs %s (b): %s", reportfmt.EscapeIf(md, r.A), reportfmt.EscapeIf(md, r.B), model)
	sub := fmt.Sprintf("measure %s, %d topics (a: %d, b: %d scores used); %d exact posterior draws, seed %d", reportfmt.EscapeIf(md, orQuote(r.Measure)), r.Topics, r.NA, r.NB, r.Draws, r.Seed)
	if err := reportfmt.Title(w, md, title, sub); err != nil {
		return err
	}
	rows := [][]string{{"quantity", "EAP", "sd", level + " CI", level + " HDI", "P(> threshold)", "ROPE", "in ROPE", "decision", "classical"}}
	for _, row := range r.rows() {
		q := row.q
		classical := numfmt.Dash.Fixed(row.cEst, 4)
		if row.name == "diff" {
			classical += " " + numfmt.Dash.Interval(row.cLo, row.cHi, 4) + ", p = " + numfmt.Dash.P(row.cP)
		}
		d, _ := posterior.ParseDecision(q.ROPE.Decision)
		rows = append(rows, []string{
			row.name + " (" + row.label + ")",
			numfmt.Dash.Fixed(float64(q.EAP), 4), numfmt.Dash.Fixed(float64(q.SD), 4),
			numfmt.Dash.Interval(float64(q.Lo), float64(q.Hi), 4), numfmt.Dash.Interval(float64(q.HDILo), float64(q.HDIHi), 4),
			"P(>" + strconv.FormatFloat(float64(q.Threshold), 'g', -1, 64) + ") = " + numfmt.Dash.P(float64(q.PGreater)),
			numfmt.Dash.Interval(float64(q.ROPE.Lo), float64(q.ROPE.Hi), 3),
			numfmt.Dash.Fixed(100*float64(q.ROPE.Inside), 1) + "%",
			d.Symbol() + " " + q.ROPE.Decision,
			classical,
		})
	}
	if err := reportfmt.Table(w, md, "lrrllllrll", rows); err != nil {
		return err
	}
	c := r.Classical
	line := fmt.Sprintf("Classical %s: μ_a − μ_b = %s, %s CI %s, t = %s on %s df, one-sided p = %s (H1: a > b), two-sided p = %s.",
		test, numfmt.Dash.Fixed(float64(c.MeanDiff), 4), level, numfmt.Dash.Interval(float64(c.Lo), float64(c.Hi), 4),
		numfmt.Dash.Fixed(float64(c.T), 3), numfmt.Dash.Fixed(float64(c.DF), 2), numfmt.Dash.P(float64(c.P)), numfmt.Dash.P(float64(c.PTwoSided)))
	if !md {
		line = "\n" + line
	}
	fmt.Fprintln(w, line)
	if r.AcceptanceRate != nil {
		fmt.Fprintf(w, "Sampler: %s (acceptance rate %s).\n", r.Sampler, numfmt.Dash.Fixed(float64(*r.AcceptanceRate), 3))
	} else {
		fmt.Fprintf(w, "Sampler: %s.\n", r.Sampler)
	}
	return reportfmt.Warnings(w, md, r.Warnings)
}

func orQuote(s string) string {
	if s == "" {
		return "(unnamed)"
	}
	return s
}
