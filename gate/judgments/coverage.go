package judgments

// TopicCoverage is how much of one topic's top k a system's ranking has
// judged.
type TopicCoverage struct {
	Topic     string
	Retrieved int // documents ranked (after -M)
	// Unjudged counts the documents of the top k without a judgment: not
	// in the topic's qrels, or in them with a negative level (trec_eval's
	// unj count).
	Unjudged int
	// Judged is judged@k = (k − Unjudged)/k, trec_eval's 1 − unj_k: ranks
	// past the end of the ranking count as judged, since no document there
	// can change a measure.
	Judged float64
}

// Coverage is a system's judged@k, topic by topic.
type Coverage struct {
	System string
	K      int64
	Topics []TopicCoverage
}

// NewCoverage returns the judged@k of every topic of s (k ≥ 1): the value
// riskgate eval -m judged@k prints for the run without -J.
func NewCoverage(s System, k int64) Coverage {
	c := Coverage{System: s.Name, K: k, Topics: make([]TopicCoverage, len(s.Topics))}
	for i, tl := range s.Topics {
		u := 0
		for _, l := range tl.Labels[:within(k, len(tl.Labels))] {
			if l < 0 {
				u++
			}
		}
		c.Topics[i] = TopicCoverage{Topic: tl.Topic, Retrieved: len(tl.Labels), Unjudged: u, Judged: float64(k-int64(u)) / float64(k)}
	}
	return c
}

// Mean returns the mean judged@k over the topics (0 without topics).
func (c Coverage) Mean() float64 {
	if len(c.Topics) == 0 {
		return 0
	}
	sum := 0.0
	for _, t := range c.Topics {
		sum += t.Judged
	}
	return sum / float64(len(c.Topics))
}

// Unjudged returns the number of unjudged documents in the top k over all
// topics.
func (c Coverage) Unjudged() int {
	n := 0
	for _, t := range c.Topics {
		n += t.Unjudged
	}
	return n
}

// MeanDiff returns the mean over the topics both systems have of c's
// judged@k minus base's (a challenger's coverage less the champion's), and
// the number of those topics.
func (c Coverage) MeanDiff(base Coverage) (diff float64, topics int) {
	other := make(map[string]float64, len(base.Topics))
	for _, t := range base.Topics {
		other[t.Topic] = t.Judged
	}
	for _, t := range c.Topics {
		if b, ok := other[t.Topic]; ok {
			diff += t.Judged - b
			topics++
		}
	}
	if topics > 0 {
		diff /= float64(topics)
	}
	return diff, topics
}
