package judgments

import (
	"path/filepath"

	"github.com/riskgate/riskgate/gate/trec"
)

// System is one run ranked and labelled against the qrels: its topics that
// the qrels judge, in the qrels' order (trec.Rank).
type System struct {
	Name   string
	Topics []trec.TopicList
}

// RankRuns ranks and labels each run against q under opt (-M; -J is
// ignored: the labels say which documents are unjudged). A system is named
// by its run_id, else by its file's name, as the score loaders name it.
func RankRuns(runs []*trec.Run, q *trec.Qrels, opt trec.Options) ([]System, error) {
	out := make([]System, len(runs))
	for i, run := range runs {
		lists, err := trec.Rank(run, q, opt)
		if err != nil {
			return nil, err
		}
		name := run.RunID
		if name == "" {
			name = filepath.Base(run.Name)
		}
		out[i] = System{Name: name, Topics: lists}
	}
	return out, nil
}

// within returns how many ranks of a list of n documents a measure that
// reads depth ranks (0: all) reads.
func within(depth int64, n int) int {
	if depth <= 0 || depth > int64(n) {
		return n
	}
	return int(depth)
}

// withLevel returns levels (increasing, as trec.Qrels.Levels gives them)
// with n more judgments of level.
func withLevel(levels []trec.LevelCount, level, n int64) []trec.LevelCount {
	out := make([]trec.LevelCount, 0, len(levels)+1)
	added := false
	for _, lc := range levels {
		if !added && lc.Level >= level {
			if lc.Level == level {
				lc.Count += n
			} else {
				out = append(out, trec.LevelCount{Level: level, Count: n})
			}
			added = true
		}
		out = append(out, lc)
	}
	if !added {
		out = append(out, trec.LevelCount{Level: level, Count: n})
	}
	return out
}
