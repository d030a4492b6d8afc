// Package ntcir computes the ranked-retrieval measures of NTCIREVAL, Tetsuya
// Sakai's evaluation toolkit (ntcir_eval compute, version 190111): RR,
// O-measure, P-measure, P+, AP, Q-measure, the four NCU variants, RBP, ERR
// and, at a cutoff k, AP@k, Q@k, nDCG@k (Järvelin and Kekäläinen's original
// form), MSnDCG@k, P@k, nERR@k and Hit@k, with graded gains per relevance
// level (ntcir_eval's -g L1:L2:…) and condensed lists (label -j: unjudged
// documents removed before scoring).
//
// The package is pure: it scores one topic's ranked list of relevance
// levels against the topic's judgment counts (Scorer) and reads and prints
// measure names (Parse, Measure.String). Reading runs and qrels, ranking a
// run and averaging over topics are gate/trec's, which ranks a run as
// trec_eval does (score descending, ties by document id descending).
//
// Notation, used in every definition (Sakai, "Metrics, Statistics, Tests",
// PROMISE Winter School 2013; Sakai and Song, SIGIR 2011): the list has
// ranks r = 1 … L; ℓ(r) is the level of the document at rank r (an
// unjudged one is non-relevant); g(r) = gains[ℓ(r)] for ℓ(r) ≥ 1, else 0;
// I(r) = 1 when ℓ(r) ≥ 1; count(r) = Σ_{i≤r} I(i); cg(r) = Σ_{i≤r} g(i).
// R is the number of judged documents of level ≥ 1; the ideal list holds
// them in decreasing order of gain, with gains g*(r) and
// cg*(r) = Σ_{i≤min(r,R)} g*(i). The blended ratio is
//
//	BR(r) = (count(r) + β·cg(r)) / (r + β·cg*(r)),
//
// r1 is the rank of the first relevant document, rp the rank of the first
// document of the highest level the list holds (the preferred rank), and
// g_H the gain of the highest level the gains declare. A measure with
// nothing to normalise by (R = 0, an ideal value of 0) is 0.
//
// The numbers are checked against NTCIREVAL's own outputs published with
// pyNTCIREVAL (testdata/pyntcireval) at their printed 4 decimals, and against
// a second, independent implementation on random lists to 1e-12.
package ntcir
