package trec

import "math"

// gainPair is one "level=gain" measure parameter (ndcg.1=3,2=9 …).
type gainPair struct {
	name  string // the level as written; only integers name a level
	value float64
}

// relGain is a relevance level with its gain and the number of judged
// documents of the topic at that level (gain_init.c: REL_GAIN).
type relGain struct {
	level int64
	count int64
	gain  float64
}

// maxExpandedLevels bounds the per-level table built when custom gains make
// trec_eval's gain sort order-dependent (see setupGains).
const maxExpandedLevels = 1 << 16

// setupGains builds the gain table of a topic as trec_eval's setup_gains
// (gain_init.c): first the level=gain parameters in the order given (names
// that are not integers are skipped), then every level 0…max of the topic's
// judgments not named by a parameter with gain = level; then sorted by
// increasing gain with glibc's merge sort and trec_eval's comparator, which
// returns the gain difference converted to int. That comparator treats gains
// that differ by less than 1 as equal — a trec_eval bug (README §4.14) that
// this reproduces. When every gain is an integer the comparator is a true
// order and levels with no judgment cannot change the result, so only
// levels that occur are listed.
func setupGains(pairs []gainPair, r *ranking, dst []relGain) []relGain {
	gains := dst[:0]
	for _, p := range pairs {
		if !validInt(p.name) {
			continue
		}
		gains = append(gains, relGain{level: atol([]byte(p.name)), gain: p.value})
	}
	nPairs := len(gains)
	integral := true
	for _, g := range gains {
		if g.gain != math.Trunc(g.gain) || math.Abs(g.gain) >= 1<<30 {
			integral = false
		}
	}
	expand := !integral && r.numRelLevels <= maxExpandedLevels
	li := 0 // next entry of r.levels
	for lev := int64(0); lev < r.numRelLevels; lev++ {
		var count int64
		if li < len(r.levels) && r.levels[li].level == lev {
			count = r.levels[li].count
			li++
		} else if !expand {
			// Jump to the next level that occurs.
			if li < len(r.levels) {
				lev = r.levels[li].level - 1
			}
			continue
		}
		// Only a parameter can name lev: the levels added so far are lower.
		j := 0
		for j < nPairs && gains[j].level != lev {
			j++
		}
		if j < nPairs {
			gains[j].count = count
		} else {
			gains = append(gains, relGain{level: lev, count: count, gain: float64(lev)})
		}
	}
	if integral {
		stableSortGains(gains)
	} else {
		msortGains(gains, make([]relGain, 0, len(gains)))
	}
	return gains
}

// validInt reports whether s is an optionally signed run of decimal digits
// (gain_init.c: valid_int).
func validInt(s string) bool {
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// getGain returns the gain of the first table entry at level, else 0
// (gain_init.c: get_gain).
func getGain(level int64, gains []relGain) float64 {
	for i := range gains {
		if gains[i].level == level {
			return gains[i].gain
		}
	}
	return 0
}

// cGainCompare is trec_eval's comp_rel_gain: (int)(a.gain - b.gain), with
// x86's result for a difference outside the int range.
func cGainCompare(a, b *relGain) int32 {
	d := a.gain - b.gain
	if math.IsNaN(d) || d >= 1<<31 || d <= -(1<<31)-1 {
		return math.MinInt32
	}
	return int32(d)
}

func stableSortGains(g []relGain) {
	for i := 1; i < len(g); i++ {
		for j := i; j > 0 && g[j-1].gain > g[j].gain; j-- {
			g[j-1], g[j] = g[j], g[j-1]
		}
	}
}

// msortGains sorts gains as trec_eval's qsort with comp_rel_gain does.
func msortGains(g []relGain, tmp []relGain) {
	glibcMsort(g, tmp, func(a, b *relGain) int { return int(cGainCompare(a, b)) })
}
