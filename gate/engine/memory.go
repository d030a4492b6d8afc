package engine

import (
	"fmt"
	"math"
	"slices"

	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// MemoryPart is one term of EstimateMemory's estimate.
type MemoryPart struct {
	What  string
	Bytes float64
}

// Constants of the estimate, measured on the development machine
// (docs/benchmarks.md): the 1,000 × 10,000 fit at target ESS 10,000 (3,500
// draws per chain) peaked at 1.33 GiB, its draws being 11,004 quantities × 4
// chains × 3,500 × 8 bytes = 1.23 GB.
const (
	memoryBase       = 100e6 // the runtime, the policy, the cheap analyses' small state
	cellBytes        = 8 * 3 // a table cell: the loaded table, the aligned one, the analysis copy
	drawHeadroom     = 1.25  // draws appended when a fit extends towards its target ESS
	effectBytes      = 256   // one summarised quantity kept in the result (result.Effect)
	reportCellBytes  = 400   // one cell of the champion or a challenger in the result and its reports (scores, predictions, text)
	bootstrapSamples = 100_000
)

// EstimateMemory estimates the peak memory, in bytes, of gating t with p
// beyond the loaded inputs: the table's copies; for each Bayesian fit (one
// at a time) its draws — every quantity (systems + topics + 4 hyper-
// parameters, + 1 for the skew normal) × chains × draws per chain, at the
// draws its target ESS asks for (max(1000, ⌈1.4·target_ess/chains⌉), as
// bayes.FitHier) with headroom for an extension — the posterior predictive
// replicates of one system (topics × all draws), and the Schur complement's
// matrices of an incomplete table; the summaries every fit keeps; the
// bootstrap replicates; and the result and its reports.
//
// It estimates the live heap; the budget is also the garbage collector's
// memory limit, which keeps the process near it. Measured (load 8–9): 100
// systems × 2,000 topics, the default policy, 2 challengers: estimate 318 MB;
// peak resident 545 MB under the default 4 GB limit (the collector's slack),
// 402 MB with --max-memory 400MB.
func EstimateMemory(p *policies.Policy, ts Tables, sweep []float64) (float64, []MemoryPart) {
	t := ts[0]
	systems, topics := float64(len(t.Systems)), float64(len(t.Topics))
	challengers := systems - 1
	if roles, err := p.Roles(t.Systems); err == nil {
		challengers = float64(len(roles.Challengers))
	}
	tables := float64(len(ts))
	parts := []MemoryPart{
		{"the runtime", memoryBase},
		{fmt.Sprintf("the score table (%s systems × %s topics)", numfmt.Thousands(int(systems)), numfmt.Thousands(int(topics))), systems * topics * cellBytes},
		{"the result and its reports", (challengers + 1) * topics * reportCellBytes},
	}
	if tables > 1 {
		parts[1] = MemoryPart{fmt.Sprintf("the score tables (%s measures × %s systems × %s topics)", numfmt.Thousands(len(ts)), numfmt.Thousands(int(systems)), numfmt.Thousands(int(topics))),
			tables * systems * topics * cellBytes}
	}
	// Every measure's fits: the raw-score fit when a Bayesian rule is on
	// it, BRisk at each loss weight of a rule on it, and — on the default
	// measure, whose fits the reports show — the risk sweep's.
	for _, a := range p.Needs() {
		if a == policies.AnalysisBCa || a == policies.AnalysisTests {
			parts = append(parts, MemoryPart{"the bootstrap replicates", challengers * bootstrapSamples * 8 * 2})
		}
	}
	fits := 0.0
	for _, m := range measureNeeds(p, ts) {
		if m.bayes {
			fits++
		}
		ws := m.brisk
		if m.measure == t.Measure && len(ws) > 0 {
			for _, w := range sweep {
				if !slices.Contains(ws, w) {
					ws = append(ws, w)
				}
			}
		}
		fits += float64(len(ws))
	}
	if fits > 0 {
		m := p.Model
		chains := float64(max(m.Chains, 1))
		draws := math.Max(1000, math.Ceil(1.4*float64(m.TargetESS)/chains))
		quantities := systems + topics + 4
		if m.Family == policies.SkewNormal {
			quantities++
		}
		parts = append(parts,
			MemoryPart{fmt.Sprintf("the draws of a hierarchical fit (%s quantities × %s chains × %s draws)", numfmt.Thousands(int(quantities)), numfmt.Thousands(int(chains)), numfmt.Thousands(int(draws))),
				quantities * chains * draws * 8 * drawHeadroom},
			MemoryPart{fmt.Sprintf("the predictive replicates (%s topics × %s draws)", numfmt.Thousands(int(topics)), numfmt.Thousands(int(chains*draws))), topics * chains * draws * 8},
			MemoryPart{fmt.Sprintf("the summaries of %s fits", numfmt.Thousands(int(fits))), fits * quantities * effectBytes},
		)
		if t.Missing() > 0 {
			n := math.Min(systems, topics) + 1
			parts = append(parts, MemoryPart{"the Schur complements of an incomplete table", 4 * n * n * 8 * chains})
		}
	}
	total := 0.0
	for _, part := range parts {
		total += part.Bytes
	}
	return total, parts
}

// measureNeed is what the rules on one measure fit and bootstrap.
type measureNeed struct {
	measure string
	bayes   bool      // the raw-score fit
	brisk   []float64 // BRisk's loss weights
}

// measureNeeds lists, per measure of ts that a query reads (the default
// measure's first), what its rules need.
func measureNeeds(p *policies.Policy, ts Tables) []measureNeed {
	var out []measureNeed
	at := map[string]int{}
	for _, q := range p.Queries() {
		m := q.Measure
		if m == "" {
			m = ts[0].Measure
		}
		i, ok := at[m]
		if !ok {
			i, at[m] = len(out), len(out)
			out = append(out, measureNeed{measure: m})
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
