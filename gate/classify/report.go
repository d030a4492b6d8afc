package classify

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

	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/risk"
)

// Report is the result of riskgate classify; its JSON form is the
// command's contract (extend it, don't rename).
type Report struct {
	Truth       string          `json:"truth"`
	A           string          `json:"a"`
	B           string          `json:"b"`
	Positive    string          `json:"positive,omitempty"`
	Measure     string          `json:"measure"`
	Model       string          `json:"model"` // "paired" or "unpaired"
	Documents   int             `json:"documents"`
	Draws       int             `json:"draws"`
	Seed        uint64          `json:"seed"`
	Level       jsonfloat.Float `json:"level"`
	ROPE        ROPE            `json:"rope"`
	Prior       jsonfloat.Float `json:"prior"` // every Beta/Dirichlet hyper-parameter
	Comparisons []Comparison    `json:"comparisons"`
	Warnings    []string        `json:"warnings"`
}

// ROPE is the region of practical equivalence of the difference.
type ROPE struct {
	Lo jsonfloat.Float `json:"lo"`
	Hi jsonfloat.Float `json:"hi"`
}

// Comparison is one binary problem (kind "category") or an average
// over them (kind "macro" or "micro").
type Comparison struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	N    int    `json:"n"`     // documents (summed over categories for averages)
	NPos int    `json:"n_pos"` // positive documents
	A    Score  `json:"a"`
	B    Score  `json:"b"`
	// Diff is the posterior of δ = measure_a − measure_b.
	Diff Diff `json:"diff"`
	// BF01 is the Savage–Dickey Bayes factor for δ = 0 (above 3: evidence for
	// no difference; below 1/3: for a difference).
	BF01 jsonfloat.Float `json:"bf01"`
	// The frequentist tests of Yang & Liu (1999), two-sided: per category and
	// micro, the sign test and the proportions test of accuracies; macro, the
	// sign test and the paired t-test over categories.
	SignTest Sign   `json:"sign_test"`
	PTest    *PTest `json:"p_test,omitempty"`
	TTest    *TTest `json:"t_test,omitempty"`
}

// Score is a classifier's measure: observed, and its posterior.
type Score struct {
	Sample jsonfloat.Float `json:"sample"`
	EAP    jsonfloat.Float `json:"eap"`
	SD     jsonfloat.Float `json:"sd"`
	HDILo  jsonfloat.Float `json:"hdi_lo"`
	HDIHi  jsonfloat.Float `json:"hdi_hi"`
}

// Diff is the posterior of the difference, as pair reports a quantity,
// plus P(δ < 0).
type Diff struct {
	result.Quantity
	PLess jsonfloat.Float `json:"p_less"`
}

// Sign is an exact sign test.
type Sign struct {
	Wins   int             `json:"wins"`   // A better
	Losses int             `json:"losses"` // B better
	P      jsonfloat.Float `json:"p"`
}

// PTest is the proportions test of two accuracies.
type PTest struct {
	AccuracyA jsonfloat.Float `json:"accuracy_a"`
	AccuracyB jsonfloat.Float `json:"accuracy_b"`
	Z         jsonfloat.Float `json:"z"`
	P         jsonfloat.Float `json:"p"`
}

// TTest is the paired t-test over categories (macro).
type TTest struct {
	MeanDiff jsonfloat.Float `json:"mean_diff"`
	T        jsonfloat.Float `json:"t"`
	DF       jsonfloat.Float `json:"df"`
	P        jsonfloat.Float `json:"p"`
}

// Build reports the Bayesian comparison res of the categories
// cats (in res.Rows' order, then macro and micro) with the frequentist tests
// of Yang & Liu (1999) that Zhang et al. tabulate beside it (package risk):
// per category and micro, the sign test of the documents only one classifier
// gets right and the proportions test of the accuracies; macro, the sign test
// and the paired t test of the categories' observed measures.
func Build(res *twosample.ClassifierResult, cats []twosample.Category, truth, a, b, positive string, docs int) (*Report, error) {
	rep := &Report{Truth: truth, A: a, B: b, Positive: positive, Measure: res.Measure.String(), Model: res.Model,
		Documents: docs, Draws: res.Draws, Seed: res.Seed, Level: jsonfloat.Float(res.CredMass),
		ROPE: ROPE{jsonfloat.Float(res.ROPE.Lo), jsonfloat.Float(res.ROPE.Hi)}, Prior: jsonfloat.Float(res.Prior),
		Warnings: append([]string{}, res.Warnings...)}
	var pooled twosample.JointCounts
	var sampleA, sampleB []float64
	for i, r := range res.Rows {
		c := Comparison{Name: r.Name, Kind: r.Kind, N: r.N, NPos: r.NPos,
			A:    Score{jsonfloat.Float(r.SampleA), jsonfloat.Float(r.A.EAP), jsonfloat.Float(r.A.SD), jsonfloat.Float(r.A.HDILo), jsonfloat.Float(r.A.HDIHi)},
			B:    Score{jsonfloat.Float(r.SampleB), jsonfloat.Float(r.B.EAP), jsonfloat.Float(r.B.SD), jsonfloat.Float(r.B.HDILo), jsonfloat.Float(r.B.HDIHi)},
			Diff: Diff{result.NewQuantity(r.Diff), jsonfloat.Float(r.PLess)},
			BF01: jsonfloat.Float(r.BayesFactor.BF01),
		}
		var warns []string
		var err error
		switch r.Kind {
		case "category":
			pooled = pooled.Plus(cats[i].Counts)
			sampleA, sampleB = append(sampleA, r.SampleA), append(sampleB, r.SampleB)
			c.SignTest, c.PTest, warns, err = accuracyTests(cats[i].Counts)
		case "micro":
			c.SignTest, c.PTest, warns, err = accuracyTests(pooled)
		case "macro":
			c.SignTest, c.TTest, warns, err = macroTests(sampleA, sampleB)
		}
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", r.Kind, r.Name, err)
		}
		rep.Warnings = append(rep.Warnings, reportfmt.Prefixed(fmt.Sprintf("%s %q", r.Kind, r.Name), warns)...)
		rep.Comparisons = append(rep.Comparisons, c)
	}
	return rep, nil
}

// accuracyTests are Yang & Liu's micro tests of one binary problem (or of
// the pooled problems): the sign test ("s-test") of the documents only a,
// and only b, classifies correctly, and the proportions test ("p-test") of
// the accuracies.
func accuracyTests(c twosample.JointCounts) (Sign, *PTest, []string, error) {
	sign := risk.SignTest(c.OnlyRight())
	ra, rb := c.Right()
	pt, err := risk.ProportionTest(ra, rb, c.N())
	if err != nil {
		return Sign{}, nil, nil, err
	}
	return toClassifySign(sign), &PTest{jsonfloat.Float(pt.AccuracyA), jsonfloat.Float(pt.AccuracyB), jsonfloat.Float(pt.Z), jsonfloat.Float(pt.P)},
		reportfmt.Prefixed("p-test", pt.Warnings), nil
}

// macroTests are Yang & Liu's macro tests over the categories whose measure
// is defined (not NaN) for both classifiers: the sign test ("S-test") of the
// categories where a's measure beats b's against those where b's beats a's,
// and the paired t test ("T-test", two-sided, 95% interval), undefined (NaN)
// with fewer than two such categories.
func macroTests(a, b []float64) (Sign, *TTest, []string, error) {
	var xa, xb []float64
	wins, losses := 0, 0
	for i := range a {
		if math.IsNaN(a[i]) || math.IsNaN(b[i]) {
			continue
		}
		xa, xb = append(xa, a[i]), append(xb, b[i])
		switch {
		case a[i] > b[i]:
			wins++
		case a[i] < b[i]:
			losses++
		}
	}
	sign := toClassifySign(risk.SignTest(wins, losses))
	nan := jsonfloat.Float(math.NaN())
	if len(xa) < 2 {
		return sign, &TTest{nan, nan, nan, nan}, nil, nil
	}
	t, err := risk.Pair{X: xa, Base: xb}.PairedT(0.95)
	if err != nil {
		return sign, nil, nil, err
	}
	return sign, &TTest{jsonfloat.Float(t.Estimate), jsonfloat.Float(t.T), jsonfloat.Float(t.DF), jsonfloat.Float(t.P)}, reportfmt.Prefixed("T-test", t.Warnings), nil
}

func toClassifySign(s risk.Sign) Sign {
	return Sign{Wins: s.Pos, Losses: s.Neg, P: jsonfloat.Float(s.P)}
}

func Write(w io.Writer, r *Report, format string) error {
	return reportfmt.Write(w, format, r, func(w io.Writer) error { return writeClassifyCSV(w, r) },
		func(w io.Writer, md bool) error { return writeClassifyText(w, r, md) })
}

func writeClassifyCSV(w io.Writer, r *Report) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"name", "kind", "measure", "model", "n", "n_pos",
		"a_sample", "a_eap", "a_sd", "a_hdi_lo", "a_hdi_hi", "b_sample", "b_eap", "b_sd", "b_hdi_lo", "b_hdi_hi",
		"diff_eap", "diff_sd", "diff_mcse", "diff_lo", "diff_hi", "diff_hdi_lo", "diff_hdi_hi", "p_greater", "p_less",
		"rope_lo", "rope_hi", "rope_inside", "decision", "bf01",
		"sign_wins", "sign_losses", "sign_p", "ptest_accuracy_a", "ptest_accuracy_b", "ptest_z", "ptest_p",
		"ttest_mean_diff", "ttest_t", "ttest_df", "ttest_p"})
	n := numfmt.CSV[jsonfloat.Float]
	for _, c := range r.Comparisons {
		d := c.Diff
		row := []string{c.Name, c.Kind, r.Measure, r.Model, strconv.Itoa(c.N), strconv.Itoa(c.NPos),
			n(c.A.Sample), n(c.A.EAP), n(c.A.SD), n(c.A.HDILo), n(c.A.HDIHi),
			n(c.B.Sample), n(c.B.EAP), n(c.B.SD), n(c.B.HDILo), n(c.B.HDIHi),
			n(d.EAP), n(d.SD), n(d.MCSE), n(d.Lo), n(d.Hi), n(d.HDILo), n(d.HDIHi), n(d.PGreater), n(d.PLess),
			n(d.ROPE.Lo), n(d.ROPE.Hi), n(d.ROPE.Inside), d.ROPE.Decision, n(c.BF01),
			strconv.Itoa(c.SignTest.Wins), strconv.Itoa(c.SignTest.Losses), n(c.SignTest.P)}
		if c.PTest != nil {
			row = append(row, n(c.PTest.AccuracyA), n(c.PTest.AccuracyB), n(c.PTest.Z), n(c.PTest.P))
		} else {
			row = append(row, "", "", "", "")
		}
		if c.TTest != nil {
			row = append(row, n(c.TTest.MeanDiff), n(c.TTest.T), n(c.TTest.DF), n(c.TTest.P))
		} else {
			row = append(row, "", "", "", "")
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func writeClassifyText(w io.Writer, r *Report, md bool) error {
	title := fmt.Sprintf("%s (a) vs %s (b) against %s: Zhang et al.'s %s model, %s", reportfmt.EscapeIf(md, r.A), reportfmt.EscapeIf(md, r.B), reportfmt.EscapeIf(md, r.Truth), r.Model, r.Measure)
	if r.Positive != "" {
		title += ", positive class " + reportfmt.EscapeIf(md, strconv.Quote(r.Positive))
	}
	level := numfmt.Percent(float64(r.Level))
	sub := fmt.Sprintf("%d documents; %d exact posterior draws, seed %d; ROPE %s; Beta/Dirichlet(%s) priors",
		r.Documents, r.Draws, r.Seed, numfmt.Dash.Interval(float64(r.ROPE.Lo), float64(r.ROPE.Hi), 3), strconv.FormatFloat(float64(r.Prior), 'g', -1, 64))
	if err := reportfmt.Title(w, md, title, sub); err != nil {
		return err
	}
	rows := [][]string{{"category", "n+", "a", "b", "δ mean", "δ sd", level + " HDI of δ", "P(δ<0) / P(δ>0)", "in ROPE", "BF01", "decision", "sign p", "p-test / T-test p"}}
	for _, c := range r.Comparisons {
		name := c.Name
		if c.Kind != "category" {
			name = "(" + c.Kind + ")"
		}
		d := c.Diff
		dec, _ := posterior.ParseDecision(d.ROPE.Decision)
		other := "–"
		if c.PTest != nil {
			other = numfmt.Dash.P(float64(c.PTest.P))
		} else if c.TTest != nil {
			other = numfmt.Dash.P(float64(c.TTest.P))
		}
		rows = append(rows, []string{
			name, strconv.Itoa(c.NPos),
			numfmt.Dash.Fixed(float64(c.A.EAP), 3), numfmt.Dash.Fixed(float64(c.B.EAP), 3),
			numfmt.Signed(float64(d.EAP)), numfmt.Dash.Fixed(float64(d.SD), 3),
			"[" + numfmt.Signed(float64(d.HDILo)) + ", " + numfmt.Signed(float64(d.HDIHi)) + "]",
			numfmt.Dash.Fixed(100*float64(d.PLess), 1) + "% < 0 < " + numfmt.Dash.Fixed(100*float64(d.PGreater), 1) + "%",
			numfmt.Dash.Fixed(100*float64(d.ROPE.Inside), 1) + "%",
			numfmt.Dash.Fixed(float64(c.BF01), 3),
			dec.Symbol() + " " + d.ROPE.Decision,
			numfmt.Dash.P(float64(c.SignTest.P)), other,
		})
	}
	if err := reportfmt.Table(w, md, "lrrrrrllrrlrr", rows); err != nil {
		return err
	}
	notes := []string{
		"a, b: posterior means of the measure; δ = a − b; BF01: Savage–Dickey Bayes factor for δ = 0 (> 3 favours no difference).",
		"sign p, p-test p: two-sided sign test and proportions test of accuracies (Yang & Liu 1999); the macro row has the sign test and paired t-test over categories.",
	}
	if !md {
		fmt.Fprintln(w)
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	return reportfmt.Warnings(w, md, r.Warnings)
}
