package calibrate

import (
	"slices"
	"testing"
)

// The simulated pools' artifacts: the pool's own, the first n of them, or
// more under names of their own that no system of the pool has.
func TestSimulatedArtifacts(t *testing.T) {
	t.Parallel()
	systems := []string{"champ", "chal", "artifact 1", "a"}
	own := []string{"artifact 1", "a"}
	for _, c := range []struct {
		n    *int
		want []string
	}{
		{nil, own},
		{ptr(0), []string{}},
		{ptr(1), []string{"artifact 1"}},
		{ptr(4), []string{"artifact 1", "a", "artifact 2", "artifact 3"}},
	} {
		if got := simulatedArtifacts(systems, own, c.n); !slices.Equal(got, c.want) {
			t.Errorf("n %v: %q, want %q", c.n, got, c.want)
		}
	}
}

func ptr(n int) *int { return &n }
