package risk

import (
	"fmt"
	"math"
	"sync/atomic"
)

// Randomization is a Monte-Carlo permutation test.
type Randomization struct {
	Statistic float64 // the observed statistic
	P         float64 // two-sided p-value: #{|T*| ≥ |T|} / B
	B         int
	Warnings  []string
}

// randomizationChunk is the number of sign vectors drawn from one stream.
const randomizationChunk = 4096

// Randomization is Fisher's paired randomisation (sign-flip) test as used
// in IR by Smucker, Allan and Carterette (CIKM 2007): with d_i = X_i − Base_i
// and T = Σ_i d_i (equivalently the mean difference), the system labels are
// exchangeable within a topic under H0, so each of B random sign vectors
// s ∈ {−1, +1}ⁿ gives T* = Σ_i s_i·d_i, and
//
//	P = #{b : |T*_b| ≥ |T| − tol} / B,
//
// Smucker et al.'s estimate (not (count + 1)/(B + 1)). tol = 1e-12·Σ|d_i|
// keeps sums that are equal in exact arithmetic equal despite rounding. The
// sign flips are exact (the sign bit is toggled), so the all-plus vector
// reproduces T bit for bit.
func (p Pair) Randomization(b int, seed uint64) (Randomization, error) {
	if err := p.check(); err != nil {
		return Randomization{}, err
	}
	if b < 1 {
		return Randomization{}, fmt.Errorf("risk: randomisation test needs B ≥ 1, got %d", b)
	}
	d := p.Deltas()
	obs, scale := 0.0, 0.0
	for _, v := range d {
		obs += v
		scale += math.Abs(v)
	}
	thresh := math.Abs(obs) - 1e-12*scale
	r := Randomization{Statistic: obs / float64(len(d)), B: b}
	if scale == 0 {
		r.P = 1
		r.Warnings = append(r.Warnings, "every difference is zero: the randomisation test has no evidence")
		return r, nil
	}
	bitsOf := make([]uint64, len(d))
	for i, v := range d {
		bitsOf[i] = math.Float64bits(v)
	}
	var count atomic.Int64
	forChunks(b, randomizationChunk, func(k, lo, hi int) {
		src := chunkSource(seed, procRandomization, k)
		c := 0
		for range hi - lo {
			s := 0.0
			var signs uint64
			for i, v := range bitsOf {
				if i%64 == 0 {
					signs = src.Uint64()
				}
				s += math.Float64frombits(v ^ (signs << 63))
				signs >>= 1
			}
			if math.Abs(s) >= thresh {
				c++
			}
		}
		count.Add(int64(c))
	})
	r.P = float64(count.Load()) / float64(b)
	return r, nil
}
