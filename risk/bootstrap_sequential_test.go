package risk

import (
	"math"
	"math/rand/v2"
	"testing"
)

// skewedDiffs draws n per-topic differences like rb04's challengers': mean
// mu, a skewed spread (a normal plus a scaled exponential, centred).
func skewedDiffs(r *rand.Rand, n int, mu float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = mu + 0.06*r.NormFloat64() + 0.05*(r.ExpFloat64()-1)
	}
	return x
}

// TestBCaBoundSequentialAgrees: on simulated risk-adjusted differences the
// sequential bound lies on the same side of the threshold as BCaMean's end
// from all B replicates, except where the full end is within Monte Carlo
// error of the threshold; a run that uses all B replicates returns BCaMean's
// end bit for bit. Thresholds are placed at the full end plus a multiple of
// its Monte Carlo SE (from the stage batches' spread, scaled to B), so that
// many decisions are close, as calibrate's near-boundary pools are.
func TestBCaBoundSequentialAgrees(t *testing.T) {
	t.Parallel()
	pools := 120
	if testing.Short() {
		// Each pool is about six bootstraps of B = 100,000 (the thresholds
		// near the end run to full length), and this test is the last one
		// standing when go test ./... ends: -short checks 90 decisions, the
		// full suite 1,080, with the same per-decision assertions.
		pools = 10
	}
	r := rand.New(rand.NewPCG(20, 1))
	o := BootstrapOptions{B: 100_000, Level: 0.95, Seed: 1}
	var early, far, farEarly, disagree, used int
	for i := range pools {
		x := skewedDiffs(r, 50, 0.04*r.Float64()-0.01)
		full, err := BCaMean(x, o)
		if err != nil {
			t.Fatal(err)
		}
		// The full end's MC SE, roughly: an end from B replicates of a mean of
		// SD s/√n moves by about s/√n · 2/√B at these levels.
		mcse := 2 * sd(x) / math.Sqrt(float64(len(x))) / math.Sqrt(float64(o.B))
		for _, k := range []float64{-1000, -30, -3, -0.5, 0, 0.5, 3, 30, 1000} {
			threshold := full.BCa.Lo + k*mcse
			s, err := BCaMeanBoundSequential(x, o, false, threshold)
			if err != nil {
				t.Fatal(err)
			}
			used += s.Replicates
			if math.Abs(k) >= 30 {
				far++
				if s.Early {
					farEarly++
				}
			}
			if s.Early {
				early++
			} else if s.Bound != full.BCa.Lo {
				t.Fatalf("pool %d: full-length sequential end %v, BCaMean %v", i, s.Bound, full.BCa.Lo)
			}
			if (s.Bound >= threshold) != (full.BCa.Lo >= threshold) {
				disagree++
				if math.Abs(full.BCa.Lo-threshold) > 4*mcse {
					t.Errorf("pool %d, threshold at %+g MCSE: sequential end %v (%d replicates, SE %.2g) and full %v on opposite sides",
						i, k, s.Bound, s.Replicates, s.SE, full.BCa.Lo)
				}
			}
		}
	}
	n := pools * 9
	t.Logf("%d decisions: %d early (%d of %d with the threshold 30 MCSE or more away), %d disagree (all within 4 MCSE of the threshold); %.0f replicates per decision on average against %d",
		n, early, farEarly, far, disagree, float64(used)/float64(n), o.B)
	if farEarly < far*95/100 {
		t.Errorf("only %d of %d decisions 30 MCSE or more from the threshold stopped early", farEarly, far)
	}
}
