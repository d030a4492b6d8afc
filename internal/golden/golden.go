// Package golden checks test output against golden files: whole command
// outputs kept under a package's testdata/ and rewritten on request
// (go test -update) after a reviewed change.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update is -update, the one flag of every package's golden tests: go test
// ./gate/report -run Golden -update rewrites that package's golden files.
var update = flag.Bool("update", false, "rewrite the golden files under testdata/ (after checking the change)")

// Update reports whether -update was given.
func Update() bool { return *update }

// Check compares got with the file at path and fails the test when they
// differ. Under -update it writes got to path instead (creating its folder).
func Check(tb testing.TB, path string, got []byte) {
	tb.Helper()
	if *update {
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
		line, g, w := firstDifference(string(got), string(want))
		tb.Errorf("output differs from %s from line %d (go test -update rewrites it, after you have checked the change):\n--- got\n%.400s\n--- want\n%.400s", path, line, g, w)
	}
}

// firstDifference returns the first line (1-based) at which got and want
// differ, and that line of each ("" past the end).
func firstDifference(got, want string) (line int, g, w string) {
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(gl), len(wl)) {
		g, w = "", ""
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return i + 1, g, w
		}
	}
	return 0, "", ""
}
