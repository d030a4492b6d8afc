package result

import (
	"testing"

	"github.com/riskgate/riskgate/policies"
)

// FuzzReadCheck: riskgate publish reads result.json from an untrusted job;
// Read and Check — with the file's own policy and with a trusted one — return
// an error for anything they refuse, never panic, and a result Check accepts
// against the trusted policy adopts it whole.
func FuzzReadCheck(f *testing.F) {
	trusted, err := policies.Parse("trusted.yaml", []byte("version: 1\nname: p\nselect: best\nrank_by: mean_diff\nrules:\n  - {id: r, quantity: mean_diff, at_least: 0}\n"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(`{"schema_version":1,"verdict":"pass","decision":{"verdict":"pass","select":"best","challengers":[{"name":"a","rules":[{"rule":"r","quantity":"mean_diff","bound":{"at_least":0},"observed":{"number":1},"outcome":"pass"}]}]},"policy":{"select":"best","rank_by":"mean_diff","rules":[{"id":"r","quantity":"mean_diff","bound":{"at_least":0}}]},"decision_sha256":"x","provenance":{"started_at":"2026-01-01T00:00:00Z"}}`))
	f.Add([]byte(`{"schema_version":1,"verdict":"fail","exit_status":1,"decision":{"policy":"p","verdict":"fail","raw_verdict":"fail","select":"all","challengers":[{"name":"a","verdict":"fail","rules":[{"rule":"t","quantity":"tests.paired_t.p","bound":{"at_most":0.05},"severity":"fail","observed":{"number":0.35},"unadjusted":{"number":0.35},"correction":"holm","outcome":"fail"},{"rule":"w","quantity":"mean_diff","bound":{"in":[-1,1]},"severity":"warn","observed":{"number":2},"outcome":"waived","waived_outcome":"warn"}]},{"name":"b","verdict":"pass","rules":[{"rule":"t","quantity":"tests.paired_t.p","bound":{"at_most":0.05},"severity":"fail","observed":{"number":0.02},"unadjusted":{"number":0.01},"correction":"holm","outcome":"pass"},{"rule":"w","quantity":"mean_diff","bound":{"in":[-1,1]},"severity":"warn","observed":{"number":0},"outcome":"pass"}]}]},"policy":{"name":"p","select":"all","rules":[{"id":"t","quantity":"tests.paired_t.p","bound":{"at_most":0.05},"severity":"fail"},{"id":"w","quantity":"mean_diff","bound":{"in":[-1,1]},"severity":"warn"}],"waivers":[{"rule":"w","challenger":"a*","expires":"2030-01-01","active":true}]},"provenance":{"started_at":"2026-01-01T00:00:00Z"}}`))
	// A by: rule with its segments (issue 26).
	f.Add([]byte(`{"schema_version":1,"verdict":"fail","exit_status":1,"decision":{"policy":"p","verdict":"fail","raw_verdict":"fail","select":"best","rank_by":"mean_diff","challengers":[{"name":"a","verdict":"fail","rules":[{"rule":"r","quantity":"mean_diff","bound":{"at_least":0},"severity":"fail","observed":{"number":-0.1},"outcome":"fail","by":"origin","by_semantics":"all_pass","segment":"b","segments":[{"segment":"a","topics":3,"observed":{"number":0.1},"outcome":"pass"},{"segment":"b","topics":4,"observed":{"number":-0.1},"before_margin":{"number":-0.2},"outcome":"fail","reason":"x"}]}]}]},"policy":{"name":"p","select":"best","rank_by":"mean_diff","rules":[{"id":"r","quantity":"mean_diff","bound":{"at_least":0},"severity":"fail"}]},"segments":[{"dimension":"origin","measure":"ap","challengers":[{"name":"a","worst":"b","rows":[{"segment":"b","topics":4,"champion_mean":0.3,"delta":-0.1,"lo":-0.2,"hi":0,"level":0.95,"pooled":{"fit":"raw scores","mean":-0.05,"lo":-0.1,"hi":0,"level":0.95,"margin":0.02,"p_worse":0.8,"p_worse_mcse":0.01},"outcome":"fail","rules":["r"]}]}]}],"provenance":{"started_at":"2026-01-01T00:00:00Z"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Read("result.json", data)
		if err != nil {
			return
		}
		r.DecisionSHA256, _ = r.DecisionDigest() // reach the recheck
		_ = r.Check("result.json", nil)
		r.Policy.SHA256 = trusted.Digest // reach the trusted policy's checks
		r.DecisionSHA256, _ = r.DecisionDigest()
		if r.Check("result.json", trusted) != nil {
			return
		}
		if err := r.AdoptPolicy(trusted); err != nil {
			t.Fatalf("AdoptPolicy after Check: %v", err)
		}
		if r.Policy.Name != trusted.Name || r.Decision.Policy != trusted.Name || r.Check("result.json", trusted) != nil {
			t.Fatalf("a result that adopted the trusted policy: name %q, decision of %q, check %v", r.Policy.Name, r.Decision.Policy, r.Check("result.json", trusted))
		}
	})
}
