package ntcir

// The differential test: a second implementation of every measure, written
// for the tests straight from the definitions (Sakai's lecture, seed 001;
// the formulas in doc.go and kinds) — each value recomputed from scratch at
// every rank, the ideal list built by sorting, powers and logarithms taken
// afresh — against Scorer on random ranked lists and graded judgments.
//
//	RISKGATE_NTCIR_DIFF_SEED=n   seed (default: random, printed)
//	RISKGATE_NTCIR_DIFF_CASES=n  cases (default 1,000; 100 with -short)
//
// Every value must agree to 1e-12.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
)

// slowCase is one random topic and parameter setting.
type slowCase struct {
	ranked    []int32
	judged    []int64
	gains     []float64
	beta, p   float64
	b         float64
	cutoffs   []int
	condensed bool
}

// slowList is the list the measures read: unjudged documents dropped when
// condensed, each rank's level.
func (c *slowCase) list() []int32 {
	var out []int32
	for _, l := range c.ranked {
		if l < 0 && c.condensed {
			continue
		}
		out = append(out, l)
	}
	return out
}

func (c *slowCase) gain(l int32) float64 {
	if l < 1 {
		return 0
	}
	if int(l) > len(c.gains) {
		return c.gains[len(c.gains)-1]
	}
	return c.gains[l-1]
}

// ideal lists the gains of every judged relevant document, largest first.
func (c *slowCase) ideal() []float64 {
	var g []float64
	for l, n := range c.judged {
		for range n {
			if l >= 1 {
				g = append(g, c.gain(int32(l)))
			}
		}
	}
	slices.Sort(g)
	slices.Reverse(g)
	return g
}

// slowValue computes m on c from the definitions.
func slowValue(c *slowCase, m Measure) float64 {
	list := c.list()
	ideal := c.ideal()
	R := len(ideal)
	g := func(r int) float64 { // g(r), 1-based, 0 past the end
		if r > len(list) {
			return 0
		}
		return c.gain(list[r-1])
	}
	isRel := func(r int) bool { return r <= len(list) && list[r-1] >= 1 }
	count := func(r int) int {
		n := 0
		for i := 1; i <= r; i++ {
			if isRel(i) {
				n++
			}
		}
		return n
	}
	cg := func(r int) float64 {
		s := 0.0
		for i := 1; i <= r; i++ {
			s += g(i)
		}
		return s
	}
	cgIdeal := func(r int) float64 {
		s := 0.0
		for i := 0; i < r && i < R; i++ {
			s += ideal[i]
		}
		return s
	}
	BR := func(r int) float64 {
		return (float64(count(r)) + m.Beta*cg(r)) / (float64(r) + m.Beta*cgIdeal(r))
	}
	prec := func(r int) float64 { return float64(count(r)) / float64(r) }
	L := len(list)
	r1, rp, top := 0, 0, int32(0)
	for r := 1; r <= L; r++ {
		if isRel(r) && r1 == 0 {
			r1 = r
		}
		if list[r-1] > top {
			top, rp = list[r-1], r
		}
	}
	gH := c.gains[len(c.gains)-1]
	ratio := func(num, den float64) float64 {
		if den == 0 {
			return 0
		}
		return num / den
	}
	errAt := func(gs []float64) float64 { // ERR of a list of gains
		v := 0.0
		for r := 1; r <= len(gs); r++ {
			stay := 1.0
			for i := 1; i < r; i++ {
				stay *= 1 - gs[i-1]/(gH+1)
			}
			v += gs[r-1] / (gH + 1) / float64(r) * stay
		}
		return v
	}
	listGains := func(k int) []float64 {
		var gs []float64
		for r := 1; r <= min(k, L); r++ {
			gs = append(gs, g(r))
		}
		return gs
	}
	k := m.Cutoff
	switch m.Kind {
	case RR:
		return ratio(1, float64(r1))
	case OMeasure:
		if r1 == 0 {
			return 0
		}
		return BR(r1)
	case PMeasure:
		if rp == 0 {
			return 0
		}
		return BR(rp)
	case PPlus:
		if rp == 0 {
			return 0
		}
		s := 0.0
		for r := 1; r <= rp; r++ {
			if isRel(r) {
				s += BR(r)
			}
		}
		return s / float64(count(rp))
	case AP, Q, APAt, QAt:
		last, norm := L, R
		if m.HasCutoff() {
			last, norm = min(k, L), min(k, R)
		}
		s := 0.0
		for r := 1; r <= last; r++ {
			if isRel(r) {
				if m.Kind == AP || m.Kind == APAt {
					s += prec(r)
				} else {
					s += BR(r)
				}
			}
		}
		return ratio(s, float64(norm))
	case NCUguP, NCUguBR, NCUrbP, NCUrbBR:
		total := cgIdeal(R)
		s := 0.0
		for r := 1; r <= L; r++ {
			if !isRel(r) {
				continue
			}
			var stop float64
			if m.Kind == NCUguP || m.Kind == NCUguBR {
				stop = ratio(g(r), total)
			} else {
				stop = ratio((1-m.Persistence)*math.Pow(m.Persistence, float64(count(r)-1)), 1-math.Pow(m.Persistence, float64(R)))
			}
			u := prec(r)
			if m.Kind == NCUguBR || m.Kind == NCUrbBR {
				u = BR(r)
			}
			s += stop * u
		}
		return s
	case RBP:
		s := 0.0
		for r := 1; r <= L; r++ {
			s += math.Pow(m.Persistence, float64(r-1)) * g(r) / gH
		}
		return (1 - m.Persistence) * s
	case ERR:
		return errAt(listGains(L))
	case NDCGAt, MSNDCGAt:
		disc := func(r int) float64 {
			if m.Kind == MSNDCGAt {
				return math.Log2(float64(r + 1))
			}
			return math.Max(1, math.Log(float64(r))/math.Log(m.LogBase))
		}
		dcg, idcg := 0.0, 0.0
		for r := 1; r <= k; r++ {
			dcg += g(r) / disc(r)
			if r <= R {
				idcg += ideal[r-1] / disc(r)
			}
		}
		return ratio(dcg, idcg)
	case PAt:
		return float64(count(k)) / float64(k)
	case NERRAt:
		return ratio(errAt(listGains(k)), errAt(ideal[:min(k, R)]))
	case HitAt:
		if count(k) > 0 {
			return 1
		}
		return 0
	}
	panic("unknown kind")
}

// genSlowCase draws a topic: levels 0 … H, a pool of judged documents, a
// ranked list mixing some of them with unjudged ones, and parameters.
func genSlowCase(r *rand.Rand) *slowCase {
	c := &slowCase{}
	H := 1 + r.IntN(4)
	c.judged = make([]int64, H+1)
	for l := range c.judged {
		if r.IntN(5) > 0 {
			c.judged[l] = int64(r.IntN(12))
		}
	}
	if r.IntN(10) == 0 { // no relevant document at all
		for l := 1; l <= H; l++ {
			c.judged[l] = 0
		}
	}
	// The pool of judged documents, by level; the list draws from it
	// without replacement, plus unjudged documents.
	var pool []int32
	for l, n := range c.judged {
		for range n {
			pool = append(pool, int32(l))
		}
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	n := r.IntN(40)
	for range n {
		if len(pool) > 0 && r.IntN(3) > 0 {
			c.ranked = append(c.ranked, pool[len(pool)-1])
			pool = pool[:len(pool)-1]
		} else {
			c.ranked = append(c.ranked, int32(-1-r.IntN(2)))
		}
	}
	g := 0.0
	c.gains = make([]float64, H)
	for i := range c.gains {
		switch r.IntN(3) {
		case 0:
			g += float64(1 + r.IntN(3))
		case 1:
			g += r.Float64() * 5
		}
		if g == 0 {
			g = 0.5
		}
		c.gains[i] = g
	}
	c.beta = pick(r, 1, 0.5, 10, r.Float64()*3+0.01)
	c.p = pick(r, 0.95, 0.5, 0.8, r.Float64()*0.98+0.01)
	c.b = pick(r, 2, 10, 1.5, 1+r.Float64()*5+0.01)
	c.cutoffs = []int{1, 1 + r.IntN(5), 10, 1 + r.IntN(60), 1000}
	c.condensed = r.IntN(3) == 0
	return c
}

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

func (c *slowCase) String() string {
	return fmt.Sprintf("ranked=%v judged=%v gains=%v beta=%v p=%v b=%v cutoffs=%v condensed=%v",
		c.ranked, c.judged, c.gains, c.beta, c.p, c.b, c.cutoffs, c.condensed)
}

func envUint(t *testing.T, name string, def uint64) uint64 {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: expected a whole number", name, s)
	}
	return v
}

func TestDifferentialSlow(t *testing.T) {
	t.Parallel()
	seed := envUint(t, "RISKGATE_NTCIR_DIFF_SEED", rand.Uint64())
	cases := uint64(1000)
	if testing.Short() {
		cases = 100
	}
	cases = envUint(t, "RISKGATE_NTCIR_DIFF_CASES", cases)
	t.Logf("RISKGATE_NTCIR_DIFF_SEED=%d RISKGATE_NTCIR_DIFF_CASES=%d", seed, cases)
	r := rand.New(rand.NewPCG(seed, 0x6e74636972))
	var s Scorer
	compared, diffs := 0, 0
	for i := range cases {
		c := genSlowCase(r)
		s.Reset(c.ranked, c.judged, c.gains)
		for _, k := range c.cutoffs {
			for _, m := range All(k) {
				m.Beta, m.Persistence, m.LogBase, m.Condensed = c.beta, c.p, c.b, c.condensed
				if r.IntN(4) == 0 { // the measure's own gains, not the topic's
					m.Gains = slices.Clone(c.gains)
					m.Gains[len(m.Gains)-1] *= 1.5
				}
				got := s.Value(m)
				slowC := *c
				if m.Gains != nil {
					slowC.gains = m.Gains
				}
				want := slowValue(&slowC, m)
				compared++
				if math.Abs(got-want) > 1e-12 || math.IsNaN(got) != math.IsNaN(want) {
					diffs++
					if diffs <= 10 {
						t.Errorf("case %d: %s = %.17g, the definition gives %.17g\n%s", i, m, got, want, c)
					}
				}
			}
		}
	}
	t.Logf("%d cases, %d values compared, %d differences", cases, compared, diffs)
	if diffs > 0 {
		t.Errorf("%d differences at 1e-12", diffs)
	}
}
