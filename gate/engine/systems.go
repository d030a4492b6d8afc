package engine

import (
	"fmt"
	"slices"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

// Systems named on the command line (riskgate fit, compare, pair): the
// champion, the challengers, pair's two systems. Challenger globs have one syntax everywhere, the policies'
// (policies.Pattern: * matches any run of characters, ? any one).

// LookupSystem returns the index of the system called name in t; role says
// what the name is for ("champion", "--a") in the error for an unknown name.
func LookupSystem(t *scores.Table, role, name string) (int, error) {
	if i := t.SystemIndex(name); i >= 0 {
		return i, nil
	}
	return -1, t.UnknownSystemError(role, name)
}

// MatchChallengers resolves --challenger patterns to system indices, in the
// order the patterns and then the table name them, without duplicates. A
// pattern that is a system's exact name selects that system; otherwise it is
// a policies.Pattern glob, which never selects the champion. Naming the champion
// is an error, and so is a pattern that matches nothing.
func MatchChallengers(t *scores.Table, patterns []string, champ int) ([]int, error) {
	var out []int
	for _, p := range patterns {
		if p == t.Systems[champ] {
			return nil, fmt.Errorf("challenger %q is the champion", p)
		}
		// A system's exact name is never read as a glob ("run[2]" is a name).
		if s := t.SystemIndex(p); s >= 0 {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
			continue
		}
		glob := policies.Pattern{Text: p}
		found, champMatched := false, false
		for s, name := range t.Systems {
			if !glob.Match(name) {
				continue
			}
			if s == champ {
				champMatched = true
				continue
			}
			found = true
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		switch {
		case !found && champMatched:
			return nil, fmt.Errorf("--challenger %q matches only the champion", p)
		case !found:
			return nil, t.UnknownSystemError("--challenger", p)
		}
	}
	return out, nil
}
