package risk

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// TukeyPair compares systems A and B (indices, A < B) in a Tukey HSD table.
type TukeyPair struct {
	A, B int
	Diff float64 // mean of B − mean of A, as R labels it "B-A"
	Lo   float64 // simultaneous confidence interval of Diff
	Hi   float64
	P    float64 // family-wise adjusted p-value
}

// TukeyHSD is Tukey's honestly-significant-difference comparison of every
// pair of systems.
type TukeyHSD struct {
	Model    string  // the ANOVA model whose residual mean square is used
	Level    float64 // family-wise confidence level of the intervals
	Q        float64 // critical studentized range q_{Level}(m, DF)
	SE       float64 // √(MSE/n), the standard error of one system mean
	DF       float64 // residual degrees of freedom
	Means    []float64
	Pairs    []TukeyPair // (0,1), (0,2), …, (1,2), … as R lists them
	Warnings []string
}

// TukeyHSD is R's TukeyHSD(aov(...), "system", conf.level = level) for a
// complete table of m systems × n topics, on the residual mean square of the
// two-way (system + topic) ANOVA (twoWay) or of the one-way ANOVA:
//
//	Diff = x̄_B − x̄_A,   q = |Diff| / √(MSE/n),
//	P = 1 − PTukey(q, m, df_E),
//	CI = Diff ± QTukey(level, m, df_E)·√(MSE/n).
//
// (R writes the standard error √((MSE/2)(1/n_A + 1/n_B)), the same for a
// balanced table.)
func (s Systems) TukeyHSD(twoWay bool, level float64) (TukeyHSD, error) {
	if err := checkLevel(level); err != nil {
		return TukeyHSD{}, err
	}
	var a ANOVA
	var err error
	if twoWay {
		a, err = s.TwoWayANOVA()
	} else {
		a, err = s.OneWayANOVA()
	}
	if err != nil {
		return TukeyHSD{}, err
	}
	m, n := float64(len(s)), float64(len(s[0]))
	h := TukeyHSD{Model: a.Model, Level: level, DF: a.DFResidual(), Means: s.means(), Warnings: a.Warnings}
	h.SE = math.Sqrt(a.MSE() / 2 * (2 / n))
	h.Q = QTukey(level, m, h.DF)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			d := h.Means[j] - h.Means[i]
			width := h.Q * h.SE
			h.Pairs = append(h.Pairs, TukeyPair{
				A: i, B: j, Diff: d, Lo: d - width, Hi: d + width,
				P: 1 - PTukey(math.Abs(d/h.SE), m, h.DF),
			})
		}
	}
	return h, nil
}

// RandomizedTukeyHSD is the result of the randomised Tukey HSD test.
type RandomizedTukeyHSD struct {
	Means    []float64
	Pairs    []RandomizedPair // in TukeyHSD's order
	B        int
	Warnings []string
}

// RandomizedPair is one pair of a randomised Tukey HSD test.
type RandomizedPair struct {
	A, B int
	Diff float64 // mean of B − mean of A
	P    float64 // #{b : range*_b ≥ |Diff| − tol} / B
}

// randomTukeyChunk is the number of replicates drawn from one stream.
const randomTukeyChunk = 128

// RandomizedTukeyHSD is Carterette's randomised Tukey HSD test (ACM TOIS
// 30(1), 2012; used throughout Sakai's work): under H0 the scores of a topic
// are exchangeable among the systems, so each of B replicates permutes every
// topic's row of scores at random (Fisher–Yates), and
//
//	range*_b = max_i x̄*_i − min_i x̄*_i,
//	P(A, B)  = #{b : range*_b ≥ |x̄_B − x̄_A| − tol} / B,
//
// which controls the family-wise error rate through the distribution of the
// largest difference. tol = 1e-12·max|x| keeps exactly-equal means equal.
// The B ranges are sorted once and each pair's count found by binary search.
func (s Systems) RandomizedTukeyHSD(b int, seed uint64) (RandomizedTukeyHSD, error) {
	r, _, err := s.randomizedTukeyHSD(b, seed)
	return r, err
}

// randomizedTukeyHSD is RandomizedTukeyHSD, also returning the B ranges
// in increasing order.
func (s Systems) randomizedTukeyHSD(b int, seed uint64) (RandomizedTukeyHSD, []float64, error) {
	if err := s.check(); err != nil {
		return RandomizedTukeyHSD{}, nil, err
	}
	if b < 1 {
		return RandomizedTukeyHSD{}, nil, fmt.Errorf("risk: randomised Tukey HSD needs B ≥ 1, got %d", b)
	}
	m, n := len(s), len(s[0])
	// Topic-major copy: row j holds the m scores of topic j.
	byTopic := make([]float64, n*m)
	scale := 0.0
	for i, row := range s {
		for j, v := range row {
			byTopic[j*m+i] = v
			scale = math.Max(scale, math.Abs(v))
		}
	}
	tol := 1e-12 * scale
	ranges := make([]float64, b)
	forChunks(b, randomTukeyChunk, func(k, lo, hi int) {
		x, sums := make([]float64, n*m), make([]float64, m)
		// Each chunk starts from the observed table; shuffling an
		// already-shuffled row again is still a uniform permutation.
		copy(x, byTopic)
		sh := newShuffler(chunkSource(seed, procRandomizedTukey, k), m)
		for r := lo; r < hi; r++ {
			clear(sums)
			for j := range n {
				row := x[j*m : (j+1)*m]
				sh.shuffle(row)
				for i, v := range row {
					sums[i] += v
				}
			}
			ranges[r] = (slices.Max(sums) - slices.Min(sums)) / float64(n)
		}
	})
	slices.Sort(ranges)
	res := RandomizedTukeyHSD{Means: s.means(), B: b}
	for i := range s {
		for j := i + 1; j < m; j++ {
			d := res.Means[j] - res.Means[i]
			// Ranges below the threshold do not count.
			below := sort.SearchFloat64s(ranges, math.Abs(d)-tol)
			res.Pairs = append(res.Pairs, RandomizedPair{A: i, B: j, Diff: d, P: float64(b-below) / float64(b)})
		}
	}
	return res, ranges, nil
}
