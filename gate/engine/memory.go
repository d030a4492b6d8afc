package engine

import (
	"fmt"
	"math"
	"slices"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// MemoryPart is one term of EstimateMemory's estimate.
type MemoryPart struct {
	What  string
	Bytes float64
}

// Constants of the estimates, measured on the development machine
// (docs/benchmarks.md, "Memory"): the 1,000 × 10,000 fit at target ESS
// 10,000 (3,500 draws per chain) peaked at 1.33 GiB, its draws being
// 11,004 quantities × 4 chains × 3,500 × 8 bytes = 1.23 GB; the gate's live
// heap per kept fit, per cell and per challenger by heap profiles.
const (
	// RuntimeMemory is the runtime and the binary, the policy, the cheap
	// analyses' small state.
	RuntimeMemory = 60e6
	// UnmanagedMemory is the part of the resident memory the garbage
	// collector's limit does not count: the executable's pages (riskgate
	// --version peaks at 15–17 MB resident).
	UnmanagedMemory = 20e6
	cellBytes       = 8 * 3 // a table cell: the loaded table, the aligned one, the analysis copy
	drawHeadroom    = 1.25  // draws appended when a fit extends towards its target ESS
	effectBytes     = 256   // one summarised quantity kept in the result (result.Effect)
	predictionBytes = 160   // one cell's predictive interval kept in a fit's result (result.Prediction, its slice's growth)
	reportCellBytes = 400   // one cell of the champion or a challenger in the result and its reports (scores, predictions, text)
)

// EstimateMemory estimates the peak memory, in bytes, of gating ts (one table
// per measure, the default first) with p,
// its inputs' loading included: the runtime; the table's copies, and the
// loaders' state per cell (scores.LoadCellBytes) while it was read; the
// result and its reports; and the analyses (analysisParts): the bootstrap
// replicates, and for the Bayesian fits — every fit the rules need and every
// --risk-sweep weight's — the draws of the rules' fits and of one more, and
// what each fit keeps to the end.
//
// It is an estimate of the resident memory, not of the live heap alone: the
// gate makes it the garbage collector's memory limit (with --max-memory
// above it), which keeps the process within it. Measured against the peak
// resident memory of six gate and calibrate runs in docs/benchmarks.md
// ("Memory": each estimate at least the peak, at most 3 times it).
//
// With runs scored against qrels (rankings not nil), the needs-judgments
// step adds the runs' rankings and the analyses under the two other
// assumptions about unjudged documents (judgmentsParts).
//
// The by: rules' segment fits (segfit.go) count with the number of
// segments of their dimension among the table's topics, from the topic
// attributes a (nil without a topics file).
func EstimateMemory(p *policies.Policy, ts Tables, sweep []float64, rankings *scores.Rankings, a *scores.TopicAttributes) (float64, []MemoryPart) {
	t := ts[0]
	systems, topics := len(t.Systems), len(t.Topics)
	challengers := systems - 1
	if roles, err := p.Roles(t.Systems); err == nil {
		challengers = len(roles.Challengers)
	}
	cells := float64(systems) * float64(topics)
	measures := float64(len(ts))
	table := fmt.Sprintf("the score table (%s systems × %s topics)", numfmt.Thousands(systems), numfmt.Thousands(topics))
	if len(ts) > 1 {
		table = fmt.Sprintf("the score tables (%s measures × %s systems × %s topics)", numfmt.Thousands(len(ts)), numfmt.Thousands(systems), numfmt.Thousands(topics))
	}
	parts := []MemoryPart{
		{"the runtime", RuntimeMemory},
		{table, measures * cells * cellBytes},
		{"loading the inputs", measures * cells * scores.LoadCellBytes},
		{"the result and its reports", float64(challengers+1) * float64(topics) * reportCellBytes},
	}
	parts = append(parts, analysisParts(p, measureNeeds(p, t.Measure), t.Measure, systems, topics, challengers, t.Missing() > 0, sweep, true)...)
	parts = append(parts, segmentParts(p, systems, topics, challengers, segmentCounter(t, a))...)
	if rankings != nil {
		parts = append(parts, judgmentsParts(p, ts, challengers, rankings)...)
	}
	return sum(parts), parts
}

// EstimateDecideMemory estimates the memory, in bytes, of one decision
// (Decide) by p of a complete pool of systems × topics with that many
// challengers, beyond the runtime (riskgate calibrate's pools):
// the pool, the bootstrap replicates, and every fit whole (a decision keeps
// its fits' draws, which its sequential stopping reads) — a by: rule's
// segment fit at its largest, a segment per topic, as the pool's segments
// are not known here.
func EstimateDecideMemory(p *policies.Policy, systems, topics, challengers int) (float64, []MemoryPart) {
	parts := []MemoryPart{{fmt.Sprintf("a pool (%s systems × %s topics)", numfmt.Thousands(systems), numfmt.Thousands(topics)), float64(systems) * float64(topics) * cellBytes}}
	parts = append(parts, analysisParts(p, measureNeeds(p, ""), "", systems, topics, challengers, false, nil, false)...)
	parts = append(parts, segmentParts(p, systems, topics, challengers, func(string) int { return topics })...)
	return sum(parts), parts
}

// analysisParts are the memory of p's analyses of systems × topics with
// that many challengers: the bootstrap replicates of BCa and the
// resampling tests; per Bayesian fit — the raw-score fit, BRisk at each
// weight the rules use and, for the reports, at each sweep weight — its
// draws: every quantity (systems + topics + 4 hyperparameters, + 1 for the
// skew normal) × chains × draws per chain, at the draws its target ESS asks
// for (max(1000, ⌈1.4·target_ess/chains⌉), as bayes.FitHier) with headroom
// for an extension; and the Schur complements' matrices of an incomplete
// table. A run for the reports keeps the rules' fits whole until its result
// describes them, and a sweep fit until it is described, right after it is
// made (slice.release); it keeps of each fit to the end its summaries, every challenger's δ draws and the predictive intervals of the
// champion's and the challengers' cells (with, after each fit, the
// predictive replicates of two systems: the champion's are kept while
// each challenger's are drawn and read, fitted.predict); a
// decision keeps every fit whole.
func analysisParts(p *policies.Policy, needs []measureNeed, defaultMeasure string, systems, topics, challengers int, incomplete bool, sweep []float64, report bool) []MemoryPart {
	var parts []MemoryPart
	bootstrap := false
	for _, a := range p.Needs() {
		if a == policies.AnalysisBCa || a == policies.AnalysisTests {
			bootstrap = true
		}
	}
	// Every measure's fits: the raw-score fit when a Bayesian rule is on
	// it, BRisk at each loss weight of a rule on it, and — on the default
	// measure, whose fits the reports show — the risk sweep's.
	fits, ruleFits := 0, 0
	for _, m := range needs {
		if m.bayes {
			fits++
			ruleFits++
		}
		ws := slices.Clone(m.brisk)
		ruleFits += len(ws)
		if report && m.measure == defaultMeasure && len(ws) > 0 {
			for _, w := range sweep {
				if !slices.Contains(ws, w) {
					ws = append(ws, w)
				}
			}
		}
		fits += len(ws)
	}
	if bootstrap {
		parts = append(parts, MemoryPart{"the bootstrap replicates", float64(challengers) * float64(gateBootstrapSamples) * 8 * 2})
	}
	if fits == 0 {
		return parts
	}
	m := p.Model
	chains := float64(max(m.Chains, 1))
	draws := math.Max(1000, math.Ceil(1.4*float64(m.TargetESS)/chains))
	quantities := float64(systems + topics + 4)
	if m.Family == policies.SkewNormal {
		quantities++
	}
	drawBytes := quantities * chains * draws * 8 * drawHeadroom
	what := fmt.Sprintf("(%s quantities × %s chains × %s draws)", numfmt.Thousands(int(quantities)), numfmt.Thousands(int(chains)), numfmt.Thousands(int(draws)))
	if report {
		// The rules' fits are whole until the result describes them; a
		// fit only the reports need (the sweep's) is described, and its
		// draws dropped, as soon as it is made.
		whole := min(fits, ruleFits+1)
		n := "1 hierarchical fit"
		if whole > 1 {
			n = numfmt.Thousands(whole) + " hierarchical fits"
		}
		kept := quantities*effectBytes + float64(challengers)*chains*draws*8 + float64(challengers+1)*float64(topics)*predictionBytes
		parts = append(parts,
			MemoryPart{fmt.Sprintf("the draws of %s at once %s", n, what), float64(whole) * drawBytes},
			MemoryPart{fmt.Sprintf("the predictive replicates (2 systems × %s topics × %s draws)", numfmt.Thousands(topics), numfmt.Thousands(int(chains*draws))), 2 * float64(topics) * chains * draws * 8},
			MemoryPart{fmt.Sprintf("what %s fits keep (summaries, δ draws, predictive intervals)", numfmt.Thousands(fits)), float64(fits) * kept},
		)
	} else {
		n := "1 hierarchical fit"
		if fits > 1 {
			n = numfmt.Thousands(fits) + " hierarchical fits"
		}
		parts = append(parts, MemoryPart{fmt.Sprintf("the draws of %s %s", n, what), float64(fits) * drawBytes})
	}
	if incomplete {
		n := float64(min(systems, topics) + 1)
		parts = append(parts, MemoryPart{"the Schur complements of an incomplete table", 4 * n * n * 8 * chains})
	}
	return parts
}

func sum(parts []MemoryPart) float64 {
	total := 0.0
	for _, part := range parts {
		total += part.Bytes
	}
	return total
}

// measureNeed is what the rules on one measure fit.
type measureNeed struct {
	measure string
	bayes   bool      // the raw-score fit
	brisk   []float64 // BRisk's loss weights
}

// measureNeeds lists, per measure a query of p reads (a query without one
// reads defaultMeasure), what its rules fit.
func measureNeeds(p *policies.Policy, defaultMeasure string) []measureNeed {
	var out []measureNeed
	at := map[string]int{}
	for _, q := range p.Queries() {
		m := q.Measure
		if m == "" {
			m = defaultMeasure
		}
		i, ok := at[m]
		if !ok {
			i, at[m] = len(out), len(out)
			out = append(out, measureNeed{measure: m})
		}
		if q.By != "" && pooled(q) {
			continue // the segment model's fit: segmentParts
		}
		switch q.Analysis() {
		case policies.AnalysisBayes:
			out[i].bayes = true
		case policies.AnalysisBRisk:
			if !slices.Contains(out[i].brisk, q.LossWeight) {
				out[i].brisk = append(out[i].brisk, q.LossWeight)
			}
		}
	}
	return out
}

// rankedDocBytes is one ranked document the needs-judgments step keeps
// (scores.Rankings): its docno's string header and bytes, its label, and
// the slice growth — measured on robust03's three runs (300,000 documents):
// the default policy's peak resident memory grew by 10 MB with the step.
const rankedDocBytes = 64

// judgmentsParts are what the needs-judgments step adds to EstimateMemory's
// estimate when the inputs are runs scored against qrels: the runs'
// rankings r, kept to the end, and the analyses of p under the two other
// assumptions about unjudged documents (condensed and optimistic), each as
// large as the standard one's — an upper bound, since a measure the
// challengers have no unjudged document of is analysed once.
func judgmentsParts(p *policies.Policy, ts Tables, challengers int, r *scores.Rankings) []MemoryPart {
	docs := 0
	for _, topics := range r.Topics {
		for _, tl := range topics {
			docs += len(tl.Docs)
		}
	}
	t := ts[0]
	systems, topics := len(t.Systems), len(t.Topics)
	analyses := float64(len(ts)) * float64(systems) * float64(topics) * cellBytes // each variant's tables
	analyses += sum(analysisParts(p, measureNeeds(p, t.Measure), t.Measure, systems, topics, challengers, t.Missing() > 0, nil, false))
	return []MemoryPart{
		{fmt.Sprintf("the runs' rankings (%s documents)", numfmt.Thousands(docs)), float64(docs) * rankedDocBytes},
		{"the analyses under the condensed and optimistic assumptions (needs judgments)", 2 * analyses},
	}
}

// segmentCounter counts the segments of a dimension among t's topics in
// the topic attributes a (every topic its own when a does not give it).
func segmentCounter(t *scores.Table, a *scores.TopicAttributes) func(string) int {
	return func(d string) int {
		if a == nil || a.Segment[d] == nil {
			return len(t.Topics)
		}
		seen := map[string]bool{}
		for _, topic := range t.Topics {
			g, ok := a.Segment[d][topic]
			if !ok {
				g = scores.Unsegmented
			}
			seen[g] = true
		}
		return len(seen)
	}
}

// segmentParts are the memory of the by: rules' segment fits (segfit.go),
// one per measure, dimension and loss weight, each kept whole to the end
// (the result's segment table reads it): every quantity (systems + topics
// + 5 + systems × segments) × chains × draws, at the draws of the policy's
// target ESS with headroom for an extension, and each challenger's δ_g
// draws in every segment.
func segmentParts(p *policies.Policy, systems, topics, challengers int, segments func(dimension string) int) []MemoryPart {
	type fitKey struct {
		measure, dimension string
		w                  float64
	}
	var fits []fitKey
	for _, q := range p.Queries() {
		if q.By == "" || !pooled(q) {
			continue
		}
		k := fitKey{q.Measure, q.By, 0}
		if q.Analysis() == policies.AnalysisBRisk {
			k.w = q.LossWeight
		}
		if !slices.Contains(fits, k) {
			fits = append(fits, k)
		}
	}
	if len(fits) == 0 {
		return nil
	}
	m := p.Model
	chains := float64(max(m.Chains, 1))
	draws := math.Max(1000, math.Ceil(1.4*float64(m.TargetESS)/chains))
	bytes, quantities := 0.0, 0
	for _, f := range fits {
		g := segments(f.dimension)
		q := systems + topics + 5 + systems*g
		quantities += q
		bytes += float64(q)*chains*draws*8*drawHeadroom + float64(challengers*g)*chains*draws*8
	}
	n := "1 segment fit"
	if len(fits) > 1 {
		n = numfmt.Thousands(len(fits)) + " segment fits"
	}
	return []MemoryPart{{fmt.Sprintf("the draws of %s (%s quantities × %s chains × %s draws, and the δ_g draws)", n,
		numfmt.Thousands(quantities), numfmt.Thousands(int(chains)), numfmt.Thousands(int(draws))), bytes}}
}
