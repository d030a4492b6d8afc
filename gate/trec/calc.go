package trec

import (
	"math"

	"github.com/riskgate/riskgate/gate/ntcir"
)

// Relevance values of retrieved documents that are not judgments
// (trec_eval.h).
const (
	relNonpool   = -1 // not in the qrels of the topic
	relUnjudged  = -2 // in the qrels with a negative level: pooled, not judged
	minGeoMean   = 1e-5
	infAPEpsilon = 1e-5
)

// ranking is one topic's retrieved list after sorting and -M truncation,
// with the judgment statistics every measure reads (form_res_rels.c:
// RES_RELS).
type ranking struct {
	rel         []int32 // relevance value of each rank: level ≥ 0, relNonpool or relUnjudged
	numRet      int64
	numRel      int64 // judged documents with level ≥ relLevel
	numRelRet   int64 // retrieved judged documents with level ≥ relLevel
	numNonpool  int64
	numUnjudged int64
	// relTop[i] and unjTop[i] count the relevant and the unjudged (not in
	// the qrels, or with a negative level) documents of the first i ranks.
	relTop, unjTop []int64
	levels         []levelCount // the topic's judgments per level ≥ 0
	numRelLevels   int64        // highest level + 1; 0 when no level ≥ 0
	relLevel       int64        // -l
	numDocs        int64        // -N
	gains          []relGain    // scratch for setupGains

	nt *ntcir.Scorer // NTCIREVAL's measures, set to the topic (ntcir.go)
}

func (r *ranking) isRel(i int) bool { return int64(r.rel[i]) >= r.relLevel }

// numNonrelJudged is the number of judgments with 0 ≤ level < relLevel.
func (r *ranking) numNonrelJudged() int64 {
	var n int64
	for _, lc := range r.levels {
		if lc.level < r.relLevel {
			n += lc.count
		}
	}
	return n
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// calcNumRet: the number of documents retrieved (after -M). m_num_ret.c
func calcNumRet(r *ranking, _ *Measure, out []float64) { out[0] = float64(r.numRet) }

// calcNumRel: the number of judged documents with level ≥ -l. m_num_rel.c
func calcNumRel(r *ranking, _ *Measure, out []float64) { out[0] = float64(r.numRel) }

// calcNumRelRet: the number of relevant documents retrieved. m_num_rel_ret.c
func calcNumRelRet(r *ranking, _ *Measure, out []float64) { out[0] = float64(r.numRelRet) }

// calcNumQ: 1 per topic; the summary is the number of topics. m_num_q.c
func calcNumQ(_ *ranking, _ *Measure, out []float64) { out[0] = 1 }

// averagePrecision is Σ_{relevant ranks k} (relevant in top k)/k divided by
// num_rel, and 0 when no relevant document is retrieved.
func averagePrecision(r *ranking) float64 {
	var relSoFar int64
	sum := 0.0
	for i := range r.rel {
		if r.isRel(i) {
			relSoFar++
			sum += float64(relSoFar) / float64(i+1)
		}
	}
	if relSoFar == 0 {
		return 0
	}
	return sum / float64(r.numRel)
}

// calcMap: average precision, AP = (1/R) Σ_{k: doc k relevant} P@k, where R
// is num_rel (unretrieved relevant documents contribute 0). m_map.c
func calcMap(r *ranking, _ *Measure, out []float64) { out[0] = averagePrecision(r) }

// calcGMMap: log(max(AP, 1e-5)) per topic; the summary is exp of the mean,
// the geometric mean of AP. m_gm_map.c
func calcGMMap(r *ranking, _ *Measure, out []float64) {
	out[0] = cLog(math.Max(averagePrecision(r), minGeoMean))
}

// calcRprec: precision at rank R = num_rel, counting missing ranks as
// non-relevant: (relevant in top min(R, num_ret)) / R. m_Rprec.c
func calcRprec(r *ranking, _ *Measure, out []float64) {
	n := min(r.numRet, r.numRel)
	if n == 0 {
		return
	}
	var rel int64
	for i := 0; i < int(n); i++ {
		if r.isRel(i) {
			rel++
		}
	}
	out[0] = float64(rel) / float64(r.numRel)
}

// bpref is (1/R) Σ_{retrieved relevant d} (1 − min(n_d, R)/min(N, R)), where
// n_d counts judged non-relevant documents ranked above d and N is the number
// of judged non-relevant documents of the topic; documents outside the
// qrels or pooled but unjudged are skipped.
func bpref(r *ranking) float64 {
	numNonrel := r.numNonrelJudged()
	var nonrelSoFar int64
	sum := 0.0
	for _, rel := range r.rel {
		if rel == relNonpool || rel == relUnjudged {
			continue
		}
		if rel >= 0 && int64(rel) < r.relLevel {
			nonrelSoFar++
			continue
		}
		if nonrelSoFar > 0 {
			sum += 1 - float64(min(nonrelSoFar, r.numRel))/float64(min(numNonrel, r.numRel))
		} else {
			sum += 1
		}
	}
	if r.numRel != 0 {
		sum /= float64(r.numRel)
	}
	return sum
}

// calcBpref: binary preference (Buckley & Voorhees, SIGIR 2004); see bpref.
// m_bpref.c
func calcBpref(r *ranking, _ *Measure, out []float64) { out[0] = bpref(r) }

// calcGMBpref: log(max(bpref, 1e-5)) per topic; the summary is the geometric
// mean. m_gm_bpref.c
func calcGMBpref(r *ranking, _ *Measure, out []float64) {
	out[0] = cLog(math.Max(bpref(r), minGeoMean))
}

// calcRecipRank: 1/rank of the first relevant document, 0 if none.
// m_recip_rank.c
func calcRecipRank(r *ranking, _ *Measure, out []float64) {
	for i := range r.rel {
		if r.isRel(i) {
			out[0] = 1 / float64(i+1)
			return
		}
	}
}

// interpolatedPrecision calls put(c, p) with the interpolated precision
// p = max_{k ≥ k_c} P@k at each recall cutoff c, where k_c is the rank of the
// relevant document number round(c·R) (v10's lround; v9 used (long)(c·R+0.9)),
// walking the ranking backwards as m_iprec_at_recall.c does.
func interpolatedPrecision(r *ranking, cuts []float64, put func(c int, p float64)) {
	var stack [16]int64
	cutoffs := stack[:0]
	for _, c := range cuts {
		cutoffs = append(cutoffs, int64(math.Round(c*float64(r.numRel))))
	}
	cur := len(cutoffs) - 1
	for cur >= 0 && cutoffs[cur] > r.numRelRet {
		cur--
	}
	precis := float64(r.numRelRet) / float64(r.numRet)
	intPrecis := precis
	relSoFar := r.numRelRet
	for i := r.numRet; i > 0 && relSoFar > 0; i-- {
		precis = float64(relSoFar) / float64(i)
		if intPrecis < precis {
			intPrecis = precis
		}
		if r.isRel(int(i - 1)) {
			for cur >= 0 && relSoFar == cutoffs[cur] {
				put(cur, intPrecis)
				cur--
			}
			relSoFar--
		}
	}
	for ; cur >= 0; cur-- {
		put(cur, intPrecis)
	}
}

// calcIprecAtRecall: interpolated precision at recall levels (the
// recall-precision graph). m_iprec_at_recall.c
func calcIprecAtRecall(r *ranking, m *Measure, out []float64) {
	interpolatedPrecision(r, m.cutDouble, func(c int, p float64) { out[c] = p })
}

// calc11ptAvg: the mean of interpolated precision over the given recall
// levels (default 0, 0.1, …, 1). m_11pt_avg.c
func calc11ptAvg(r *ranking, m *Measure, out []float64) {
	sum := 0.0
	interpolatedPrecision(r, m.params, func(_ int, p float64) { sum += p })
	out[0] = sum / float64(len(m.params))
}

// inTop returns the count of the first k ranks from top, where top[i]
// counts the first i ranks; ranks beyond num_ret count nothing.
func inTop(top []int64, k int64) int64 { return top[min(k, int64(len(top)-1))] }

// calcP: precision at k, (relevant in top k)/k, also when fewer than k
// documents were retrieved. m_P.c
func calcP(r *ranking, m *Measure, out []float64) {
	for c, k := range m.cutLong {
		out[c] = float64(inTop(r.relTop, k)) / float64(k)
	}
}

// calcRecall: recall at k, (relevant in top k)/num_rel. m_recall.c
func calcRecall(r *ranking, m *Measure, out []float64) {
	if r.numRel == 0 {
		return
	}
	for c, k := range m.cutLong {
		out[c] = float64(inTop(r.relTop, k)) / float64(r.numRel)
	}
}

// calcRelativeP: precision at k relative to the best possible,
// (relevant in top k)/min(k, num_rel). m_rel_P.c
func calcRelativeP(r *ranking, m *Measure, out []float64) {
	if r.numRel == 0 {
		return
	}
	for c, k := range m.cutLong {
		out[c] = float64(inTop(r.relTop, k)) / float64(min(k, r.numRel))
	}
}

// calcSuccess: 1 if a relevant document is in the top k, else 0. m_success.c
func calcSuccess(r *ranking, m *Measure, out []float64) {
	for c, k := range m.cutLong {
		out[c] = b2f(inTop(r.relTop, k) > 0)
	}
}

// calcUnj: the fraction of the top k that is unjudged (absent from the qrels
// or with a negative level), over k. m_unjudged.c
func calcUnj(r *ranking, m *Measure, out []float64) {
	for c, k := range m.cutLong {
		out[c] = float64(inTop(r.unjTop, k)) / float64(k)
	}
}

// calcMapCut: average precision computed over the top k only, still divided
// by num_rel. m_map_cut.c
func calcMapCut(r *ranking, m *Measure, out []float64) {
	if r.numRel == 0 {
		return
	}
	c := 0
	var relSoFar int64
	sum := 0.0
	cut := m.cutLong
	for i := 0; i < len(r.rel); i++ {
		if int64(i) == cut[c] {
			out[c] = sum / float64(r.numRel)
			if c++; c == len(cut) {
				return
			}
		}
		if r.isRel(i) {
			relSoFar++
			sum += float64(relSoFar) / float64(i+1)
		}
	}
	for ; c < len(cut); c++ {
		out[c] = sum / float64(r.numRel)
	}
}

// relstring: the relevance values of the first N documents as
// characters: the digit for levels 0–9, '>' above 9, '-' not in the qrels,
// '.' pooled but unjudged, '<' other negative values. m_relstring.c
func relstring(r *ranking, m *Measure) string {
	n := min(int64(m.params[0]), r.numRet)
	if n < 0 {
		n = 0
	}
	b := make([]byte, n)
	for i := range b {
		rel := r.rel[i]
		switch {
		case rel > 9:
			b[i] = '>'
		case rel >= 0:
			b[i] = byte('0' + rel)
		case rel == relNonpool:
			b[i] = '-'
		case rel == relUnjudged:
			b[i] = '.'
		default:
			b[i] = '<'
		}
	}
	return string(b)
}

// calcInfAP: inferred AP (Yilmaz & Aslam, CIKM 2006): at each judged
// relevant rank k>1 adds 1/k + ((k−1)/k)·((rel+nonrel+unjudged above)/(k−1))·
// ((rel above + ε)/(rel above + nonrel above + 2ε)), ε = 1e-5, 1 at rank 1;
// divided by num_rel. Documents outside the qrels count only through k.
// m_infap.c
func calcInfAP(r *ranking, _ *Measure, out []float64) {
	var nonrelSoFar, relSoFar, unjudgedSoFar int64
	sum := 0.0
	for j, rel := range r.rel {
		if rel == relNonpool {
			continue
		}
		if rel == relUnjudged {
			unjudgedSoFar++
			continue
		}
		if rel >= 0 && int64(rel) < r.relLevel {
			nonrelSoFar++
			continue
		}
		relSoFar++
		if j == 0 {
			sum += 1
			continue
		}
		fj := float64(j)
		sum += 1/(fj+1) + (fj/(fj+1))*
			(float64(relSoFar-1+nonrelSoFar+unjudgedSoFar)/fj)*
			((float64(relSoFar-1)+infAPEpsilon)/(float64(relSoFar-1+nonrelSoFar)+2*infAPEpsilon))
	}
	if r.numRel != 0 {
		sum /= float64(r.numRel)
	}
	out[0] = sum
}

// calcRprecMult: precision at ranks ⌊m·R + 0.9⌋ for multiples m of R =
// num_rel; ranks beyond num_ret count the missing documents as non-relevant.
// m_Rprec_mult.c
func calcRprecMult(r *ranking, m *Measure, out []float64) {
	var stack [16]int64
	cutoffs := stack[:0]
	for _, c := range m.cutDouble {
		cutoffs = append(cutoffs, int64(c*float64(r.numRel)+0.9))
	}
	cur := len(cutoffs) - 1
	for cur >= 0 && cutoffs[cur] > r.numRet {
		out[cur] = float64(r.numRelRet) / float64(cutoffs[cur])
		cur--
	}
	relSoFar := r.numRelRet
	for i := r.numRet; i > 0 && relSoFar > 0; i-- {
		precis := float64(relSoFar) / float64(i)
		for cur >= 0 && i == cutoffs[cur] {
			out[cur] = precis
			cur--
		}
		if r.isRel(int(i - 1)) {
			relSoFar--
		}
	}
}

// calcUtility: p1·a + p2·b + p3·c + p4·d over the contingency table (a
// relevant retrieved, b non-relevant retrieved, c relevant missed, d the rest
// of the -N collection). m_utility.c
func calcUtility(r *ranking, m *Measure, out []float64) {
	p := m.params
	out[0] = p[0]*float64(r.numRelRet) +
		p[1]*float64(r.numRet-r.numRelRet) +
		p[2]*float64(r.numRel-r.numRelRet) +
		p[3]*float64(r.numDocs+r.numRelRet-r.numRet-r.numRel)
}

// calcBinG: (1/R) Σ_{relevant rank k} 1/log2(2 + non-relevant above k).
// m_binG.c
func calcBinG(r *ranking, _ *Measure, out []float64) {
	var relSoFar int64
	sum := 0.0
	for i := range r.rel {
		if r.isRel(i) {
			relSoFar++
			sum += 1 / cLog2(float64(3+int64(i)-relSoFar))
		}
	}
	if relSoFar != 0 {
		out[0] = sum / float64(r.numRel)
	}
}

// calcG: normalised gain, Σ_k g_k / log2(2 + cost_k − gain_k) over the sum of
// all gains, where gain_k sums the run's gains to rank k and cost_k the ideal
// gains (at least 1 per rank). m_G.c
func calcG(r *ranking, m *Measure, out []float64) {
	g := setupGains(m.pairs, r, r.gains)
	r.gains = g
	resultsG, sumResults, sumIdeal, sumCost := 0.0, 0.0, 0.0, 0.0
	const minCost = 1.0
	cur := len(g) - 1
	idealGain := 0.0
	if cur >= 0 {
		idealGain = g[cur].gain
	}
	var atLevel int64
	i := 0
	for ; i < len(r.rel) && idealGain > 0; i++ {
		resultsGain := getGain(int64(r.rel[i]), g)
		sumResults += resultsGain
		atLevel++
		for cur >= 0 && atLevel > g[cur].count {
			atLevel = 1
			cur--
			idealGain = gainAt(g, cur)
		}
		if idealGain > 0 {
			sumIdeal += idealGain
		}
		if idealGain >= minCost {
			sumCost += idealGain
		} else {
			sumCost += minCost
		}
		if resultsGain != 0 {
			resultsG += resultsGain / cLog2(2+sumCost-sumResults)
		}
	}
	for ; i < len(r.rel); i++ {
		resultsGain := getGain(int64(r.rel[i]), g)
		sumResults += resultsGain
		sumCost += minCost
		if resultsGain != 0 {
			resultsG += resultsGain / cLog2(2+sumCost-sumResults)
		}
	}
	for idealGain > 0 {
		atLevel++
		for cur >= 0 && atLevel > g[cur].count {
			atLevel = 1
			cur--
			idealGain = gainAt(g, cur)
		}
		if idealGain > 0 {
			sumIdeal += idealGain
		}
	}
	if sumIdeal > 0 {
		out[0] = resultsG / sumIdeal
	}
}

func gainAt(g []relGain, cur int) float64 {
	if cur >= 0 {
		return g[cur].gain
	}
	return 0
}

// dcgs returns DCG = Σ_k gain(rel_k)/log2(k+1) of the ranking and the ideal
// DCG, which ranks every judged document of the topic by decreasing gain
// (unretrieved ones included) and stops at the first gain ≤ 0. Gains are the
// levels unless level=gain parameters say otherwise (m_ndcg.c).
func dcgs(r *ranking, m *Measure) (dcg, ideal float64) {
	g := setupGains(m.pairs, r, r.gains)
	r.gains = g
	cur := len(g) - 1
	idealGain := gainAt(g, cur)
	var atLevel int64
	i := 0
	for ; i < len(r.rel) && idealGain > 0; i++ {
		if gain := getGain(int64(r.rel[i]), g); gain != 0 {
			dcg += gain / discount(i)
		}
		atLevel++
		for cur >= 0 && atLevel > g[cur].count {
			atLevel = 1
			cur--
			idealGain = gainAt(g, cur)
		}
		if idealGain > 0 {
			ideal += idealGain / discount(i)
		}
	}
	for ; i < len(r.rel); i++ {
		if gain := getGain(int64(r.rel[i]), g); gain != 0 {
			dcg += gain / discount(i)
		}
	}
	for idealGain > 0 {
		atLevel++
		for cur >= 0 && atLevel > g[cur].count {
			atLevel = 1
			cur--
			idealGain = gainAt(g, cur)
		}
		if idealGain > 0 {
			ideal += idealGain / discount(i)
		}
		i++
	}
	return dcg, ideal
}

// calcNDCG: DCG/ideal DCG with linear gains and log2(rank+1) discounts over
// the whole ranking (Järvelin & Kekäläinen, TOIS 2002); see dcgs. m_ndcg.c
func calcNDCG(r *ranking, m *Measure, out []float64) {
	dcg, ideal := dcgs(r, m)
	if ideal > 0 {
		out[0] = dcg / ideal
	}
}

// calcDCG: the DCG of the ranking; see dcgs. m_ndcg.c
func calcDCG(r *ranking, m *Measure, out []float64) {
	out[0], _ = dcgs(r, m)
}

// calcIdealDCG: the ideal DCG of the topic; see dcgs. m_ndcg.c
func calcIdealDCG(r *ranking, m *Measure, out []float64) {
	_, out[0] = dcgs(r, m)
}

// calcNDCGRel: nDCG averaged at the rank of each document with positive
// gain; relevant documents not retrieved contribute the final DCG over the
// ideal DCG. m_ndcg_rel.c
func calcNDCGRel(r *ranking, m *Measure, out []float64) {
	g := setupGains(m.pairs, r, r.gains)
	r.gains = g
	cur := len(g) - 1
	idealGain := gainAt(g, cur)
	var atLevel, numRel, numRelRet int64
	dcg, ideal, sum := 0.0, 0.0, 0.0
	i := 0
	for ; i < len(r.rel) && idealGain > 0; i++ {
		gain := getGain(int64(r.rel[i]), g)
		if gain != 0 {
			dcg += gain / discount(i)
		}
		atLevel++
		for cur >= 0 && atLevel > g[cur].count {
			atLevel = 1
			cur--
			idealGain = gainAt(g, cur)
		}
		if idealGain > 0 {
			numRel++
			ideal += idealGain / discount(i)
		}
		if gain > 0 {
			sum += dcg / ideal
			numRelRet++
		}
	}
	for ; i < len(r.rel); i++ {
		gain := getGain(int64(r.rel[i]), g)
		if gain != 0 {
			dcg += gain / discount(i)
		}
		if gain > 0 {
			sum += dcg / ideal
			numRelRet++
		}
	}
	for idealGain > 0 {
		atLevel++
		for cur >= 0 && atLevel > g[cur].count {
			atLevel = 1
			cur--
			idealGain = gainAt(g, cur)
		}
		if idealGain > 0 {
			numRel++
			ideal += idealGain / discount(i)
		}
		i++
	}
	sum += float64(numRel-numRelRet) * dcg / ideal
	if sum > 0 {
		out[0] = sum / float64(numRel)
	}
}

// calcRndcg: nDCG averaged at the ranks where the ideal gain changes level
// (and at num_ret); 0 when num_rel is 0. m_Rndcg.c
func calcRndcg(r *ranking, m *Measure, out []float64) {
	g := setupGains(m.pairs, r, r.gains)
	r.gains = g
	if r.numRel == 0 {
		return
	}
	cur := len(g) - 1
	idealGain := gainAt(g, cur)
	oldIdealGain := idealGain
	var atLevel, changes int64
	dcg, ideal, sum := 0.0, 0.0, 0.0
	i := 0
	for ; i < len(r.rel) && idealGain > 0; i++ {
		gain := getGain(int64(r.rel[i]), g)
		atLevel++
		for cur >= 0 && atLevel > g[cur].count {
			atLevel = 1
			cur--
			idealGain = gainAt(g, cur)
		}
		if oldIdealGain != idealGain {
			if ideal > 0 {
				sum += dcg / ideal
				changes++
			}
			oldIdealGain = idealGain
		}
		if gain != 0 {
			dcg += gain / discount(i)
		}
		if idealGain > 0 {
			ideal += idealGain / discount(i)
		}
	}
	if i < len(r.rel) {
		for ; i < len(r.rel); i++ {
			if gain := getGain(int64(r.rel[i]), g); gain != 0 {
				dcg += gain / discount(i)
			}
		}
		if ideal > 0 {
			sum += dcg / ideal
			changes++
		}
	}
	for idealGain > 0 {
		atLevel++
		for cur >= 0 && atLevel > g[cur].count {
			atLevel = 1
			cur--
			idealGain = gainAt(g, cur)
		}
		if oldIdealGain != idealGain {
			if ideal > 0 {
				sum += dcg / ideal
				changes++
			}
			oldIdealGain = idealGain
		}
		if idealGain > 0 {
			ideal += idealGain / discount(i)
		}
		i++
	}
	out[0] = sum / float64(changes)
}

// calcNDCGCut: nDCG at k: the DCG of the top k with the raw levels as gains
// and log2(rank+1) discounts, over the DCG of the best k judged documents.
// Gain parameters and -l do not apply. m_ndcg_cut.c
func calcNDCGCut(r *ranking, m *Measure, out []float64) {
	cut := m.cutLong
	c := 0
	sum := 0.0
	i := 0
	for ; i < len(r.rel); i++ {
		if int64(i) == cut[c] {
			out[c] = sum
			if c++; c == len(cut) {
				break
			}
		}
		if gain := float64(r.rel[i]); gain > 0 {
			sum += gain / discount(i)
		}
	}
	for ; c < len(cut); c++ {
		out[c] = sum
	}
	// Ideal: levels > 0 from the highest down, each repeated by its count.
	c = 0
	ideal := 0.0
	li := len(r.levels) - 1
	var used int64
	for k := int64(0); ; k++ {
		for li >= 0 && used >= r.levels[li].count {
			li--
			used = 0
		}
		if li < 0 || r.levels[li].level <= 0 {
			break
		}
		if k == cut[c] {
			if ideal > 0 {
				out[c] /= ideal
			}
			if c++; c == len(cut) {
				return
			}
		}
		ideal += float64(r.levels[li].level) / discount(int(k))
		used++
	}
	for ; c < len(cut); c++ {
		if ideal > 0 {
			out[c] /= ideal
		}
	}
}

// calcSetP: set precision, num_rel_ret/num_ret. m_set_P.c
func calcSetP(r *ranking, _ *Measure, out []float64) {
	if r.numRet != 0 {
		out[0] = float64(r.numRelRet) / float64(r.numRet)
	}
}

// calcSetRelativeP: num_rel_ret/min(num_ret, num_rel). m_set_rel_P.c
func calcSetRelativeP(r *ranking, _ *Measure, out []float64) {
	if r.numRet != 0 && r.numRel != 0 {
		out[0] = float64(r.numRelRet) / float64(min(r.numRet, r.numRel))
	}
}

// calcSetRecall: set recall, num_rel_ret/num_rel. m_set_recall.c
func calcSetRecall(r *ranking, _ *Measure, out []float64) {
	if r.numRel != 0 {
		out[0] = float64(r.numRelRet) / float64(r.numRel)
	}
}

// calcSetMap: set precision × set recall, num_rel_ret²/(num_ret·num_rel).
// m_set_map.c
func calcSetMap(r *ranking, _ *Measure, out []float64) {
	if r.numRet != 0 && r.numRel != 0 {
		out[0] = float64(r.numRelRet) * float64(r.numRelRet) / (float64(r.numRet) * float64(r.numRel))
	}
}

// calcSetF: F = (x+1)·P·R/(x·P + R) over the retrieved set, x the parameter
// (default 1). m_set_F.c
func calcSetF(r *ranking, m *Measure, out []float64) {
	if r.numRelRet == 0 {
		return
	}
	p := float64(r.numRelRet) / float64(r.numRet)
	rec := float64(r.numRelRet) / float64(r.numRel)
	x := m.params[0]
	out[0] = (x + 1) * p * rec / (x*p + rec)
}

// calcNumNonrelJudgedRet: retrieved documents judged with 0 ≤ level < -l.
// m_num_nonrel_judged_ret.c
func calcNumNonrelJudgedRet(r *ranking, _ *Measure, out []float64) {
	out[0] = float64(r.numRet - r.numNonpool - r.numUnjudged - r.numRelRet)
}

// calcRBP: rank-biased precision (Moffat & Zobel, TOIS 2008),
// (1−p) Σ_k g_k p^(k−1), p = 0.9 unless given as "p=…"; gains are scaled to
// [0, 1] by (g − min)/(max − min) when they leave that range. trec_eval v10
// reads min and max uninitialised; this takes them as 0, which reproduces
// every reference output except a stack-dependent one (README §4.16).
// m_rbp.c
func calcRBP(r *ranking, m *Measure, out []float64) {
	p := rbpPersistence(m)
	g := setupGains(m.pairs, r, r.gains)
	r.gains = g
	lo, hi := 0.0, 0.0
	for _, x := range g {
		if x.gain < lo {
			lo = x.gain
		}
		if x.gain > hi {
			hi = x.gain
		}
	}
	// trec_eval's table also holds every level below the highest that no
	// document has, with gain = level; setupGains leaves those out when
	// they cannot matter for the order, but they count for min and max.
	if lowest, highest, ok := unjudgedLevelRange(m.pairs, r.numRelLevels); ok {
		lo, hi = min(lo, float64(lowest)), max(hi, float64(highest))
	}
	if lo < 0 || hi > 1 {
		for k := range g {
			g[k].gain = (g[k].gain - lo) / (hi - lo)
		}
	}
	sum, cur := 0.0, 1.0
	for _, rel := range r.rel {
		if gain := getGain(int64(rel), g); gain != 0 {
			sum += gain * cur
		}
		cur *= p
	}
	out[0] = (1 - p) * sum
}

// unjudgedLevelRange returns the lowest and highest of the levels 0 …
// numRelLevels−1 that no level=gain parameter names: those of trec_eval's
// gain table (gain_init.c) whose gain is their level.
func unjudgedLevelRange(pairs []gainPair, numRelLevels int64) (lowest, highest int64, ok bool) {
	named := func(l int64) bool {
		for _, p := range pairs {
			if validInt(p.name) && atol([]byte(p.name)) == l {
				return true
			}
		}
		return false
	}
	lowest = 0
	for lowest < numRelLevels && named(lowest) {
		lowest++
	}
	if lowest == numRelLevels {
		return 0, 0, false
	}
	highest = numRelLevels - 1
	for named(highest) {
		highest--
	}
	return lowest, highest, true
}

// calcRBPResid: the RBP residual, p^num_ret + (1−p) Σ_{unjudged rank k}
// p^(k−1), p = 0.9 unless given as "p=…" (as for rbp), when some retrieved
// document is unjudged; else 0. m_rbp_resid.c
func calcRBPResid(r *ranking, m *Measure, out []float64) {
	p := rbpPersistence(m)
	var unj int64
	sum, cur := 0.0, 1.0
	for _, rel := range r.rel {
		if rel < 0 {
			unj++
			sum += cur
		}
		cur *= p
	}
	if unj != 0 {
		out[0] = cur + (1-p)*sum
	}
}

// rbpPersistence returns the last "p=…" parameter of m, else 0.9 (m_rbp.c,
// m_rbp_resid.c). p is a variable, never a constant: 1 − p must be
// rounded in double precision as C does (0.09999999999999998 for 0.9), not
// folded exactly to 0.1 by the Go compiler.
func rbpPersistence(m *Measure) float64 {
	p := 0.9
	for _, pr := range m.pairs {
		if pr.name == "p" {
			p = pr.value
		}
	}
	return p
}

// calcYaap: yet another average precision (Robertson, ECIR 2012),
// log((1 + S)/(1 + num_rel − S)) with S = Σ_{relevant rank k} (relevant in
// top k)/k. m_yaap.c
func calcYaap(r *ranking, _ *Measure, out []float64) {
	var relSoFar int64
	sum := 0.0
	for i := range r.rel {
		if r.isRel(i) {
			relSoFar++
			sum += float64(relSoFar) / float64(i+1)
		}
	}
	out[0] = cLog((1 + sum) / (1 + float64(r.numRel) - sum))
}
