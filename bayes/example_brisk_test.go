package bayes_test

import (
	"fmt"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/mcmc"
)

// BRisk on the five systems and five topics of Benham et al.'s Table 1
// (SIGIR 2020), with losses counted five times: Challenger 4 loses 0.12 and
// 0.16 on topics 306 and 311, which at w = 5 become −0.60 and −0.80. As the
// paper says of these five topics, no clear winner (nor loser) emerges; but
// topic 311 is a loss beyond what the model expects.
func ExampleBRisk() {
	t := &bayes.Table{
		Systems: []string{"Champion", "Challenger 1", "Challenger 2", "Challenger 3", "Challenger 4"},
		Topics:  []string{"301", "306", "311", "316", "321"},
		Scores: [][]float64{
			{0.05, 0.21, 0.48, 0.62, 0.29},
			{0.06, 0.24, 0.42, 0.62, 0.34},
			{0.06, 0.24, 0.43, 0.62, 0.34},
			{0.04, 0.19, 0.46, 0.62, 0.30},
			{0.19, 0.09, 0.32, 0.65, 0.34},
		},
	}
	r, err := bayes.BRisk(t, 0, 5, bayes.BRiskOptions{Hier: bayes.HierOptions{Sampler: mcmc.NUTSOptions{Seed: 1}, TargetESS: 4000}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("converged:", r.Converged)
	for _, c := range r.Challengers {
		fmt.Printf("%s: S − S_champion %+.2f [%+.2f, %+.2f], P(riskier) %.2f\n", c.Name, c.Diff.Mean, c.Diff.Lo, c.Diff.Hi, c.PRiskier)
		atRisk, err := r.TopicsAtRisk(c.System, r.Level)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, tr := range atRisk {
			fmt.Printf("  topic %s at risk: d = %.2f below [%.2f, %.2f]\n", tr.Topic, tr.Observed, tr.Lo, tr.Hi)
		}
	}
	// Output:
	// converged: true
	// Challenger 1: S − S_champion -0.01 [-0.17, +0.13], P(riskier) 0.57
	// Challenger 2: S − S_champion -0.01 [-0.17, +0.14], P(riskier) 0.56
	// Challenger 3: S − S_champion -0.02 [-0.18, +0.13], P(riskier) 0.58
	// Challenger 4: S − S_champion -0.08 [-0.31, +0.05], P(riskier) 0.82
	//   topic 311 at risk: d = -0.80 below [-0.66, 0.49]
}
