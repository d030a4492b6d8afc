package gate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// defaultMaxMemory is --max-memory's default: a GitHub-hosted Linux runner
// has 16 GB shared with the job's other steps; 4 GB leaves room.
const defaultMaxMemory = "4GB"

// parseMemory parses a size: a number with an optional unit B, kB/KB, MB,
// GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024).
func parseMemory(flag, s string) (float64, error) {
	text := strings.TrimSpace(s)
	i := strings.IndexFunc(text, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := text, ""
	if i >= 0 {
		num, unit = text[:i], strings.TrimSpace(text[i:])
	}
	scale := map[string]float64{"": 1, "B": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
		"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}
	f, ok := scale[unit]
	v, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s %q: expected a size such as 4GB, 512MB or 8GiB", flag, s)
	}
	return v * f, nil
}

// formatMemory spells a size in GB or MB, as --max-memory takes it.
func formatMemory(b float64) string {
	if b >= 1e9 {
		return numfmt.G(math.Round(b/1e8)/10) + " GB"
	}
	return numfmt.G(math.Ceil(b/1e6)) + " MB"
}

// memoryPart is one term of the estimate.
type memoryPart struct {
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

// gateMemory estimates the peak memory, in bytes, of gating t with p
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
func gateMemory(p *policies.Policy, t *scores.Table, sweep []float64) (float64, []memoryPart) {
	systems, topics := float64(len(t.Systems)), float64(len(t.Topics))
	challengers := systems - 1
	if roles, err := p.Roles(t.Systems); err == nil {
		challengers = float64(len(roles.Challengers))
	}
	parts := []memoryPart{
		{"the runtime", memoryBase},
		{fmt.Sprintf("the score table (%s systems × %s topics)", count(systems), count(topics)), systems * topics * cellBytes},
		{"the result and its reports", (challengers + 1) * topics * reportCellBytes},
	}
	needs := p.Needs()
	fits := 0.0
	for _, a := range needs {
		switch a {
		case policies.AnalysisBayes:
			fits++
		case policies.AnalysisBRisk:
			ws := p.BRiskWeights()
			for _, w := range sweep {
				if !containsFloat(ws, w) {
					ws = append(ws, w)
				}
			}
			fits += float64(len(ws))
		case policies.AnalysisBCa, policies.AnalysisTests:
			parts = append(parts, memoryPart{"the bootstrap replicates", challengers * bootstrapSamples * 8 * 2})
		}
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
			memoryPart{fmt.Sprintf("the draws of a hierarchical fit (%s quantities × %s chains × %s draws)", count(quantities), count(chains), count(draws)),
				quantities * chains * draws * 8 * drawHeadroom},
			memoryPart{fmt.Sprintf("the predictive replicates (%s topics × %s draws)", count(topics), count(chains*draws)), topics * chains * draws * 8},
			memoryPart{fmt.Sprintf("the summaries of %s fits", count(fits)), fits * quantities * effectBytes},
		)
		if t.Missing() > 0 {
			n := math.Min(systems, topics) + 1
			parts = append(parts, memoryPart{"the Schur complements of an incomplete table", 4 * n * n * 8 * chains})
		}
	}
	total := 0.0
	for _, part := range parts {
		total += part.Bytes
	}
	return total, parts
}

func containsFloat(xs []float64, x float64) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// count spells a whole number with thousands separators.
func count(x float64) string {
	s := strconv.FormatFloat(x, 'f', 0, 64)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// checkMemory refuses, before any heavy work, a gate whose estimate is over
// limit: one line naming the estimate and its largest part, the limit and
// the flag.
func checkMemory(p *policies.Policy, t *scores.Table, sweep []float64, limit float64) error {
	total, parts := gateMemory(p, t, sweep)
	if total <= limit {
		return nil
	}
	largest := parts[0]
	for _, part := range parts {
		if part.Bytes > largest.Bytes {
			largest = part
		}
	}
	return fmt.Errorf("this gate would need about %s of memory (mostly %s: %s), over the limit of %s; raise the limit with --max-memory, or gate fewer topics or systems",
		formatMemory(total), largest.What, formatMemory(largest.Bytes), formatMemory(limit))
}
