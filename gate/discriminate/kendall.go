package discriminate

import (
	"cmp"
	"math"
	"slices"
)

// KendallTau is Kendall's τ_b between x and y (R's cor(x, y, method =
// "kendall")): over the pairs i < j, with c concordant pairs (the signs of
// x_i − x_j and y_i − y_j agree), d discordant ones, and t_x, t_y the pairs
// tied in x or in y,
//
//	τ_b = (c − d) / √((n₀ − t_x)(n₀ − t_y)),   n₀ = n(n − 1)/2.
//
// It is NaN when either ranking is all ties.
func KendallTau(x, y []float64) float64 {
	var c, d, tx, ty int
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			sx, sy := cmp.Compare(x[i], x[j]), cmp.Compare(y[i], y[j])
			switch {
			case sx == 0 && sy == 0:
				tx++
				ty++
			case sx == 0:
				tx++
			case sy == 0:
				ty++
			case sx == sy:
				c++
			default:
				d++
			}
		}
	}
	n0 := len(x) * (len(x) - 1) / 2
	return float64(c-d) / math.Sqrt(float64(n0-tx)*float64(n0-ty))
}

// TauAP is the AP rank correlation of Yilmaz, Aslam and Robertson (SIGIR
// 2008) of the ranking by x against the reference ranking by y, both
// descending (ties broken by name, ascending): with the items in x's order,
// C(i) the number of the i − 1 items above item i that y also ranks above it,
//
//	τ_AP = (2/(N − 1)) Σ_{i=2..N} C(i)/(i − 1) − 1.
//
// It weighs disagreements at the top more than Kendall's τ does, and is not
// symmetric. NaN for fewer than 2 items.
func TauAP(x, y []float64, names []string) float64 {
	n := len(x)
	if n < 2 {
		return math.NaN()
	}
	rank := func(v []float64) []int { // position of each item in the ranking by v
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			if c := cmp.Compare(v[b], v[a]); c != 0 {
				return c
			}
			return cmp.Compare(names[a], names[b])
		})
		pos := make([]int, n)
		for p, i := range order {
			pos[i] = p
		}
		return pos
	}
	px, py := rank(x), rank(y)
	byX := make([]int, n)
	for i, p := range px {
		byX[p] = i
	}
	sum := 0.0
	for i := 1; i < n; i++ {
		c := 0
		for j := range i {
			if py[byX[j]] < py[byX[i]] {
				c++
			}
		}
		sum += float64(c) / float64(i)
	}
	return 2/float64(n-1)*sum - 1
}
