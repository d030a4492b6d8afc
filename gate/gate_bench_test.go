package gate

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// benchGate runs riskgate gate with args b.N times, its output discarded.
func benchGate(b *testing.B, args ...string) {
	b.Helper()
	for b.Loop() {
		code := Main(context.Background(), append([]string{"riskgate", "gate", "--format", "json"}, args...), strings.NewReader(""), io.Discard, io.Discard)
		if code == exitError {
			b.Fatalf("exit %d", code)
		}
	}
}

// The README's main job: the example pool, the default policy (one MCMC fit).
func BenchmarkGateExample(b *testing.B) { benchGate(b, "--example") }

// rb04.csv (45 systems × 50 topics) with the default policy.
func BenchmarkGateRB04(b *testing.B) {
	benchGate(b, "--champion", "Champion", "--challenger", "Chal. *", shared.Path(b, "data/bayesian-risk/rb04.csv"))
}

// A policy without Bayesian rules: risk measures, tests and BCa (B = 100,000).
func BenchmarkGateCheap(b *testing.B) { benchGate(b, "--policy", "testdata/gate/cheap.yaml") }
