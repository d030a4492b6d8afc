package result

import (
	"encoding/json"
	"reflect"
	"time"

	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/policies"
)

// NewPolicy describes the policy p as a run that started at now applied it
// (which of its waivers were active then).
func NewPolicy(p *policies.Policy, now time.Time) Policy {
	rp := Policy{
		Name: p.Name, File: p.File, SHA256: p.Digest, Description: p.Description, Default: p.File == policies.StarterName,
		LossWeight: p.LossWeight, Seed: p.Seed,
		Model:          Model{Family: p.Model.Family, Chains: p.Model.Chains, TargetESS: p.Model.TargetESS, MaxRhat: p.Model.MaxRhat, MaxDraws: p.Model.MaxDraws},
		Requirements:   Requirements{MinTopics: p.Requirements.MinTopics, MinArtifacts: p.Requirements.MinArtifacts, MinTopicCoverage: p.Requirements.MinTopicCoverage},
		Select:         p.Select,
		OnInconclusive: p.OnInconclusive,
		Rules:          []Rule{},
	}
	if p.Select == policies.SelectBest {
		rp.RankBy = p.RankBy
	}
	for _, rule := range p.Rules {
		rp.Rules = append(rp.Rules, Rule{
			ID: rule.ID, Line: rule.Pos.Line, Column: rule.Pos.Column, Quantity: rule.Quantity.Name,
			Query: p.Query(rule).String(), Bound: rule.Bound, BoundWords: rule.Bound.Words(),
			Severity: rule.Severity, Description: rule.Description,
		})
	}
	for _, w := range p.Waivers {
		rp.Waivers = append(rp.Waivers, Waiver{Rule: w.Rule, Challenger: w.Challenger.Text, Reason: w.Reason,
			Approver: w.Approver, Expires: w.ExpiresText(), Active: w.Active(now)})
	}
	return rp
}

// policyDifference returns the first field (by its JSON name) in which two
// descriptions of a policy differ, other than the file's path — the same
// file may be named differently in two jobs — with both values as JSON cut
// to 60 characters; "" when they agree.
func policyDifference(got, want Policy) (field, gotJSON, wantJSON string) {
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"name", got.Name, want.Name}, {"sha256", got.SHA256, want.SHA256}, {"description", got.Description, want.Description},
		{"default", got.Default, want.Default}, {"loss_weight", got.LossWeight, want.LossWeight}, {"seed", got.Seed, want.Seed},
		{"model", got.Model, want.Model}, {"requirements", got.Requirements, want.Requirements}, {"select", got.Select, want.Select},
		{"rank_by", got.RankBy, want.RankBy}, {"on_inconclusive", got.OnInconclusive, want.OnInconclusive},
		{"rules", got.Rules, want.Rules}, {"waivers", got.Waivers, want.Waivers},
	} {
		if !reflect.DeepEqual(f.got, f.want) {
			return f.name, jsonExcerpt(f.got), jsonExcerpt(f.want)
		}
	}
	return "", "", ""
}

// jsonExcerpt is v as JSON, cut to 60 characters, with every character a
// reader could not see shown (escape.Printable), for an error line.
func jsonExcerpt(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return escape.Printable(escape.Clip(string(data), 60))
}

// AdoptPolicy makes every name, digest and bound r states of its policy the
// trusted file's: the policy section as NewPolicy gives it, what each rule
// result repeats of its rule (id, description, quantity, query, severity,
// bound and its words) — the provenance's policy file and SHA-256 follow,
// being copies of the policy's — and decision_sha256 recomputed. Call it only after
// r.Check(file, trusted) has found them equal but for the file's path (riskgate
// publish --policy), so that the reports name the trusted file.
func (r *Result) AdoptPolicy(trusted *policies.Policy) error {
	now, err := time.Parse(time.RFC3339, r.Provenance.StartedAt)
	if err != nil {
		return err
	}
	r.Policy = NewPolicy(trusted, now)
	r.Decision.Policy = trusted.Name
	// What each rule result repeats of its rule (Check matched them in order).
	for ci := range r.Decision.Challengers {
		for i := range r.Decision.Challengers[ci].Rules {
			rr, rule := &r.Decision.Challengers[ci].Rules[i], trusted.Rules[i]
			rr.Rule, rr.Description, rr.Quantity, rr.Query = rule.ID, rule.Description, rule.Quantity.Name, trusted.Query(rule)
			rr.Severity, rr.Bound, rr.BoundWords = rule.Severity, rule.Bound, rule.Bound.Words()
		}
	}
	r.DecisionSHA256, err = r.DecisionDigest()
	return err
}
