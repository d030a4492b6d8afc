package result

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/policies"
)

// decided is what DecisionDigest covers: the verdict and exit status, the
// dry-run flag, the policy as applied, the decision with every rule's
// observed value, and the roles. Not the run's date, which goldens
// normalise: Check recomputes each waiver's activity from it instead.
type decided struct {
	Verdict     policies.Verdict   `json:"verdict"`
	ExitStatus  int                `json:"exit_status"`
	DryRun      bool               `json:"dry_run"`
	Policy      Policy             `json:"policy"`
	Decision    *policies.Decision `json:"decision"`
	Champion    string             `json:"champion"`
	Challengers []string           `json:"challengers"`
}

// DecisionDigest is the lower-case hex SHA-256 of the compact JSON
// (encoding/json, fields in declaration order) of the verdict, exit status,
// dry-run flag, policy, decision, champion and challengers.
// Reading result.json back gives the same bytes, so the digest of a result
// read is that of the result written unless the file was edited.
func (r *Result) DecisionDigest() (string, error) {
	data, err := json.Marshal(decided{
		Verdict: r.Verdict(), ExitStatus: r.ExitStatus(), DryRun: r.DryRun, Policy: r.Policy, Decision: r.Decision,
		Champion: r.Data.Champion, Challengers: r.Data.Challengers,
	})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// Check refuses a result read from file whose decision is not what its own
// records give: the digest must match, and the decision must recompute from
// the rules' observed values, bounds, severities and waivers
// (policies.Decision.Recheck). (Read has refused a file whose top-level
// verdict and exit status are not the decision's.)
// With trusted, the policy file the result must have applied (riskgate
// publish --policy), the rules, bounds and waivers rechecked are trusted's
// rather than the file's own, and the result's description of its policy
// (NewPolicy) and policy digests must be trusted's but for the file's path;
// AdoptPolicy then puts trusted's in their place.
// The error is an *inputerr.Error naming file.
func (r *Result) Check(file string, trusted *policies.Policy) error {
	bad := func(format string, args ...any) error {
		return inputerr.At(file, 0, "the result is inconsistent, refused: "+format, args...)
	}
	if r.DecisionSHA256 == "" {
		return bad("no decision_sha256; expected a result.json written by riskgate gate (this or a later version)")
	}
	digest, err := r.DecisionDigest()
	if err != nil {
		return bad("%v", err)
	}
	if digest != r.DecisionSHA256 {
		return bad("its decision does not have its decision_sha256 (%.12s…, recomputed %.12s…): it was edited after riskgate wrote it", r.DecisionSHA256, digest)
	}
	d := r.Decision
	switch {
	case d.Policy != r.Policy.Name:
		return bad("the decision is of policy %q, the result of %q", d.Policy, r.Policy.Name)
	case d.Select != r.Policy.Select:
		return bad("the decision selects %s, the policy %s", d.Select, r.Policy.Select)
	}
	now, err := time.Parse(time.RFC3339, r.Provenance.StartedAt)
	if err != nil {
		return bad("provenance.started_at %q: expected an RFC 3339 time", r.Provenance.StartedAt)
	}
	spec := policies.RecheckSpec{Rules: map[string]policies.RecheckRule{}, Select: r.Policy.Select, RankBy: r.Policy.RankBy,
		OnInconclusive: r.Policy.OnInconclusive, Now: now}
	for _, rule := range r.Policy.Rules {
		if _, dup := spec.Rules[rule.ID]; dup {
			return bad("rule %q appears twice in the policy", rule.ID)
		}
		spec.RuleIDs = append(spec.RuleIDs, rule.ID)
		spec.Rules[rule.ID] = policies.RecheckRule{Quantity: rule.Quantity, Bound: rule.Bound, Severity: rule.Severity}
	}
	for _, w := range r.Policy.Waivers {
		expires, err := time.Parse("2006-01-02", w.Expires)
		if err != nil {
			return bad("waiver of rule %s: expires %q: expected YYYY-MM-DD", w.Rule, w.Expires)
		}
		pw := &policies.Waiver{Rule: w.Rule, Challenger: policies.Pattern{Text: w.Challenger}, Expires: expires}
		if pw.Active(now) != w.Active {
			return bad("waiver of rule %s for %s: active %v, but it expires %s and the run started %s", w.Rule, w.Challenger, w.Active, w.Expires, r.Provenance.StartedAt)
		}
		spec.Waivers = append(spec.Waivers, pw)
	}
	if err := d.Recheck(spec); err != nil {
		return bad("%v", err)
	}
	if trusted != nil {
		if r.Policy.SHA256 != trusted.Digest {
			return bad("it was computed with a policy of SHA-256 %.12s…, not %s (%.12s…)", r.Policy.SHA256, trusted.File, trusted.Digest)
		}
		if err := d.Recheck(trusted.RecheckSpec(now)); err != nil {
			return bad("against %s: %v", trusted.File, err)
		}
		// The policy as applied — after any command-line override of the
		// loss weight or seed — must be the trusted file's in every field.
		if field, got, want := policyDifference(r.Policy, NewPolicy(trusted, now)); field != "" {
			return bad("policy.%s is %s; %s gives %s (a result computed with another policy, or with overrides of it)", field, got, trusted.File, want)
		}
		// (provenance.policy_sha256 is policy.sha256, checked above: Read
		// refused a file whose copy differs.)
		// Recheck matched the rule results to trusted's rules in order.
		for _, c := range d.Challengers {
			for i, rr := range c.Rules {
				if want := trusted.Query(trusted.Rules[i]); rr.Query.String() != want.String() {
					return bad("challenger %q, rule %s: query %s; %s gives %s", c.Name, rr.Rule, jsonExcerpt(rr.Query.String()), trusted.File, want)
				}
			}
		}
	}
	return nil
}
