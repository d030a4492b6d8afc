package trec

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// judged@k, the coverage of a ranking by the qrels: the share of the top k
// ranks that hold a judged document,
//
//	judged@k = 1 − unj_k = (k − u_k)/k,
//
// where u_k counts the documents of the top k that are not in the topic's
// qrels or are in them with a negative level (trec_eval's unj, m_unjudged.c,
// which counts RELVALUE_NONPOOL and RELVALUE_UNJUDGED). As in unj, k is the
// denominator whatever the run retrieved: ranks past the end of the list
// count as judged (an empty rank cannot change any measure), and -M and -J
// apply first (under -J every rank is judged). A qrels topic the run lacks,
// scored under -c, is 1, as trec_eval clears its unj to 0.
//
// ir_measures' Judged@k (judged_provider.py) names the same share with two
// differences: it divides by min(k, documents retrieved), and it counts a
// document in the qrels with a negative level as judged. The two agree on
// every run that retrieves at least k documents for the topic and qrels
// without negative levels.

// judgedFamily is judged@k: one value per cutoff, averaged, printed after
// trec_eval's measures as judged@k.
var judgedFamily = &family{name: "judged", kind: kindCutLong, calc: calcJudged}

// calcJudged: (k − unjudged in the top k)/k; see above.
func calcJudged(r *ranking, m *Measure, out []float64) {
	for c, k := range m.cutLong {
		out[c] = float64(k-inTop(r.unjTop, k)) / float64(k)
	}
}

// judgedPrefix is the one spelling of judged@k's name before the cutoff.
const judgedPrefix = "judged@"

// judgedCutoff reads judged@k, or ir_measures' Judged@k: ok is false for
// any other name; err names a bad cutoff or a missing one.
func judgedCutoff(name string) (k int64, ok bool, err error) {
	base, cutoff, hasCutoff := strings.Cut(name, "@")
	if base != "judged" && base != "Judged" {
		return 0, false, nil
	}
	if !hasCutoff {
		return 0, true, fmt.Errorf("measure %q: judged@k needs a cutoff, the ranks whose coverage it measures, e.g. judged@10", name)
	}
	v, perr := strconv.ParseInt(cutoff, 10, 64)
	if perr != nil || v < 1 || strings.ContainsAny(cutoff, "+-") {
		return 0, true, fmt.Errorf("measure %q: cutoff %q; expected a whole number ≥ 1 (as in judged@10)", name, cutoff)
	}
	return v, true, nil
}

// newJudgedMeasure returns judged@k at the given cutoffs, sorted, once each.
func newJudgedMeasure(cuts []int64) *Measure {
	cuts = slices.Clone(cuts)
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	m := &Measure{fam: judgedFamily, cutLong: cuts}
	for _, k := range cuts {
		m.names = append(m.names, judgedPrefix+strconv.FormatInt(k, 10))
	}
	return m
}
