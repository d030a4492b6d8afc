package bayes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/cputime"
	"github.com/riskgate/riskgate/internal/parallel"
)

// Agreement of sequential decisions with full-length ones, on pools
// simulated like rb04.csv (the decisions riskgate calibrate makes).
//
// The generating model is EstimatePoolModel of rb04.csv with the champion
// "Champion" and the challengers "Chal. 1".."Chal. 4"; pool i has the
// champion, one challenger of true effect seqEffects[i mod 13] and the 40
// artifacts over rb04's 50 topics, drawn from PCG(seqPoolSeed, i). Each pool
// gets three decisions, each from a full-length fit (4 chains, every ESS ≥
// 4000, P counted from the draws, as the gate decides today) and from a
// sequential fit (warm-started from a pilot fit, Sequential with the rule
// as its target, BRisk not described):
//
//	raw:   P(S_c − S_0 > 0) ≥ 0.95 on the raw pool
//	m=0:   P(S_c − S_0 < 0) ≤ 0.05 on the BRisk pool at w = 2
//	m=.02: P(S_c − S_0 < −0.02) ≤ 0.05 on the same BRisk pool
//
// A decision is pass, fail or inconclusive (the fit did not converge). The
// requirement (issue 20): every disagreement is a case whose full-length
// probability is within 4 of its MCSEs (posterior's mcse_mean of the
// indicator) of the bound. RISKGATE_AGREEMENT=n runs n pools (the issue's
// measurement: 1000); the normal suite runs seqShortPools (skipped under
// -short: about 20 s of CPU, the full-length fits' cost).
//
// Measured with RISKGATE_AGREEMENT=1000 (2 cores, load average 5–6):
// 3000 decisions, 14 disagreements, none with an unconverged fit; the
// farthest full-length probability from its bound was 2.7 MCSE. Raw
// P(better) ≥ 0.95: 997 agree, 3 disagree (0.7, 2.5, 1.5 MCSE); BRisk
// P(riskier, m = 0) ≤ 0.05: 994, 6 (0.6, 2.7, 0.7, 1.5, 0.9, 0.6); m = 0.02:
// 995, 5 (0.7, 0.3, 0.7, 0.4, 0.4). 99% of the sequential fits stopped
// early, after a median of about 400 draws per chain. CPU per pool (raw +
// BRisk): 334 ms full-length, 25 ms sequential.

const (
	seqPoolSeed   = 20
	seqShortPools = 50
	seqLossWeight = 2
)

var seqEffects = []float64{-0.02, -0.01, 0, 0.01, 0.02, 0.025, 0.03, 0.035, 0.04, 0.05, 0.06, 0.08, 0.1}

// seqSetting is the simulation: the generating model, the pools' systems
// (champion, challenger, artifacts) and topics.
type seqSetting struct {
	model          PoolModel
	systems, topic []string
}

func newSeqSetting(tb testing.TB) seqSetting {
	full := rb04(tb)
	champ, chals := rb04Challengers(tb, full)
	m, err := EstimatePoolModel(full, champ, chals)
	if err != nil {
		tb.Fatal(err)
	}
	s := seqSetting{model: m, systems: []string{"Champion", "Challenger"}, topic: full.Topics}
	for _, name := range full.Systems {
		if isArtifact(name) {
			s.systems = append(s.systems, name)
		}
	}
	return s
}

// pool draws pool i (stream PCG(seqPoolSeed, i)) at effect.
func (s seqSetting) pool(tb testing.TB, i int, effect float64) *Table {
	t, _, err := s.model.Simulate(rand.New(rand.NewPCG(seqPoolSeed, uint64(i))), effect, s.systems, s.topic)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// seqFullOptions are the full-length fit's settings: the policy defaults
// (4 chains, target ESS 4000, R̂ ≤ 1.01).
func seqFullOptions(seed uint64) HierOptions {
	return HierOptions{Sampler: mcmc.NUTSOptions{Chains: 4, Seed: seed}, TargetESS: 4000, RhatMax: 1.01, Workers: 1}
}

// seqOptions are the sequential fit's: the same, warm-started from ad, with
// targets.
func seqOptions(seed uint64, ad mcmc.Adaptation, targets []Target) HierOptions {
	o := seqFullOptions(seed)
	o.Sampler.WarmStart = &ad
	o.Sequential = &Sequential{Targets: targets}
	return o
}

// seqRule is one decision rule: P(S_1 − S_0 ≷ threshold) against bound.
type seqRule struct {
	name      string
	brisk     bool // on the BRisk pool at seqLossWeight, else the raw pool
	stat      TargetStat
	threshold float64
	bound     float64
}

var seqRules = []seqRule{
	{"raw P(better) >= 0.95", false, ProbAbove, 0, 0.95},
	{"BRisk w=2 P(riskier, m=0) <= 0.05", true, ProbBelow, 0, 0.05},
	{"BRisk w=2 P(riskier, m=0.02) <= 0.05", true, ProbBelow, -0.02, 0.05},
}

func (r seqRule) target() Target {
	return Target{Stat: r.stat, A: 1, B: 0, Threshold: r.threshold, Bounds: []float64{r.bound}}
}

// pass is the rule's verdict on a probability.
func (r seqRule) pass(p float64) bool {
	if r.stat == ProbAbove {
		return p >= r.bound
	}
	return p <= r.bound
}

// seqOutcome is one decision, full-length and sequential.
type seqOutcome struct {
	pool                 int
	effect               float64
	fullConv, seqConv    bool
	pFull, mcseFull      float64 // counted from the full-length draws
	rbFull               float64 // Rao–Blackwellised from the same draws
	pSeq, mcseSeq        float64
	seqDraws             int // per chain
	seqEarly             bool
	fullPass, seqPass    bool
	fullDraws, seqWarmup int
}

func (o seqOutcome) verdict(conv, pass bool) string {
	switch {
	case !conv:
		return "inconclusive"
	case pass:
		return "pass"
	}
	return "fail"
}

// countedProb is the share of draws of S_1 − S_0 beyond the rule's
// threshold and its MCSE, posterior's mcse_mean of the indicator.
func countedProb(f *HierFit, r seqRule) (float64, float64) {
	d := f.SystemDiffChains(1, 0)
	ind := make([][]float64, len(d))
	for m, c := range d {
		ind[m] = make([]float64, len(c))
		for i, v := range c {
			if (r.stat == ProbAbove && v > r.threshold) || (r.stat == ProbBelow && v < r.threshold) {
				ind[m][i] = 1
			}
		}
	}
	p := posterior.Mean(PoolChains(ind))
	return p, posterior.MCSEMean(ind)
}

// seqPilot is the warm start of each pool kind: the adaptation, after a
// full-length fit's warmup, of a fit of a pool at effect 0.04 drawn from its
// own stream. It is computed once per test binary (it is deterministic).
func seqPilot(tb testing.TB, s seqSetting) (raw, brisk mcmc.Adaptation) {
	seqPilotMu.Lock()
	defer seqPilotMu.Unlock()
	if seqPilotCache == nil {
		r, b := computeSeqPilot(tb, s)
		seqPilotCache = &[2]mcmc.Adaptation{r, b}
	}
	return seqPilotCache[0], seqPilotCache[1]
}

var (
	seqPilotMu    sync.Mutex
	seqPilotCache *[2]mcmc.Adaptation
)

// newSeqPilotStream is the pilot pool's stream, apart from every pool's.
func newSeqPilotStream() *rand.Rand { return rand.New(rand.NewPCG(seqPoolSeed, 1<<40)) }

func computeSeqPilot(tb testing.TB, s seqSetting) (raw, brisk mcmc.Adaptation) {
	p, _, err := s.model.Simulate(newSeqPilotStream(), 0.04, s.systems, s.topic)
	if err != nil {
		tb.Fatal(err)
	}
	// Only the adaptations are read, which the warmups fix: few draws.
	o := seqFullOptions(1)
	o.Sampler.Draws, o.TargetESS = 100, 1
	fr, err := FitHier(p, o)
	if err != nil {
		tb.Fatal(err)
	}
	br, err := BRisk(p, 0, seqLossWeight, BRiskOptions{Hier: o, Challengers: []int{1}})
	if err != nil {
		tb.Fatal(err)
	}
	return fr.Adaptation(), br.Fit.Adaptation()
}

func TestSequentialAgreesWithFullLength(t *testing.T) {
	n := seqShortPools
	if v := os.Getenv("RISKGATE_AGREEMENT"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("RISKGATE_AGREEMENT=%q: expected a number of pools ≥ 1", v)
		}
	} else {
		skipInShortMode(t, "sequential-decision agreement on 50 simulated pools (RISKGATE_AGREEMENT=1000 for the issue's measurement)")
	}
	s := newSeqSetting(t)
	adRaw, adBRisk := seqPilot(t, s)
	out := make([][]seqOutcome, n) // [pool][rule]
	pools := make([]*Table, n)
	for i := range pools {
		pools[i] = s.pool(t, i, seqEffects[i%len(seqEffects)])
		out[i] = make([]seqOutcome, len(seqRules))
	}
	var briskTargets []Target
	for _, r := range seqRules {
		if r.brisk {
			briskTargets = append(briskTargets, r.target())
		}
	}
	errs := make([]error, n)

	// Full-length fits, then sequential ones, each phase timed on its own.
	load0 := cputime.LoadAverageText()
	c0 := cputime.Process()
	parallel.For(n, 0, func() func(int) {
		return func(i int) {
			seed := uint64(1000 + i)
			fr, err := FitHier(pools[i], seqFullOptions(seed))
			if err != nil {
				errs[i] = err
				return
			}
			br, err := BRisk(pools[i], 0, seqLossWeight, BRiskOptions{Hier: seqFullOptions(seed), Challengers: []int{1}})
			if err != nil {
				errs[i] = err
				return
			}
			if _, err := br.Describe(); err != nil { // its topics at risk, as the full fits were timed
				errs[i] = err
				return
			}
			for k, r := range seqRules {
				f := fr
				if r.brisk {
					f = br.Fit
				}
				o := &out[i][k]
				o.pool, o.effect = i, seqEffects[i%len(seqEffects)]
				o.fullConv, o.fullDraws = f.Converged, f.Draws
				o.pFull, o.mcseFull = countedProb(f, r)
				o.fullPass = r.pass(o.pFull)
				e, err := f.EstimateTargets([]Target{r.target()}, 0)
				if err != nil {
					errs[i] = err
					return
				}
				o.rbFull = e[0].Value
			}
		}
	})
	cFull := cputime.Process() - c0
	c0 = cputime.Process()
	parallel.For(n, 0, func() func(int) {
		return func(i int) {
			seed := uint64(1000 + i)
			fr, err := FitHier(pools[i], seqOptions(seed, adRaw, []Target{seqRules[0].target()}))
			if err != nil {
				errs[i] = err
				return
			}
			br, err := BRisk(pools[i], 0, seqLossWeight, BRiskOptions{Hier: seqOptions(seed, adBRisk, briskTargets), Challengers: []int{1}})
			if err != nil {
				errs[i] = err
				return
			}
			j := 0
			for k, r := range seqRules {
				f, e := fr, fr.Targets[0]
				if r.brisk {
					f, e = br.Fit, br.Fit.Targets[j]
					j++
				}
				o := &out[i][k]
				o.seqConv, o.seqDraws, o.seqEarly = f.Converged, f.Draws, f.StoppedEarly
				o.seqWarmup = f.Sampler.Options.Warmup
				o.pSeq, o.mcseSeq = e.Value, e.MCSE
				o.seqPass = r.pass(e.Value)
			}
		}
	})
	cSeq := cputime.Process() - c0
	load1 := cputime.LoadAverageText()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("pool %d: %v", i, err)
		}
	}

	t.Logf("%d pools (rb04-like: 42 systems × 50 topics, effects %v), load average %s before, %s after", n, seqEffects, load0, load1)
	t.Logf("CPU per pool (raw fit + BRisk fit at w = 2): full-length %.1f ms, sequential %.1f ms (%.1f×)",
		cFull.Seconds()*1e3/float64(n), cSeq.Seconds()*1e3/float64(n), cFull.Seconds()/cSeq.Seconds())
	for k, r := range seqRules {
		var agree, passes, early, inconclusive int
		var draws []float64
		var dis []string
		for i := range out {
			o := out[i][k]
			full, seq := o.verdict(o.fullConv, o.fullPass), o.verdict(o.seqConv, o.seqPass)
			if full == "pass" {
				passes++
			}
			if o.seqEarly {
				early++
			}
			if !o.fullConv || !o.seqConv {
				inconclusive++
			}
			draws = append(draws, float64(o.seqDraws))
			if full == seq {
				agree++
				continue
			}
			z := (o.pFull - r.bound) / o.mcseFull
			dis = append(dis, fmt.Sprintf("pool %d (effect %g): full %s at P = %.4f ± %.4f (%+.1f MCSE from %g; Rao–Blackwellised %.4f), sequential %s at %.4f ± %.4f after %d draws per chain",
				o.pool, o.effect, full, o.pFull, o.mcseFull, z, r.bound, o.rbFull, seq, o.pSeq, o.mcseSeq, o.seqDraws))
			if !o.fullConv || !o.seqConv || !(math.Abs(z) <= 4) {
				t.Errorf("%s: a disagreement beyond 4 MCSE of the bound: %s", r.name, dis[len(dis)-1])
			}
		}
		slices.Sort(draws)
		t.Logf("%s: %d decisions, %d agree, %d disagree, %d full-length passes, %d with an unconverged fit; sequential fits stopped early in %d, median %.0f draws per chain (full-length: ESS ≥ 4000, ≥ 1400 draws per chain)",
			r.name, n, agree, len(dis), passes, inconclusive, early, draws[len(draws)/2])
		for _, d := range dis {
			t.Logf("  disagreement: %s", d)
		}
	}
}
