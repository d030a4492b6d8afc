package stats

import (
	"math/bits"
	"slices"
	"sort"
)

// SelectRanks reorders a so that, for every 0-based rank r in ranks (sorted,
// distinct, each in [0, len(a))), a[r] holds the value a sorted copy would
// hold there — R's sort(x, partial = ranks). It is a multi-target
// quickselect with a three-way partition (bootstrap replicates of discrete
// data repeat values), falling back to a full sort of a sub-range if the
// partitions keep coming out lopsided. Every value before a selected rank
// is ≤ the value there and every value after it ≥, as in any quickselect.
// a must hold no NaN.
func SelectRanks(a []float64, ranks []int) {
	multiSelect(a, 0, len(a), ranks, 2*bits.Len(uint(len(a))))
}

func multiSelect(a []float64, lo, hi int, ranks []int, depth int) {
	for len(ranks) > 0 {
		if hi-lo <= 32 || depth == 0 {
			slices.Sort(a[lo:hi])
			return
		}
		depth--
		p := medianOf3(a[lo], a[lo+(hi-lo)/2], a[hi-1])
		lt, gt := partition3(a, lo, hi, p)
		i := sort.SearchInts(ranks, lt)
		j := sort.SearchInts(ranks, gt)
		// ranks[i:j] fall among the values equal to the pivot: done.
		multiSelect(a, lo, lt, ranks[:i], depth)
		lo, ranks = gt, ranks[j:]
	}
}

func medianOf3(x, y, z float64) float64 {
	if x > y {
		x, y = y, x
	}
	if y > z {
		y = z
	}
	if x > y {
		return x
	}
	return y
}

// partition3 rearranges a[lo:hi] into values < p, == p, > p and returns the
// bounds [lt, gt) of the middle part (Dijkstra's Dutch national flag).
func partition3(a []float64, lo, hi int, p float64) (lt, gt int) {
	lt, i, gt := lo, lo, hi
	for i < gt {
		switch v := a[i]; {
		case v < p:
			a[lt], a[i] = a[i], a[lt]
			lt++
			i++
		case v > p:
			gt--
			a[gt], a[i] = a[i], a[gt]
		default:
			i++
		}
	}
	return lt, gt
}
