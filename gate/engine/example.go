package engine

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/scores"
)

// The pool of riskgate gate --example: a champion, three challengers that
// the default policy treats differently, 40 artifacts and 50 topics, average
// precision–like scores in [0, 1], the same on every machine.
//
// The champion and the artifacts come from the hierarchical model (package
// bayes's simulator) with the intercept, topic and system spreads of
// Robust04 (rb04.csv's posterior: intercept 0.31, sd_topic 0.19, sd_system
// 0.016) and a residual σ of 0.03: the artifacts are earlier runs of the same
// search system, which follow the champion topic by topic much more closely
// than the runs of different TREC groups in rb04.csv do (σ 0.10). (With
// σ 0.10 the risk-adjusted pool is so noisy that no challenger is credibly
// not riskier at w = 5, as on Robust04.) A challenger is a change to the
// champion's ranker, so its score on a topic is the champion's plus a
// per-topic difference:
//
//	candidate-better      +N(0.07, 0.02²): better on every topic, clearly
//	candidate-risky       +N(0.12, 0.03²) on 70% of the topics, −N(0.12, 0.03²) on the other 30%
//	                      (chosen at random): better on average, much worse on a third of the topics
//	candidate-equivalent  +N(0, 0.01²): no real change
//
// (clamped to [0, 1] like every score).

const (
	exampleSeed      = 20200725 // SIGIR 2020, where BRisk was published
	exampleArtifacts = 40
	exampleTopics    = 50
)

// ExampleChallengers are the example's challengers, in data order.
var ExampleChallengers = []string{"candidate-better", "candidate-risky", "candidate-equivalent"}

// ExamplePool simulates the example's score table.
func ExamplePool() *scores.Table {
	systems := append([]string{"production"}, NumberedNames("artifact-", exampleArtifacts)...)
	topics := make([]string, exampleTopics)
	for j := range topics {
		topics[j] = fmt.Sprint(301 + j)
	}
	truth := bayes.NewHierParams(rand.New(rand.NewPCG(exampleSeed, 1)), 0.31, 0.03, 0.19, 0.016, len(systems), len(topics))
	truth.System[0] = 0.02 // production is one of the better runs
	pool, err := truth.Scores(rand.New(rand.NewPCG(exampleSeed, 2)), systems, topics, bayes.ScoreOptions{Bound: true})
	if err != nil {
		panic("gate: the example pool: " + err.Error()) // fixed sizes: cannot happen
	}

	r := rand.New(rand.NewPCG(exampleSeed, 3))
	champ := pool.Scores[0]
	lossTopics := map[int]bool{}
	for _, j := range r.Perm(len(topics))[:len(topics)*3/10] {
		lossTopics[j] = true
	}
	delta := map[string]func(j int) float64{
		"candidate-better": func(int) float64 { return 0.07 + 0.02*r.NormFloat64() },
		"candidate-risky": func(j int) float64 {
			if lossTopics[j] {
				return -0.12 + 0.03*r.NormFloat64()
			}
			return 0.12 + 0.03*r.NormFloat64()
		},
		"candidate-equivalent": func(int) float64 { return 0.01 * r.NormFloat64() },
	}
	names := append([]string{"production"}, ExampleChallengers...)
	rows := [][]float64{champ}
	for _, c := range ExampleChallengers {
		row := make([]float64, len(topics))
		for j := range row {
			row[j] = min(1, max(0, champ[j]+delta[c](j)))
		}
		rows = append(rows, row)
	}
	names = append(names, systems[1:]...)
	rows = append(rows, pool.Scores[1:]...)

	t := scores.NewTable("ap", names, topics)
	for s := range rows {
		copy(t.Scores[s], rows[s])
	}
	return t
}

// NumberedNames returns prefix1 … prefixN, zero-padded to a common width.
func NumberedNames(prefix string, n int) []string {
	w := len(strconv.Itoa(n))
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%0*d", prefix, w, i+1)
	}
	return out
}
