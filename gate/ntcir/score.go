package ntcir

import (
	"math"
	"slices"
)

// Scorer computes the measures of one topic's ranked list. It keeps
// scratch space from topic to topic, so one Scorer serves one goroutine.
//
// Reset gives it the list and the topic's judgments; Value prepares, once
// per gains and condensing, what every measure reads (the relevant ranks
// with count(r), cg(r) and g(r), and the ideal list's cumulative gains),
// then computes the measure from them: each measure costs a pass over the
// relevant ranks, or over k ranks of the ideal list.
type Scorer struct {
	ranked   []int32   // level of each rank; negative: no judgment
	judged   []int64   // judged[l]: judged documents of level l
	defGains []float64 // gains of the measures that name none

	// What prepare computed, and for which gains and condensing.
	ready     bool
	gains     []float64
	condensed bool
	length    int       // L: ranks of the (condensed) list
	relRank   []int     // the ranks r (1-based) with I(r) = 1, increasing
	relGain   []float64 // g(r) at those ranks
	relCG     []float64 // cg(r) at those ranks
	r1, rp    int       // first relevant rank; preferred rank (0: none)
	numRel    int       // R
	idealGain []float64 // g*(1 … R)
	idealCG   []float64 // cg*(0 … R)
	topGain   float64   // g_H
}

// Reset sets the topic: ranked[i] is the level of the document at rank i+1
// (0 judged non-relevant, negative without judgment), judged[l] the number
// of judged documents of level l ≥ 0, and gains the gains of levels 1, 2, …
// for measures that do not name their own. A level above the gains' highest
// gains as much as the highest (callers refuse such qrels). Neither slice
// may change until the topic's values are read.
func (s *Scorer) Reset(ranked []int32, judged []int64, gains []float64) {
	s.ranked, s.judged, s.defGains = ranked, judged, gains
	s.ready = false
}

// gainOf returns the gain of level l ≥ 1 under gains.
func gainOf(gains []float64, l int32) float64 {
	if int(l) > len(gains) {
		return gains[len(gains)-1]
	}
	return gains[l-1]
}

// prepare computes what the measures read, for gains and condensed, unless
// it already has.
func (s *Scorer) prepare(gains []float64, condensed bool) {
	if s.ready && s.condensed == condensed && len(s.gains) == len(gains) && (len(gains) == 0 || &s.gains[0] == &gains[0]) {
		return
	}
	s.ready, s.gains, s.condensed = true, gains, condensed
	s.relRank, s.relGain, s.relCG = s.relRank[:0], s.relGain[:0], s.relCG[:0]
	s.r1, s.rp = 0, 0
	rank, cg := 0, 0.0
	top := int32(0)
	for _, l := range s.ranked {
		if l < 0 && condensed {
			continue
		}
		rank++
		if l < 1 {
			continue
		}
		g := gainOf(gains, l)
		cg += g
		s.relRank = append(s.relRank, rank)
		s.relGain = append(s.relGain, g)
		s.relCG = append(s.relCG, cg)
		if s.r1 == 0 {
			s.r1 = rank
		}
		if l > top {
			top, s.rp = l, rank
		}
	}
	s.length = rank
	s.topGain = gains[len(gains)-1]

	// The ideal list: the judged relevant documents, highest level first
	// (gains do not decrease with the level).
	s.numRel = 0
	for l := 1; l < len(s.judged); l++ {
		s.numRel += int(s.judged[l])
	}
	s.idealGain = slices.Grow(s.idealGain[:0], s.numRel)
	for l := len(s.judged) - 1; l >= 1; l-- {
		g := gainOf(gains, int32(l))
		for range s.judged[l] {
			s.idealGain = append(s.idealGain, g)
		}
	}
	s.idealCG = slices.Grow(s.idealCG[:0], s.numRel+1)
	s.idealCG = append(s.idealCG, 0)
	for i, g := range s.idealGain {
		s.idealCG = append(s.idealCG, s.idealCG[i]+g)
	}
}

// idealCGAt is cg*(r).
func (s *Scorer) idealCGAt(r int) float64 { return s.idealCG[min(r, s.numRel)] }

// br is the blended ratio at the i-th relevant rank.
func (s *Scorer) br(i int, beta float64) float64 {
	r := s.relRank[i]
	return (float64(i+1) + beta*s.relCG[i]) / (float64(r) + beta*s.idealCGAt(r))
}

// Value returns the measure's value for the topic set by Reset.
func (s *Scorer) Value(m Measure) float64 {
	gains := m.Gains
	if gains == nil {
		gains = s.defGains
	}
	s.prepare(gains, m.Condensed)
	R := s.numRel
	switch m.Kind {
	case RR:
		if s.r1 == 0 {
			return 0
		}
		return 1 / float64(s.r1)
	case OMeasure:
		if s.r1 == 0 {
			return 0
		}
		return s.br(0, m.Beta)
	case PMeasure, PPlus:
		if s.rp == 0 {
			return 0
		}
		n := s.relAtOrAbove(s.rp)
		if m.Kind == PMeasure {
			return s.br(n-1, m.Beta)
		}
		sum := 0.0
		for i := range n {
			sum += s.br(i, m.Beta)
		}
		return sum / float64(n)
	case AP, APAt, Q, QAt:
		n, norm := len(s.relRank), R
		if m.HasCutoff() {
			n, norm = s.relAtOrAbove(m.Cutoff), min(m.Cutoff, R)
		}
		if norm == 0 {
			return 0
		}
		sum := 0.0
		for i := range n {
			if m.Kind == AP || m.Kind == APAt {
				sum += float64(i+1) / float64(s.relRank[i])
			} else {
				sum += s.br(i, m.Beta)
			}
		}
		return sum / float64(norm)
	case NCUguP, NCUguBR:
		total := s.idealCG[R]
		if total == 0 {
			return 0
		}
		sum := 0.0
		for i, r := range s.relRank {
			u := float64(i+1) / float64(r)
			if m.Kind == NCUguBR {
				u = s.br(i, m.Beta)
			}
			sum += s.relGain[i] / total * u
		}
		return sum
	case NCUrbP, NCUrbBR:
		if R == 0 {
			return 0
		}
		p := m.Persistence
		norm := 1 - math.Pow(p, float64(R))
		sum := 0.0
		for i, r := range s.relRank {
			u := float64(i+1) / float64(r)
			if m.Kind == NCUrbBR {
				u = s.br(i, m.Beta)
			}
			sum += (1 - p) * math.Pow(p, float64(i)) / norm * u
		}
		return sum
	case RBP:
		p := m.Persistence
		sum := 0.0
		for i, r := range s.relRank {
			sum += math.Pow(p, float64(r-1)) * s.relGain[i]
		}
		return (1 - p) * sum / s.topGain
	case ERR:
		return s.err(s.length)
	case NDCGAt, MSNDCGAt:
		ideal := 0.0
		for i, g := range s.idealGain[:min(m.Cutoff, R)] {
			ideal += g / s.discount(m, i+1)
		}
		if ideal == 0 {
			return 0
		}
		dcg := 0.0
		for i := range s.relAtOrAbove(m.Cutoff) {
			dcg += s.relGain[i] / s.discount(m, s.relRank[i])
		}
		return dcg / ideal
	case PAt:
		return float64(s.relAtOrAbove(m.Cutoff)) / float64(m.Cutoff)
	case NERRAt:
		ideal, stay := 0.0, 1.0
		for i, g := range s.idealGain[:min(m.Cutoff, R)] {
			pr := g / (s.topGain + 1)
			ideal += stay * pr / float64(i+1)
			stay *= 1 - pr
		}
		if ideal == 0 {
			return 0
		}
		return s.err(m.Cutoff) / ideal
	case HitAt:
		if s.r1 != 0 && s.r1 <= m.Cutoff {
			return 1
		}
		return 0
	}
	return math.NaN() // no such kind
}

// relAtOrAbove is count(k): the relevant ranks ≤ k.
func (s *Scorer) relAtOrAbove(k int) int {
	n, _ := slices.BinarySearch(s.relRank, k+1)
	return n
}

// err is ERR over the top k ranks: Σ (Pr(r)/r) Π_{i<r} (1 − Pr(i)) with
// Pr(r) = g(r)/(g_H + 1); non-relevant ranks have Pr = 0.
func (s *Scorer) err(k int) float64 {
	sum, stay := 0.0, 1.0
	for i := range s.relAtOrAbove(k) {
		pr := s.relGain[i] / (s.topGain + 1)
		sum += stay * pr / float64(s.relRank[i])
		stay *= 1 - pr
	}
	return sum
}

// discount is nDCG@k's max(1, log_b r) or MSnDCG@k's log₂(r + 1).
func (s *Scorer) discount(m Measure, r int) float64 {
	if m.Kind == MSNDCGAt {
		return math.Log2(float64(r) + 1)
	}
	if float64(r) < m.LogBase {
		return 1
	}
	return math.Log(float64(r)) / math.Log(m.LogBase)
}
