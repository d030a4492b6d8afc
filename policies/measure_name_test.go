package policies

import (
	"strings"
	"testing"
)

// inputs.measure: a known measure with a bad parameter or cutoff is a policy
// error at the key's line and column; any other name is kept (a score
// file's own measure), in whichever spelling.
func TestInputsMeasureSyntax(t *testing.T) {
	t.Parallel()
	policy := func(measure string) string {
		return "version: 1\nname: t\nchampion: bm25\ninputs:\n  measure: " + measure +
			"\nrules:\n  - {id: r, quantity: tests.paired_t.p, alternative: greater, at_most: 0.05}\n"
	}
	for measure, want := range map[string]string{
		"Q(beta=0)":    `m.yaml:5:12: inputs.measure: measure "Q(beta=0)": beta = 0; expected a number > 0`,
		"nERR@0":       `m.yaml:5:12: inputs.measure: measure "nERR@0": cutoff "0"`,
		"RBP(p=2)":     "persistence p = 2; expected 0 < p < 1",
		"ntcir:nope@3": `no NTCIREVAL measure "nope@3"`,
	} {
		_, err := Parse("m.yaml", []byte(policy(measure)))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("measure %s: %v; want %q", measure, err, want)
		}
	}
	for _, measure := range []string{"map", "ndcg_cut.10", "nDCG@10", "Q", "nERR@10", "latency", "ERR@20", "P"} {
		p, err := Parse("m.yaml", []byte(policy(measure)))
		if err != nil || p.Inputs.Measure != measure {
			t.Errorf("measure %s: %v", measure, err)
		}
	}
}
