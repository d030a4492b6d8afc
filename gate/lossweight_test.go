package gate

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/policies"
)

// Issue 23, defect 12: --loss-weight 0.5 and --risk-sweep 0.5 were accepted
// although a policy's loss_weight below 1 is refused (with 0.5, rb04's
// Chal. 3 passed not-riskier). Every flag that gives a loss weight is now
// checked by the policy's own check.
func TestLossWeightFlagsCheckedAsThePolicy(t *testing.T) {
	t.Parallel()
	small := filepath.Join("testdata", "compare_small.csv")
	roles := []string{"--champion", "base", "--challenger", "fusion", small}
	const below = "must be at least 1 (losses count w times; 1 = no extra weight), got "
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"gate", "--example", "--loss-weight", "0.5"}, "--loss-weight: " + below + "0.5; if you meant the extra weight alpha 0.5, give --loss-weight 1.5"},
		{[]string{"gate", "--example", "--loss-weight", "1e7"}, "--loss-weight: must be at most 1e+06 (losses count w times), got 1e+07"},
		{[]string{"gate", "--example", "--loss-weight", "NaN"}, "--loss-weight: expected a finite number, got NaN"},
		{[]string{"gate", "--example", "--alpha", "-0.5"}, "--alpha: must be at least 0 (losses count 1 + alpha times), got -0.5"},
		{[]string{"gate", "--example", "--risk-sweep", "1,0.5"}, "--risk-sweep: " + below + "0.5"},
		{[]string{"gate", "--example", "--risk-sweep", "2,Inf"}, "--risk-sweep: expected a finite number, got +Inf"},
		{[]string{"calibrate", "--example", "--loss-weight", "0.5"}, "--loss-weight: " + below + "0.5"},
		{[]string{"calibrate", "--example", "--alpha", "-1"}, "--alpha: must be at least 0"},
		{append([]string{"compare", "--loss-weight", "0.5"}, roles...), "--loss-weight: " + below + "0.5"},
		{append([]string{"compare", "--alpha", "-0.5"}, roles...), "--alpha: must be at least 0"},
		{append([]string{"compare", "--alpha", "1e9"}, roles...), "--alpha: must be at most 999999"},
		{append([]string{"fit", "--loss-weight", "0.5"}, roles...), "--loss-weight: " + below + "0.5"},
		{append([]string{"fit", "--loss-weight", "-3"}, roles...), "--loss-weight: " + below + "-3"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Parallel()
			code, out, stderr := runMain(t, c.args...)
			checkOneLineError(t, code, out, stderr, c.want)
		})
	}
}

// A loss weight is accepted by a flag exactly when a policy accepts it:
// the same values, the same words.
func TestLossWeightFlagAndPolicyAgree(t *testing.T) {
	t.Parallel()
	for _, w := range []float64{-1, 0, 0.5, 0.999999, 1, 1.5, 5, 1e6, 1e6 + 1, 1e300} {
		policy := fmt.Sprintf("version: 1\nname: w\nchampion: a\nchallengers: [b]\nloss_weight: %v\nrules:\n  - {id: r, quantity: urisk, at_least: 0}\n", w)
		_, perr := policies.Parse("p.yaml", []byte(policy))
		ferr := checkLossWeightFlag("--loss-weight", w)
		if (perr == nil) != (ferr == nil) {
			t.Errorf("w = %v: policy %v, flag %v; want both accepted or both refused", w, perr, ferr)
			continue
		}
		if perr != nil {
			problem, _ := policies.CheckLossWeight(w)
			if !strings.Contains(perr.Error(), problem) || !strings.Contains(ferr.Error(), problem) {
				t.Errorf("w = %v: policy %q, flag %q; want both to say %q", w, perr, ferr, problem)
			}
		}
		_, serr := parseLossWeights("--risk-sweep", fmt.Sprint(w))
		if (serr == nil) != (ferr == nil) {
			t.Errorf("w = %v: --risk-sweep %v, --loss-weight %v", w, serr, ferr)
		}
	}
}
