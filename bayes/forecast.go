package bayes

import (
	"fmt"
	"math/rand/v2"

	"github.com/riskgate/riskgate/bayes/posterior"
)

// forecastStream offsets the PCG stream of posterior predictive draws, so
// that they never share a stream with a sampler chain (streams 0, 1, …).
const forecastStream = 1 << 40

// replicates returns system s's posterior predictive replicates,
// out[t][d] = y_rep[s, t] at pooled draw d (chains in order): for each draw,
// μ = β0 + T_t + S_s and y_rep drawn from the family with that draw's σ (and
// α). Topic by topic within a draw, from the source PCG(seed,
// forecastStream + s), so that a system's replicates do not depend on which
// other systems are forecast.
func (f *HierFit) replicates(s int, seed uint64) [][]float64 {
	r := rand.New(rand.NewPCG(seed, forecastStream+uint64(s)))
	nT := len(f.Topics)
	S := f.Chains * f.Draws
	out := make([][]float64, nT)
	for t := range out {
		out[t] = make([]float64, S)
	}
	d := f.Sampler.Draws
	_, gaussian := f.Family.(Gaussian)
	gaussian = gaussian || f.Family == nil
	extra := make([]float64, 0, 1)
	k := 0
	for m := range f.Chains {
		for i := range f.Draws {
			base := d[IdxIntercept][m][i] + d[f.SystemIndex(s)][m][i]
			sigma := d[IdxSigma][m][i]
			if !gaussian {
				extra = extra[:0]
				for j := range f.Family.Params() {
					extra = append(extra, d[f.FamilyIndex(j)][m][i])
				}
			}
			for t := range nT {
				mu := base + d[f.TopicIndex(t)][m][i]
				if gaussian {
					out[t][k] = mu + sigma*r.NormFloat64()
				} else {
					out[t][k] = f.Family.Rand(r, mu, sigma, extra)
				}
			}
			k++
		}
	}
	return out
}

// Replicates are one system's posterior predictive replicates at one
// seed, Cells[t][d] = y_rep[System, t] at pooled draw d (chains in order):
// those Forecast and TopicRisks draw, for a caller that reads several
// intervals of them (a forecast and topics at risk at several levels)
// without drawing them again. Its methods leave Cells unchanged.
type Replicates struct {
	System int
	Seed   uint64
	Cells  [][]float64
	fit    *HierFit
}

// Replicates draws system s's posterior predictive replicates from the
// source PCG(seed, forecastStream + s), as Forecast and TopicRisks do.
func (f *HierFit) Replicates(s int, seed uint64) (*Replicates, error) {
	if s < 0 || s >= len(f.Systems) {
		return nil, fmt.Errorf("system index %d out of range", s)
	}
	return &Replicates{System: s, Seed: seed, Cells: f.replicates(s, seed), fit: f}, nil
}

// Intervals are the central level posterior predictive intervals of r's
// cells, with their observed scores in t (the table the model was fitted
// to): Forecast's row of r's system.
func (r *Replicates) Intervals(t *Table, level float64) ([]Prediction, error) {
	if err := r.fit.checkForecast(t, level); err != nil {
		return nil, err
	}
	lo, hi := tailProbs(level)
	row := make([]Prediction, len(r.Cells))
	x := make([]float64, r.fit.Chains*r.fit.Draws)
	for j := range row {
		copy(x, r.Cells[j])
		q := posterior.QuantilesInPlace(x, lo, hi)
		row[j] = Prediction{Observed: t.Scores[r.System][j], Lo: q[0], Hi: q[1]}
	}
	return row, nil
}

// TopicRisks are HierFit.TopicRisks of r's system against the champion's
// replicates (of the same fit and seed) at each of levels: out[l] at
// levels[l], from the differences of the replicates formed once per topic.
func (r *Replicates) TopicRisks(t *Table, champion *Replicates, levels []float64) ([][]TopicRisk, error) {
	f, s, c := r.fit, r.System, champion.System
	if champion.fit != f || champion.Seed != r.Seed || s == c {
		return nil, fmt.Errorf("systems %d and %d: want the replicates of two different systems of one fit at one seed", s, c)
	}
	probs := make([]float64, 0, 2*len(levels))
	for _, l := range levels {
		if err := f.checkForecast(t, l); err != nil {
			return nil, err
		}
		lo, hi := tailProbs(l)
		probs = append(probs, lo, hi)
	}
	out := make([][]TopicRisk, len(levels))
	for l := range out {
		out[l] = make([]TopicRisk, len(f.Topics))
	}
	d := make([]float64, f.Chains*f.Draws)
	for j := range f.Topics {
		for k, v := range champion.Cells[j] {
			d[k] = r.Cells[j][k] - v
		}
		q := posterior.QuantilesInPlace(d, probs...)
		obs := t.Scores[s][j] - t.Scores[c][j]
		for l := range levels {
			lo, hi := q[2*l], q[2*l+1]
			out[l][j] = TopicRisk{Index: j, Topic: f.Topics[j], Observed: obs, Lo: lo, Hi: hi, AtRisk: obs < lo}
		}
	}
	return out, nil
}

// Forecast is the posterior predictive interval of every cell of some systems.
type Forecast struct {
	Level   float64
	Systems []int          // the forecast systems, rows of Cells
	Cells   [][]Prediction // Cells[i][t]: system Systems[i] on topic t
}

// Prediction is a cell's observed score (NaN if missing) and its central
// posterior predictive interval.
type Prediction struct {
	Observed, Lo, Hi float64
}

// Forecast returns the central level posterior predictive intervals of
// every (system, topic) cell of the listed systems (nil: all) against the
// scores of t (the table the model was fitted to), from one replicate per
// posterior draw (Benham et al. 2020, Figures 3 and 8). Deterministic for a
// seed; system s's replicates are the ones TopicRisks uses.
func (f *HierFit) Forecast(t *Table, systems []int, level float64, seed uint64) (*Forecast, error) {
	if err := f.checkForecast(t, level); err != nil {
		return nil, err
	}
	if systems == nil {
		for s := range f.Systems {
			systems = append(systems, s)
		}
	}
	fc := &Forecast{Level: level, Systems: systems}
	for _, s := range systems {
		rep, err := f.Replicates(s, seed)
		if err != nil {
			return nil, err
		}
		row, err := rep.Intervals(t, level)
		if err != nil {
			return nil, err
		}
		fc.Cells = append(fc.Cells, row)
	}
	return fc, nil
}

// TopicRisk is a system's difference to the champion on one topic, with the
// central posterior predictive interval of that difference.
type TopicRisk struct {
	Index    int     // topic index
	Topic    string  // topic name
	Observed float64 // y[s,t] − y[champion,t] in the fitted table (d_w in a BRisk pool); NaN if a cell is missing
	Lo, Hi   float64 // predictive interval of y_rep[s,t] − y_rep[champion,t]
	AtRisk   bool    // Observed < Lo: a regression the model did not expect
}

// TopicRisks compares system s's per-topic differences to the champion in t
// (the table the model was fitted to) with their posterior predictive
// distribution: at every posterior draw both cells are replicated (as in
// Forecast) and differenced, and the central level interval of those
// differences is the topic's forecast. A topic is at risk when its observed
// difference lies below the interval's lower end (for the BRisk pool at loss
// weight w the observed difference is the risk-adjusted d_w; w = 1 is the
// plain difference).
//
// In the hierarchical model the topic effect cancels from the difference, so
// every topic shares one predictive distribution, S_s − S_champion plus the
// difference of two errors; the per-topic intervals differ only by Monte
// Carlo error.
func (f *HierFit) TopicRisks(t *Table, champion, s int, level float64, seed uint64) ([]TopicRisk, error) {
	if err := f.checkForecast(t, level); err != nil {
		return nil, err
	}
	if champion < 0 || champion >= len(f.Systems) || s < 0 || s >= len(f.Systems) || s == champion {
		return nil, fmt.Errorf("systems %d and %d: want two different systems of the fit", s, champion)
	}
	ys := &Replicates{System: s, Seed: seed, Cells: f.replicates(s, seed), fit: f}
	yc := &Replicates{System: champion, Seed: seed, Cells: f.replicates(champion, seed), fit: f}
	out, err := ys.TopicRisks(t, yc, []float64{level})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func (f *HierFit) checkForecast(t *Table, level float64) error {
	if err := checkLevel(level); err != nil {
		return err
	}
	if len(t.Systems) != len(f.Systems) || len(t.Topics) != len(f.Topics) || len(t.Scores) != len(f.Systems) {
		return fmt.Errorf("the table (%d systems × %d topics) is not the fitted one (%d × %d)",
			len(t.Systems), len(t.Topics), len(f.Systems), len(f.Topics))
	}
	return nil
}
