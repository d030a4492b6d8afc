package gate

import (
	"strings"
	"testing"
)

// TestPolicyValidateRefusesUndecidable: a rule the engine cannot decide (a
// one-sided permutation test: no one-sided p-value in this build) is refused
// by policy validate with file:line:column and exit 2, where the gate would
// otherwise have been inconclusive at run time; one rule is "1 rule".
func TestPolicyValidateRefusesUndecidable(t *testing.T) {
	t.Parallel()
	const head = "version: 1\nname: p\nrules:\n  - id: perm\n    quantity: tests.permutation.p\n    at_most: 0.05\n"
	bad := writeTemp(t, "bad.yaml", head+"    alternative: greater\n")
	code, out, errw := runMain(t, "policy", "validate", bad)
	if code != exitError || out != "" || !strings.Contains(errw, bad+":7:18: rules[0].alternative: tests.permutation.p is two_sided only in this build") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errw)
	}
	code, _, errw = runMain(t, "gate", "--example", "--policy", bad)
	if code != exitError || !strings.Contains(errw, bad+":7:18:") {
		t.Errorf("gate with the undecidable rule: exit %d, stderr %q; want the same positioned error and 2", code, errw)
	}
	good := writeTemp(t, "good.yaml", head+"    alternative: two_sided\n")
	code, out, errw = runMain(t, "policy", "validate", good)
	if code != 0 || !strings.Contains(out, `valid policy "p": 1 rule; computes descriptive, tests`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errw)
	}
}
