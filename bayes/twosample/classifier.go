package twosample

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/parallel"
	"github.com/riskgate/riskgate/internal/stats"
)

// Bayesian comparison of two classifiers on the same test set, after Zhang,
// Wang, Yilmaz, Wang & Zhou (SIGIR 2016), "Bayesian performance comparison of
// text classifiers", §3.1.
//
// For one binary problem (a category against the rest) each document has a
// true class (+ or −) and a pair of predictions o = (ŷ_A, ŷ_B) ∈ {(1,1), (1,0),
// (0,1), (0,0)} — the paper's Table 2, eight joint outcomes in all.
//
// Paired model (§3.1.2): μ = P(+) ~ Beta(β), n⁺ ~ Bin(N, μ); the outcome pairs
// of positive documents c⁺ ~ Mult(n⁺, θ⁺), θ⁺ ~ Dir(α⁺), and of negative
// documents c⁻ ~ Mult(n⁻, θ⁻), θ⁻ ~ Dir(α⁻). By conjugacy the posterior is
// μ ~ Beta(β⁺ + n⁺, β⁻ + n⁻), θ^± ~ Dir(α^± + c^±), independent, drawn exactly
// from Gamma variates. Classifier A's cell probabilities are
// TP = μ(θ⁺₁₁ + θ⁺₁₀), FN = μ(θ⁺₀₁ + θ⁺₀₀), FP = (1−μ)(θ⁻₁₁ + θ⁻₁₀),
// TN = (1−μ)(θ⁻₀₁ + θ⁻₀₀); B's swap the roles of (1,0) and (0,1).
//
// Unpaired model (§3.1.1, Figure 2): each classifier is its own sub-model
// with its own μ ~ Beta(β), ρ⁺ = P(ŷ = 1 | +) ~ Beta(α⁺), ρ⁻ = P(ŷ = 1 | −) ~ Beta(α⁻);
// TP = μρ⁺, FN = μ(1−ρ⁺), FP = (1−μ)ρ⁻, TN = (1−μ)(1−ρ⁻). The sub-models share
// no parameter ("we can simply pool the two probabilistic models"), so even on
// one test set A's and B's μ are drawn independently.
//
// Every hyper-parameter is 1 by default (uniform priors, as in Zhang et al.'s
// experiments). The measure ψ is a function of the cell probabilities, so its
// posterior, and that of δ = ψ_A − ψ_B, follow draw by draw.

// Outcome indexes of a prediction pair (ŷ_A, ŷ_B), Zhang et al.'s order.
const (
	Both11  = iota // both predict positive
	OnlyA10        // A positive, B negative
	OnlyB01        // A negative, B positive
	Both00         // both predict negative
)

// JointCounts are the counts of the eight joint outcomes of a binary comparison:
// Pos[o] on positive documents, Neg[o] on negative ones, o = Both11 … Both00.
type JointCounts struct {
	Pos, Neg [4]int
}

// Add counts one document with true class positive and predictions a, b.
func (c *JointCounts) Add(positive, a, b bool) {
	o := Both00
	switch {
	case a && b:
		o = Both11
	case a:
		o = OnlyA10
	case b:
		o = OnlyB01
	}
	if positive {
		c.Pos[o]++
	} else {
		c.Neg[o]++
	}
}

// Plus returns the cell-wise sum of c and d (pooling for micro averages).
func (c JointCounts) Plus(d JointCounts) JointCounts {
	for k := range c.Pos {
		c.Pos[k] += d.Pos[k]
		c.Neg[k] += d.Neg[k]
	}
	return c
}

// NPos returns the number of positive documents, NNeg the negatives, N both.
func (c JointCounts) NPos() int { return c.Pos[0] + c.Pos[1] + c.Pos[2] + c.Pos[3] }

// NNeg returns the number of negative documents.
func (c JointCounts) NNeg() int { return c.Neg[0] + c.Neg[1] + c.Neg[2] + c.Neg[3] }

// N returns the number of documents.
func (c JointCounts) N() int { return c.NPos() + c.NNeg() }

// Right returns the numbers of documents A and B each classify correctly.
func (c JointCounts) Right() (a, b int) {
	a = c.Pos[Both11] + c.Pos[OnlyA10] + c.Neg[OnlyB01] + c.Neg[Both00]
	b = c.Pos[Both11] + c.Pos[OnlyB01] + c.Neg[OnlyA10] + c.Neg[Both00]
	return a, b
}

// OnlyRight returns the numbers of documents that only A, and only B,
// classifies correctly: on positives the predictions (1,0) and (0,1), on
// negatives (0,1) and (1,0).
func (c JointCounts) OnlyRight() (a, b int) {
	return c.Pos[OnlyA10] + c.Neg[OnlyB01], c.Pos[OnlyB01] + c.Neg[OnlyA10]
}

// ConfusionA returns classifier A's confusion counts.
func (c JointCounts) ConfusionA() Confusion {
	return Confusion{
		TP: float64(c.Pos[Both11] + c.Pos[OnlyA10]), FN: float64(c.Pos[OnlyB01] + c.Pos[Both00]),
		FP: float64(c.Neg[Both11] + c.Neg[OnlyA10]), TN: float64(c.Neg[OnlyB01] + c.Neg[Both00])}
}

// ConfusionB returns classifier B's confusion counts.
func (c JointCounts) ConfusionB() Confusion {
	return Confusion{
		TP: float64(c.Pos[Both11] + c.Pos[OnlyB01]), FN: float64(c.Pos[OnlyA10] + c.Pos[Both00]),
		FP: float64(c.Neg[Both11] + c.Neg[OnlyB01]), TN: float64(c.Neg[OnlyA10] + c.Neg[Both00])}
}

// Confusion is a contingency table, as counts or as cell probabilities.
type Confusion struct {
	TP, FP, FN, TN float64
}

// Plus returns the cell-wise sum (micro-averaging pools the tables).
func (c Confusion) Plus(d Confusion) Confusion {
	return Confusion{c.TP + d.TP, c.FP + d.FP, c.FN + d.FN, c.TN + d.TN}
}

// ClassifierMeasure is a performance measure computed from a contingency table.
type ClassifierMeasure struct {
	Kind string  // "f1", "precision", "recall", "accuracy" or "fbeta"
	Beta float64 // β of Fβ (1 for f1)
}

// ParseClassifierMeasure parses f1, precision, recall, accuracy or fbeta:B (B ≥ 0).
func ParseClassifierMeasure(s string) (ClassifierMeasure, error) {
	switch s {
	case "f1":
		return ClassifierMeasure{"f1", 1}, nil
	case "precision", "recall", "accuracy":
		return ClassifierMeasure{Kind: s}, nil
	}
	if rest, ok := strings.CutPrefix(s, "fbeta:"); ok {
		b, err := strconv.ParseFloat(rest, 64)
		if err == nil && b >= 0 && !math.IsInf(b, 0) {
			return ClassifierMeasure{"fbeta", b}, nil
		}
	}
	return ClassifierMeasure{}, fmt.Errorf("measure %q: expected f1, precision, recall, accuracy or fbeta:B with B ≥ 0", s)
}

// String returns the measure's name as ParseClassifierMeasure accepts it.
func (m ClassifierMeasure) String() string {
	if m.Kind == "fbeta" {
		return "fbeta:" + strconv.FormatFloat(m.Beta, 'g', -1, 64)
	}
	return m.Kind
}

// Of returns the measure of a contingency table: precision TP/(TP+FP), recall
// TP/(TP+FN), accuracy (TP+TN)/(TP+FP+FN+TN) and Fβ = (1+β²)TP / ((1+β²)TP + β²FN + FP)
// (van Rijsbergen 1979; F1 = 2PR/(P+R) for β = 1). It is NaN when the
// denominator is 0 (e.g. precision of a classifier that never predicts positive).
func (m ClassifierMeasure) Of(c Confusion) float64 {
	var num, den float64
	switch m.Kind {
	case "precision":
		num, den = c.TP, c.TP+c.FP
	case "recall":
		num, den = c.TP, c.TP+c.FN
	case "accuracy":
		num, den = c.TP+c.TN, c.TP+c.FP+c.FN+c.TN
	default: // f1, fbeta
		b2 := m.Beta * m.Beta
		num = (1 + b2) * c.TP
		den = num + b2*c.FN + c.FP
	}
	if den == 0 {
		return math.NaN()
	}
	return num / den
}

// classifierSampler draws the cell probabilities of A and B for one
// category from the posterior of one of Zhang et al.'s models.
type classifierSampler interface {
	draw(r *rand.Rand) (a, b Confusion)
}

// pairedSampler is the paired model's posterior: Beta parameters of the
// prevalence μ and Dirichlet parameters of the joint predictions θ⁺ and θ⁻.
type pairedSampler struct {
	mu         [2]float64
	thPos, thN [4]float64
}

func newPairedSampler(c JointCounts, prior float64) classifierSampler {
	s := &pairedSampler{mu: [2]float64{prior + float64(c.NPos()), prior + float64(c.NNeg())}}
	for k := range 4 {
		s.thPos[k] = prior + float64(c.Pos[k])
		s.thN[k] = prior + float64(c.Neg[k])
	}
	return s
}

func (s *pairedSampler) draw(r *rand.Rand) (a, b Confusion) {
	mu := betaVariate(r, s.mu[0], s.mu[1])
	var tp, tn [4]float64
	dirichlet4Variate(r, &s.thPos, &tp)
	dirichlet4Variate(r, &s.thN, &tn)
	return pairedConfusions(mu, &tp, &tn)
}

// unpairedSampler is the unpaired model's posterior: per classifier k,
// μ_k ~ Beta(mu[k]), ρ⁺_k ~ Beta(rhoPos[k]) and ρ⁻_k ~ Beta(rhoNeg[k]).
type unpairedSampler struct {
	mu, rhoPos, rhoNeg [2][2]float64
}

func newUnpairedSampler(c JointCounts, prior float64) classifierSampler {
	s := &unpairedSampler{}
	np, nn := float64(c.NPos()), float64(c.NNeg())
	for k, conf := range []Confusion{c.ConfusionA(), c.ConfusionB()} {
		s.mu[k] = [2]float64{prior + np, prior + nn}
		s.rhoPos[k] = [2]float64{prior + conf.TP, prior + conf.FN}
		s.rhoNeg[k] = [2]float64{prior + conf.FP, prior + conf.TN}
	}
	return s
}

func (s *unpairedSampler) draw(r *rand.Rand) (a, b Confusion) {
	var out [2]Confusion
	for k := range out {
		mu := betaVariate(r, s.mu[k][0], s.mu[k][1])
		rp := betaVariate(r, s.rhoPos[k][0], s.rhoPos[k][1])
		rn := betaVariate(r, s.rhoNeg[k][0], s.rhoNeg[k][1])
		out[k] = Confusion{TP: mu * rp, FN: mu * (1 - rp), FP: (1 - mu) * rn, TN: (1 - mu) * (1 - rn)}
	}
	return out[0], out[1]
}

// pairedConfusions returns A's and B's cell probabilities given the class
// prevalence μ and the joint prediction probabilities θ⁺ (tp) and θ⁻ (tn).
func pairedConfusions(mu float64, tp, tn *[4]float64) (a, b Confusion) {
	a = Confusion{TP: mu * (tp[Both11] + tp[OnlyA10]), FN: mu * (tp[OnlyB01] + tp[Both00]),
		FP: (1 - mu) * (tn[Both11] + tn[OnlyA10]), TN: (1 - mu) * (tn[OnlyB01] + tn[Both00])}
	b = Confusion{TP: mu * (tp[Both11] + tp[OnlyB01]), FN: mu * (tp[OnlyA10] + tp[Both00]),
		FP: (1 - mu) * (tn[Both11] + tn[OnlyB01]), TN: (1 - mu) * (tn[OnlyA10] + tn[Both00])}
	return a, b
}

// ClassifierDraws are posterior (or prior) draws of a measure for A and B on
// each category and, with two categories or more, of its macro average (mean
// of the categories' values) and micro average (measure of the pooled cell
// probabilities) — Zhang et al. §5 "Multiple classes", with the categories
// modelled as independent binary problems.
type ClassifierDraws struct {
	A, B       [][]float64 // [category][draw]
	MacroA     []float64
	MacroB     []float64
	MicroA     []float64
	MicroB     []float64
	Categories int
	Measure    ClassifierMeasure
	Paired     bool
	Draws      int
}

// drawBlock is the number of draws per random stream: draws are generated in
// blocks of this size, block k from NewStream(seed, k), so the result does not
// depend on how many goroutines share the work.
const drawBlock = 4096

// SampleClassifiers draws opt.Draws times from the posterior of the paired
// or unpaired model (opt.Paired) for each category's joint counts (pass zero
// counts to draw from the prior), with the measure opt.Measure and every
// hyper-parameter equal to opt.Prior, from the streams of opt.Seed; zero
// fields take DefaultClassifierOptions' values. Work is spread over
// GOMAXPROCS goroutines; the draws are the same whatever GOMAXPROCS is.
func SampleClassifiers(cats []JointCounts, opt ClassifierOptions) (*ClassifierDraws, error) {
	opt = opt.withDefaults()
	m, prior, s, seed := opt.Measure, opt.Prior, opt.Draws, opt.Seed
	if len(cats) == 0 {
		return nil, errors.New("no category to compare")
	}
	if s < 1 {
		return nil, fmt.Errorf("%d draws requested; expected at least 1", s)
	}
	if !(prior > 0) || math.IsInf(prior, 0) {
		return nil, fmt.Errorf("prior hyper-parameter %v: expected a positive number", prior)
	}
	nc := len(cats)
	d := &ClassifierDraws{Categories: nc, Measure: m, Paired: opt.Paired, Draws: s,
		A: make([][]float64, nc), B: make([][]float64, nc)}
	for c := range cats {
		d.A[c] = make([]float64, s)
		d.B[c] = make([]float64, s)
	}
	if nc > 1 {
		d.MacroA, d.MacroB = make([]float64, s), make([]float64, s)
		d.MicroA, d.MicroB = make([]float64, s), make([]float64, s)
	}
	samplers := make([]classifierSampler, nc)
	for c, counts := range cats {
		samplers[c] = opt.sampler(counts)
	}
	blocks := (s + drawBlock - 1) / drawBlock
	run := func(block int) {
		r := NewStream(seed, uint64(block))
		for i := block * drawBlock; i < min(s, (block+1)*drawBlock); i++ {
			var microA, microB Confusion
			var macroA, macroB float64
			for c := range samplers {
				a, b := samplers[c].draw(r)
				va, vb := m.Of(a), m.Of(b)
				d.A[c][i], d.B[c][i] = va, vb
				macroA += va
				macroB += vb
				microA, microB = microA.Plus(a), microB.Plus(b)
			}
			if nc > 1 {
				d.MacroA[i], d.MacroB[i] = macroA/float64(nc), macroB/float64(nc)
				d.MicroA[i], d.MicroB[i] = m.Of(microA), m.Of(microB)
			}
		}
	}
	parallelFor(blocks, run)
	return d, nil
}

func diffDraws(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] - b[i]
	}
	return out
}

// ClassifierOptions configure CompareClassifiers; zero fields take defaults.
type ClassifierOptions struct {
	Measure  ClassifierMeasure // default F1
	Paired   bool              // Zhang et al.'s paired model (default: unpaired)
	Draws    int               // default 50,000 (Zhang et al.'s default)
	Seed     uint64
	CredMass float64        // HDI mass, default 0.95
	ROPE     posterior.ROPE // ROPE of δ = ψ_A − ψ_B; default [−0.05, 0.05] (Zhang et al.)
	Prior    float64        // every Beta/Dirichlet hyper-parameter; default 1 (uniform)
}

// DefaultClassifierOptions returns F1, 50,000 draws, a 95% HDI, the ROPE
// [−0.05, 0.05] and uniform priors (unpaired; set Paired for the paired model).
func DefaultClassifierOptions() ClassifierOptions {
	return ClassifierOptions{Measure: ClassifierMeasure{"f1", 1}, Draws: 50000, CredMass: 0.95,
		ROPE: posterior.ROPE{Lo: -0.05, Hi: 0.05}, Prior: 1}
}

// withDefaults is o with DefaultClassifierOptions' value in every zero field.
func (o ClassifierOptions) withDefaults() ClassifierOptions {
	def := DefaultClassifierOptions()
	if o.Measure.Kind == "" {
		o.Measure = def.Measure
	}
	if o.Draws == 0 {
		o.Draws = def.Draws
	}
	if o.CredMass == 0 {
		o.CredMass = def.CredMass
	}
	if o.ROPE == (posterior.ROPE{}) {
		o.ROPE = def.ROPE
	}
	if o.Prior == 0 {
		o.Prior = def.Prior
	}
	return o
}

// sampler is the posterior sampler of o's model for the joint counts c.
func (o ClassifierOptions) sampler(c JointCounts) classifierSampler {
	if o.Paired {
		return newPairedSampler(c, o.Prior)
	}
	return newUnpairedSampler(c, o.Prior)
}

// Category is one binary problem of a comparison: a category against the rest.
type Category struct {
	Name   string
	Counts JointCounts
}

// ClassifierRow is the comparison on one category, or on the macro or micro average.
type ClassifierRow struct {
	Name string // the category, or "macro" / "micro"
	Kind string // "category", "macro" or "micro"
	// Documents and positive documents (summed over categories for macro and micro).
	N, NPos int
	// The measure on the observed table (macro: the mean over categories).
	SampleA, SampleB float64
	A, B             Quantity // posteriors of the measure of A and of B
	// Diff is the posterior of δ = ψ_A − ψ_B with P(δ > 0) and the HDI+ROPE decision.
	Diff Quantity
	// PLess is P(δ < 0): with Diff.PGreater, Zhang et al.'s "LG pct".
	PLess float64
	// BayesFactor is the Savage–Dickey BF01 for δ = 0 (Zhang et al. §3.2.1):
	// the posterior density at 0 by KernelDensity, the prior density at 0 by
	// SymmetricDensity from as many prior draws (the prior of δ is symmetric
	// because it treats A and B alike, and has a kink at 0 that a kernel
	// estimate would flatten by 5–7% under uniform priors).
	BayesFactor posterior.BayesFactor
	// (The classical tests Zhang et al. tabulate beside, Yang & Liu's, are
	// package risk's: SignTest of JointCounts.OnlyRight and ProportionTest of
	// JointCounts.Right per category and micro; Pair.Sign and Pair.PairedT
	// of the categories' SampleA and SampleB for macro.)
}

// ClassifierResult is the outcome of CompareClassifiers.
type ClassifierResult struct {
	Measure  ClassifierMeasure
	Model    string // "paired" or "unpaired"
	Draws    int
	Seed     uint64
	CredMass float64
	ROPE     posterior.ROPE
	Prior    float64
	Rows     []ClassifierRow // categories in the given order, then macro and micro
	Warnings []string
}

// CompareClassifiers compares classifiers A and B on each category (a binary
// problem each) and, with two categories or more, on the macro and micro
// averages of the measure.
func CompareClassifiers(cats []Category, opt ClassifierOptions) (*ClassifierResult, error) {
	opt = opt.withDefaults()
	if !(opt.CredMass > 0 && opt.CredMass < 1) {
		return nil, fmt.Errorf("credible mass %v: expected a number in (0, 1)", opt.CredMass)
	}
	if err := opt.ROPE.Validate(); err != nil {
		return nil, err
	}
	if len(cats) == 0 {
		return nil, errors.New("no category to compare")
	}
	counts := make([]JointCounts, len(cats))
	for i, c := range cats {
		if c.Counts.NPos() == 0 {
			return nil, fmt.Errorf("category %q has no positive document in the truth: an empty category cannot be compared", c.Name)
		}
		if c.Counts.NNeg() == 0 {
			return nil, fmt.Errorf("category %q: every document is positive, so no document is negative", c.Name)
		}
		counts[i] = c.Counts
	}
	res := &ClassifierResult{Measure: opt.Measure, Model: "unpaired", Draws: opt.Draws, Seed: opt.Seed,
		CredMass: opt.CredMass, ROPE: opt.ROPE, Prior: opt.Prior}
	if opt.Paired {
		res.Model = "paired"
	}
	// The posterior and the prior are drawn from two seeds derived from opt.Seed
	// (each then split into per-block streams by SampleClassifiers).
	postOpt, priorOpt := opt, opt
	postOpt.Seed, priorOpt.Seed = splitMix64(opt.Seed), splitMix64(opt.Seed^0x5a5a5a5a5a5a5a5a)
	post, err := SampleClassifiers(counts, postOpt)
	if err != nil {
		return nil, err
	}
	zero := make([]JointCounts, len(cats))
	prior, err := SampleClassifiers(zero, priorOpt)
	if err != nil {
		return nil, err
	}
	// Every category has the same prior, so one prior density at δ = 0 serves
	// all. The prior is exchangeable in A and B, so δ is symmetric about 0.
	priorDensity := posterior.SymmetricDensity(diffDraws(prior.A[0], prior.B[0]), 0)
	row := func(name, kind string, a, b []float64, priorDens float64) ClassifierRow {
		r := ClassifierRow{Name: name, Kind: kind}
		r.A = SummarizeQuantity("a", a, opt.CredMass, 0, opt.ROPE)
		r.B = SummarizeQuantity("b", b, opt.CredMass, 0, opt.ROPE)
		d := diffDraws(a, b)
		var sorted []float64
		r.Diff, sorted = summarize("diff", d, opt.CredMass, 0, opt.ROPE)
		r.PLess = 1 - posterior.ProbGreater(d, 0) - fractionEqual(d, 0)
		r.BayesFactor = posterior.SavageDickeySorted(sorted, d, priorDens, 0)
		return r
	}
	// The rows are independent: summarise them in parallel (each is
	// deterministic, so the result does not depend on the scheduling).
	summaries := make([]ClassifierRow, len(cats))
	parallelFor(len(cats), func(c int) {
		summaries[c] = row(cats[c].Name, "category", post.A[c], post.B[c], priorDensity)
	})
	var pooled JointCounts
	var sampleA, sampleB []float64
	for c, cat := range cats {
		r := summaries[c]
		r.N, r.NPos = cat.Counts.N(), cat.Counts.NPos()
		r.SampleA, r.SampleB = opt.Measure.Of(cat.Counts.ConfusionA()), opt.Measure.Of(cat.Counts.ConfusionB())
		res.Rows = append(res.Rows, r)
		pooled = pooled.Plus(cat.Counts)
		sampleA = append(sampleA, r.SampleA)
		sampleB = append(sampleB, r.SampleB)
		if math.IsNaN(r.SampleA) || math.IsNaN(r.SampleB) {
			res.Warnings = append(res.Warnings, fmt.Sprintf("category %q: the observed %s of A or B is undefined (0/0)", cat.Name, opt.Measure))
		}
	}
	if len(cats) > 1 {
		macro := row("macro", "macro", post.MacroA, post.MacroB, posterior.SymmetricDensity(diffDraws(prior.MacroA, prior.MacroB), 0))
		macro.N, macro.NPos = pooled.N(), pooled.NPos()
		macro.SampleA, macro.SampleB = stats.MeanDefined(sampleA), stats.MeanDefined(sampleB)
		micro := row("micro", "micro", post.MicroA, post.MicroB, posterior.SymmetricDensity(diffDraws(prior.MicroA, prior.MicroB), 0))
		micro.N, micro.NPos = pooled.N(), pooled.NPos()
		micro.SampleA, micro.SampleB = opt.Measure.Of(sumConfusion(cats, JointCounts.ConfusionA)), opt.Measure.Of(sumConfusion(cats, JointCounts.ConfusionB))
		res.Rows = append(res.Rows, macro, micro)
	}
	return res, nil
}

// parallelFor calls f(0) … f(n−1) on up to GOMAXPROCS goroutines (parallel.Each).
func parallelFor(n int, f func(i int)) { parallel.Each(n, f) }

// sumConfusion is the sum over the categories of one classifier's
// confusion table, of (JointCounts.ConfusionA) or (JointCounts.ConfusionB).
func sumConfusion(cats []Category, of func(JointCounts) Confusion) Confusion {
	var s Confusion
	for _, c := range cats {
		s = s.Plus(of(c.Counts))
	}
	return s
}

func fractionEqual(x []float64, v float64) float64 {
	n := 0
	for _, y := range x {
		if y == v {
			n++
		}
	}
	return float64(n) / float64(len(x))
}
