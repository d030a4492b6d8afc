package gate

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/result"
)

// --worst N lists each challenger's N worst regressions, most negative
// first, in result.json and the replay command; N < 1 is a usage error.
// cand-b of the cheap policy's pool loses 4 of its 12 topics.
func TestGateWorst(t *testing.T) {
	t.Parallel()
	policy := filepath.Join("testdata", "gate", "cheap.yaml")
	for _, c := range []struct {
		worst  string
		want   int
		replay bool
	}{{"", 4, false}, {"2", 2, true}, {"9", 4, true}} {
		args := []string{"gate", "--policy", policy, "--format", "json"}
		if c.worst != "" {
			args = append(args, "--worst", c.worst)
		}
		code, out, stderr := runMain(t, args...)
		if code != exitPass {
			t.Fatalf("--worst %q: exit %d\n%s", c.worst, code, stderr)
		}
		var r result.Result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		var b *result.Regressions
		for i := range r.Regressions {
			if r.Regressions[i].Challenger == "cand-b" {
				b = &r.Regressions[i]
			}
		}
		if b == nil || b.Losses != 4 || len(b.Topics) != c.want {
			t.Fatalf("--worst %q: cand-b's regressions %+v, want %d of 4 losses", c.worst, b, c.want)
		}
		for i, g := range b.Topics {
			if g.Diff >= 0 || (i > 0 && g.Diff < b.Topics[i-1].Diff) {
				t.Errorf("--worst %q: regression %d %+v is not a loss in order", c.worst, i, g)
			}
		}
		if has := strings.Contains(r.Provenance.Command, "--worst "+c.worst); has != c.replay {
			t.Errorf("--worst %q: replay command %q", c.worst, r.Provenance.Command)
		}
	}
	code, out, errw := runMain(t, "gate", "--policy", policy, "--worst", "0")
	checkOneLineError(t, code, out, errw, "--worst 0: expected a number of topics, at least 1")
}
