package gate

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"
)

// compare without flags computes what the gate computes with the default
// policy: its BCa lower bound of URisk for each challenger (at the defaults
// table's loss weight, level, Bonferroni correction, seed and B) is the
// default policy's not-riskier bound before its margin, the number the
// gate's rule line and result.json's before_margin show. Before the one
// defaults table, compare's loss weight was 5 and the policy's 2 (issue 30).
func TestCompareReproducesTheGateWithoutFlags(t *testing.T) {
	t.Parallel()
	in := filepath.Join("testdata", "gate_small.csv")
	roles := []string{"--champion", "prod", "--challenger", "cand-*"}
	// The gate without its --risk-sweep fits (most of its CPU): the rule's
	// bound, at the policy's loss weight, is the same.
	code, out, errw := runMain(t, append(append([]string{"gate", "--format", "json", "--risk-sweep", ""}, roles...), in)...)
	if code > 3 || code == 2 {
		t.Fatalf("gate exit %d: %s", code, errw)
	}
	var g struct {
		Decision struct {
			Challengers []struct {
				Name  string
				Rules []struct {
					Rule         string
					Quantity     string
					BeforeMargin *struct{ Number float64 } `json:"before_margin"`
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatal(err)
	}
	code, out, errw = runMain(t, append(append([]string{"compare", "--format", "json", "--brisk=false", "--tukey-samples", "0"}, roles...), in)...)
	if code != 0 {
		t.Fatalf("compare exit %d: %s", code, errw)
	}
	var c struct {
		LossWeight float64 `json:"loss_weight"`
		Systems    []struct {
			Name string
			BCa  *struct{ Lo float64 } `json:"bca"`
		}
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	if c.LossWeight != 2 {
		t.Errorf("compare's default loss weight %v; the default policy's is 2", c.LossWeight)
	}
	lo := map[string]float64{}
	for _, s := range c.Systems {
		if s.BCa != nil {
			lo[s.Name] = s.BCa.Lo
		}
	}
	checked := 0
	for _, ch := range g.Decision.Challengers {
		for _, rr := range ch.Rules {
			if rr.Quantity != "bca.lo" {
				continue
			}
			if rr.BeforeMargin == nil {
				t.Fatalf("%s: rule %s has no before_margin", ch.Name, rr.Rule)
			}
			// Same data, seed, B, level and weight: the same bootstrap; the
			// gate's before_margin is (bound + margin) − margin, equal to
			// the bound within rounding (1e-15, far below any digit shown).
			if got, want := lo[ch.Name], rr.BeforeMargin.Number; math.Abs(got-want) > 1e-15 {
				t.Errorf("%s: compare's BCa lower bound %v; the gate's bound before the margin %v", ch.Name, got, want)
			}
			checked++
		}
	}
	if checked != 2 {
		t.Errorf("checked %d challengers' bounds, want 2", checked)
	}
}
