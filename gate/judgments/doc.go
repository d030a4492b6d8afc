// Package judgments reasons about what the qrels have not judged, for runs
// scored against qrels: how much of each ranking is judged (Coverage,
// judged@k), how a measure changes with the assumption made about the
// unjudged documents (ScoreVariants: standard, condensed list, optimistic),
// which unjudged documents could change it and by how much (BuildWorklist),
// and the worklist file a judge fills in and riskgate reads back as extra
// judgments (WriteTSV, ReadTSV, Filled.Apply).
//
// Why: a ranker that did not contribute to the judging pool retrieves
// documents nobody judged. "Condensed-list metrics overestimate systems that
// did not contribute to the pool, while standard metrics underestimate
// them" (Sakai, "Metrics, Statistics, Tests", PROMISE Winter School 2013,
// seed 001; Sakai, SIGIR 2007). A decision that holds under both, and under
// the optimistic assumption, does not depend on the missing judgments; one
// that does not hold under all three needs judgments, and the worklist says
// which.
//
// The package is pure: it reads runs already ranked and labelled by
// gate/trec (trec.Rank) and scores one topic at a time with gate/trec's
// measures (trec.TopicScorer), so every value is the one riskgate eval
// prints for the same run and qrels.
package judgments
