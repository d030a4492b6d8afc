package result

import (
	"slices"
	"testing"
)

// SetWarnings ranks a run's warnings: tied to rules first, then the
// policy's and the inputs', then those that affect no rule; and the count
// sets the last apart.
func TestWarningsRanked(t *testing.T) {
	t.Parallel()
	var r Result
	r.SetWarnings([]Warning{
		{Text: "zrisk", About: "risk"},
		{Text: "policy", About: AboutPolicy},
		{Text: "bca", About: "bca", Rules: []string{"not-riskier"}},
		{Text: "sweep", About: "brisk"},
	})
	if want := []string{"bca", "policy", "zrisk", "sweep"}; !slices.Equal(r.Warnings, want) {
		t.Errorf("order %q, want %q", r.Warnings, want)
	}
	if got := r.WarningsLabel(); got != "4 warnings (2 affect no rule)" {
		t.Errorf("label %q", got)
	}
	labels, _ := r.WarningList()
	if want := []string{"rule not-riskier", "policy", "affects no rule", "affects no rule"}; !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	for _, c := range []struct {
		ws   []Warning
		want string
	}{
		{nil, ""},
		{[]Warning{{Text: "z", About: "risk"}}, "1 warning (affects no rule)"},
		{[]Warning{{Text: "a", About: AboutInputs}}, "1 warning"},
		{[]Warning{{Text: "z", About: "risk"}, {Text: "y", About: "risk"}}, "2 warnings (none affects a rule)"},
		{[]Warning{{Text: "z", About: "risk"}, {Text: "b", About: "bca", Rules: []string{"r"}}}, "2 warnings (1 affects no rule)"},
	} {
		var r Result
		r.SetWarnings(c.ws)
		if got := r.WarningsLabel(); got != c.want {
			t.Errorf("%v: %q, want %q", c.ws, got, c.want)
		}
	}
	// A result.json without warning_details: the texts, nothing claimed about them.
	old := Result{Warnings: []string{"x"}}
	if got := old.WarningsLabel(); got != "1 warning" {
		t.Errorf("old result: %q", got)
	}
}
