package gate

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/shared"
)

// A gate decides on NTCIREVAL's measures (issue 27): a Q-measure rule that
// must improve and an nERR@10 guardrail, on ../shared's robust03 runs and
// qrels, champion rutcor03100.
//
// Reference: the per-topic Q of gate/ntcir (equal to NTCIREVAL's published
// outputs at 4 decimals and to an independent implementation to 1e-12,
// gate/ntcir's tests), through the one-sided paired t test
// written out here (t = mean(d)/(sd(d)/√n), p = P(T_{n−1} > t), as R's
// t.test(paired = TRUE, alternative = "greater")). Tolerance: 1e-9
// relative — the same numbers through the same formula.
func TestGateOnNTCIRMeasures(t *testing.T) {
	t.Parallel()
	dir := shared.Path(t, "data/trec_eval/robust03")
	qrels := filepath.Join(dir, "qrels.txt")
	runs := map[string]string{}
	for _, r := range []string{"NLPR03vb10", "pircRBa1", "rutcor03100"} {
		runs[r] = filepath.Join(dir, "runs", r+".run")
	}
	policy := filepath.Join(t.TempDir(), "q.yaml")
	if err := os.WriteFile(policy, []byte(`version: 1
name: q-primary
champion: rutcor03100
challengers: ["*"]
loss_weight: 2
inputs:
  measure: Q
rules:
  - {id: q-better, quantity: tests.paired_t.p, alternative: greater, correction: none, at_most: 0.025}
  - {id: nerr-guard, quantity: bca.lo, measure: nERR@10, margin: 0.02, at_least: 0}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := runMain(t, "gate", "--policy", policy, "--format", "json", "--qrels", qrels,
		runs["NLPR03vb10"], runs["pircRBa1"], runs["rutcor03100"])
	if status != 0 {
		t.Fatalf("exit %d, want 0 (pircRBa1 ships)\n%s", status, stderr)
	}
	var r struct {
		Decision struct {
			Selected    []string `json:"selected"`
			Challengers []struct {
				Name  string `json:"name"`
				Rules []struct {
					Rule     string `json:"rule"`
					Measure  string `json:"measure"`
					Observed struct {
						Number *float64 `json:"number"`
					} `json:"observed"`
				} `json:"rules"`
			} `json:"challengers"`
		} `json:"decision"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Decision.Selected) != 1 || r.Decision.Selected[0] != "pircRBa1" {
		t.Errorf("selected %v, want [pircRBa1]", r.Decision.Selected)
	}
	champion := perTopicQ(t, qrels, runs["rutcor03100"])
	for _, c := range r.Decision.Challengers {
		q := perTopicQ(t, qrels, runs[c.Name])
		want := pairedTGreater(t, q, champion)
		measures := map[string]string{}
		for _, rule := range c.Rules {
			measures[rule.Rule] = rule.Measure
			if rule.Rule != "q-better" {
				continue
			}
			if rule.Observed.Number == nil {
				t.Fatalf("%s: q-better has no value", c.Name)
			}
			if got := *rule.Observed.Number; math.Abs(got-want) > 1e-9*want {
				t.Errorf("%s: q-better p = %.15g, want %.15g (paired t on eval's per-topic Q)", c.Name, got, want)
			}
		}
		if measures["q-better"] != "Q" || measures["nerr-guard"] != "nERR@10" {
			t.Errorf("%s: rule measures %v, want q-better on Q and nerr-guard on nERR@10", c.Name, measures)
		}
	}
}

// perTopicQ is run's per-topic Q against qrels, at full precision, as
// gate/scores computes it for every command (`riskgate eval -q -m Q`
// prints the same values at 4 decimals).
func perTopicQ(t *testing.T, qrels, run string) map[string]float64 {
	t.Helper()
	tab, err := scores.Load([]string{run}, scores.LoadOptions{Measures: []string{"Q"}, Qrels: qrels})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for i, topic := range tab.Topics {
		out[topic] = tab.Scores[0][i]
	}
	return out
}

// pairedTGreater is the one-sided paired t test's p-value of a over b on
// their common topics.
func pairedTGreater(t *testing.T, a, b map[string]float64) float64 {
	t.Helper()
	var d []float64
	for topic, x := range a {
		if y, ok := b[topic]; ok {
			d = append(d, x-y)
		}
	}
	n := float64(len(d))
	if n < 3 {
		t.Fatalf("%v common topics", n)
	}
	mean := 0.0
	for _, x := range d {
		mean += x
	}
	mean /= n
	ss := 0.0
	for _, x := range d {
		ss += (x - mean) * (x - mean)
	}
	tt := mean / math.Sqrt(ss/(n-1)/n)
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Survival(tt)
}
