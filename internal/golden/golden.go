// Package golden checks test output against golden files: whole command
// outputs kept under a package's testdata/ and rewritten on request
// (go test -update) after a reviewed change.
package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Check compares got with the file at path and fails the test when they
// differ. With update it writes got to path instead (creating its folder).
func Check(tb testing.TB, path string, got []byte, update bool) {
	tb.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (go test -update creates it)", err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("output differs from %s (go test -update rewrites it, after you have checked the change):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
