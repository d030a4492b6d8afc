package policies

import (
	"slices"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/inputerr"
)

// Roles are the systems of a score table by the part they play.
type Roles struct {
	Champion    string   `json:"champion"`
	Challengers []string `json:"challengers"` // in data order
	Artifacts   []string `json:"artifacts"`   // every other system, in data order
}

// Roles assigns the systems of the data (in data order) to the champion, the
// challengers (every system matching a challenger pattern, except the
// champion) and the artifacts (the rest). A champion not in the data, a
// pattern that matches no system, or no champion or challengers at all are
// errors, positioned in the policy file when the value came from it.
func (p *Policy) Roles(systems []string) (Roles, error) {
	if p.Champion == "" {
		return Roles{}, inputerr.At(p.File, 0, "no champion: name it in the policy (champion: NAME) or with --champion")
	}
	if len(p.Challengers) == 0 {
		return Roles{}, inputerr.At(p.File, 0, "no challengers: list them in the policy (challengers: [NAME or GLOB, …]) or with --challenger")
	}
	if !slices.Contains(systems, p.Champion) {
		return Roles{}, inputerr.AtCol(p.File, p.ChampionPos.Line, p.ChampionPos.Column,
			"champion %q is not in the data%s%s", clip(p.Champion), scores.SystemHint(p.Champion, systems), flagHint(p.ChampionPos, "--champion"))
	}
	r := Roles{Champion: p.Champion}
	for _, pat := range p.Challengers {
		if pat.Text == p.Champion {
			return Roles{}, inputerr.AtCol(p.File, pat.Pos.Line, pat.Pos.Column, "%q is the champion; a system cannot also be a challenger", pat.Text)
		}
		n := 0
		for _, s := range systems {
			if pat.Match(s) && s != p.Champion {
				n++
			}
		}
		if n == 0 {
			return Roles{}, inputerr.AtCol(p.File, pat.Pos.Line, pat.Pos.Column,
				"challenger %q matches no system in the data other than the champion%s%s", clip(pat.Text), scores.SystemHint(pat.Text, systems), flagHint(pat.Pos, "--challenger"))
		}
	}
	for _, s := range systems {
		switch {
		case s == p.Champion:
		case slices.ContainsFunc(p.Challengers, func(pat Pattern) bool { return pat.Match(s) }):
			r.Challengers = append(r.Challengers, s)
		default:
			r.Artifacts = append(r.Artifacts, s)
		}
	}
	return r, nil
}

// flagHint points to the flag that sets a role the policy file does not
// (a command-line value, or the built-in default policy).
func flagHint(at Pos, flag string) string {
	if at.Line > 0 {
		return ""
	}
	return "; set it with " + flag
}
