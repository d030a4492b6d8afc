package risk

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The critical values agree with the tests they come from: the same P, bit
// for bit, and P < α exactly when the observed statistic is above c — for
// every pair of random systems, at several α and B.
func TestCriticalValuesAgreeWithASL(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 11))
	sys := make(Systems, 8)
	for i := range sys {
		sys[i] = make([]float64, 30)
		for j := range sys[i] {
			sys[i][j] = r.Float64() + 0.03*float64(i)
		}
	}
	for _, c := range []struct {
		b     int
		alpha float64
	}{{1000, 0.05}, {999, 0.05}, {500, 0.01}, {200, 0.1}} {
		tk, err := sys.RandomizedTukeyHSD(c.b, 3)
		if err != nil {
			t.Fatal(err)
		}
		tc, crit, err := sys.RandomizedTukeyHSDCritical(c.b, 3, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		for k, pr := range tc.Pairs {
			if pr.P != tk.Pairs[k].P {
				t.Fatalf("Tukey P differs: %v vs %v", pr.P, tk.Pairs[k].P)
			}
			if (pr.P < c.alpha) != (math.Abs(pr.Diff) > crit) {
				t.Errorf("Tukey B=%d α=%v pair %d-%d: P %v, |diff| %v, critical %v", c.b, c.alpha, pr.A, pr.B, pr.P, math.Abs(pr.Diff), crit)
			}
		}
		for i := range sys {
			for j := i + 1; j < len(sys); j++ {
				p := Pair{X: sys[j], Base: sys[i]}
				sb, err := p.StudentizedBootstrap(c.b, 5)
				if err != nil {
					t.Fatal(err)
				}
				sc, crit, err := p.StudentizedBootstrapCritical(c.b, 5, c.alpha)
				if err != nil {
					t.Fatal(err)
				}
				if sc.P != sb.P || sc.T != sb.T {
					t.Fatalf("bootstrap P %v vs %v", sc.P, sb.P)
				}
				if (sc.P < c.alpha) != (math.Abs(sc.T) > crit) {
					t.Errorf("bootstrap B=%d α=%v pair %d-%d: ASL %v, |t| %v, critical %v", c.b, c.alpha, i, j, sc.P, math.Abs(sc.T), crit)
				}
			}
		}
	}
	if _, _, err := (Pair{X: sys[0], Base: sys[1]}).StudentizedBootstrapCritical(100, 1, 1); err == nil {
		t.Error("α = 1 accepted")
	}
}
