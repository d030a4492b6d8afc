package bayes

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// PoolModel.Truth against a direct Monte Carlo of the generating model: the
// challenger's mean and risk-adjusted differences to the champion over
// 4,000 simulated pools of 50 topics (each pool with its own champion effect
// and shift, exactly as calibrate draws them), within 4 Monte Carlo standard
// errors of the pools' means, for steadier and riskier challengers, at loss
// weights 1, 2 and 5. Truth's MeanDiff must also equal the effect
// LatentShift was solved for (1e-6). With -short, 800 pools and two of the
// five cases, a steadier and a riskier challenger (the others take Truth's
// same path, at other parameters).
func TestTruthAgainstMonteCarlo(t *testing.T) {
	t.Parallel()
	m := PoolModel{Intercept: 0.25, Sigma: 0.11, SDTopic: 0.17, SDSystem: 0.05, DiffSD: 0.095, DiffSkew: -0.6}
	systems := []string{"champion", "challenger", "artifact"}
	topics := make([]string, 50)
	for j := range topics {
		topics[j] = string(rune('a'+j%26)) + string(rune('a'+j/26))
	}
	pools := 4000
	cases := []struct{ effect, risk float64 }{{0.05, 1}, {0.05, 2}, {0, 0.5}, {-0.02, 1.5}, {0.10, 1}}
	if testing.Short() {
		pools, cases = 800, []struct{ effect, risk float64 }{cases[1], cases[2]}
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("effect=%g/risk=%g", c.effect, c.risk), func(t *testing.T) {
			t.Parallel()
			truthAgainstMonteCarlo(t, m, c.effect, c.risk, pools, systems, topics)
		})
	}
}

// truthAgainstMonteCarlo is one case of TestTruthAgainstMonteCarlo.
func truthAgainstMonteCarlo(t *testing.T, m PoolModel, effect, risk float64, pools int, systems, topics []string) {
	mk := m.WithRisk(risk)
	r := rand.New(rand.NewPCG(99, uint64(1000*risk)+uint64(1000*(effect+1))))
	// Per pool, the mean over its topics of d and of r_w(d) (w = 1, 2, 5):
	// the pools are independent, their topics are not (they share the
	// champion's effect and the shift), so the standard error is that of
	// the pools' means.
	sums := make([]struct{ s, ss float64 }, 4)
	for range pools {
		pool, _, err := mk.Simulate(r, effect, systems, topics)
		if err != nil {
			t.Fatal(err)
		}
		var pm [4]float64
		for j := range topics {
			d := pool.Scores[1][j] - pool.Scores[0][j]
			for k, w := range []float64{1, 1, 2, 5} {
				if d < 0 {
					pm[k] += w * d
				} else {
					pm[k] += d
				}
			}
		}
		for k := range pm {
			v := pm[k] / float64(len(topics))
			sums[k].s += v
			sums[k].ss += v * v
		}
	}
	for k, w := range []float64{1, 1, 2, 5} {
		mean := sums[k].s / float64(pools)
		se := math.Sqrt((sums[k].ss/float64(pools) - mean*mean) / float64(pools-1))
		md, rd, err := mk.Truth(context.Background(), effect, w)
		if err != nil {
			t.Fatal(err)
		}
		want := rd
		if k == 0 {
			want = md
			if math.Abs(md-effect) > 1e-6 {
				t.Errorf("effect %g risk %g: Truth's mean difference %.8f, want the effect", effect, risk, md)
			}
		}
		if math.Abs(mean-want) > 4*se {
			t.Errorf("effect %g risk %g w %g: Monte Carlo %.5f ± %.5f, Truth %.5f", effect, risk, w, mean, se, want)
		}
		t.Logf("effect %+.2f risk %.1f w %g: Monte Carlo %.5f ± %.5f, Truth %.5f (%+.1f SE)", effect, risk, w, mean, se, want, (mean-want)/se)
	}
}

// BenchmarkTruth is one calibrate cell's truth (TestTruthAgainstMonteCarlo's
// model, a riskier challenger, w = 2): the quadrature calibrate runs for
// every cell of its grid before anything else.
func BenchmarkTruth(b *testing.B) {
	m := PoolModel{Intercept: 0.25, Sigma: 0.11, SDTopic: 0.17, SDSystem: 0.05, DiffSD: 0.095, DiffSkew: -0.6}.WithRisk(2)
	for b.Loop() {
		if _, _, err := m.Truth(context.Background(), 0.05, 2); err != nil {
			b.Fatal(err)
		}
	}
}
