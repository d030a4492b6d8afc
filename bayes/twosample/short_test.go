package twosample

import "testing"

// skipInShortMode skips a slow test (a reference fit, simulation-based
// calibration, a power simulation) under go test -short, saying which kind.
func skipInShortMode(t *testing.T, kind string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("skipped in short mode: %s (go test without -short runs it)", kind)
	}
}
