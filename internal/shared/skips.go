package shared

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// A reference test compares riskgate with material a clone may lack (../shared,
// R, a C toolchain for trec_eval, Chromium). It skips through Skip, which
// counts the skip by what was missing, and its package's TestMain runs the
// tests through RunTests, which prints one line with the counts. go test
// discards a passing package's output unless -v or -json is given, so on a
// terminal the line goes to the terminal itself: a plain `go test ./...` on a
// fresh clone then says what did not run, next to the package's "ok" line.

// Missing is what a reference test needs and this machine lacks.
type Missing string

// What reference tests can lack.
const (
	MissingShared   Missing = "../shared"                    // the reference material beside the checkout
	MissingR        Missing = "R"                            // Rscript with the packages a test names
	MissingTrecEval Missing = "gcc and make (for trec_eval)" // to build NIST trec_eval from ../shared
	MissingChromium Missing = "Chromium"                     // the HTML report's browser test
)

// skipped counts this test binary's reference skips by what was missing.
var skipped = struct {
	sync.Mutex
	n map[Missing]int
}{n: map[Missing]int{}}

// Skip counts one reference test skipped for lack of what, and skips tb with
// msg, which says what is missing and how to get it.
func Skip(tb testing.TB, what Missing, msg string) {
	tb.Helper()
	skipped.Lock()
	skipped.n[what]++
	skipped.Unlock()
	tb.Skip(msg)
}

// RunTests runs the package's tests and, when reference tests were skipped,
// prints one line saying how many and for lack of what; it returns m.Run's
// exit code. Every package with reference tests calls it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(shared.RunTests(m)) }
func RunTests(m *testing.M) int {
	code := m.Run()
	line := skipLine(packageName())
	if line == "" {
		return code
	}
	var w io.Writer = os.Stdout // -v and -json show it (.ci/run lists every skipped test besides)
	if !testing.Verbose() {
		// go test shows a passing package's output only with -v: write to the
		// terminal, when there is one.
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			defer tty.Close()
			w = tty
		}
	}
	fmt.Fprintln(w, line)
	return code
}

// skipLine is RunTests' line for pkg, or "" when no reference test skipped.
func skipLine(pkg string) string {
	skipped.Lock()
	defer skipped.Unlock()
	total := 0
	var parts []string
	for what, n := range skipped.n {
		total += n
		parts = append(parts, fmt.Sprintf("%d without %s", n, what))
	}
	if total == 0 {
		return ""
	}
	slices.Sort(parts)
	tests := "tests"
	if total == 1 {
		tests = "test"
	}
	return fmt.Sprintf("SKIP\t%s\t%d reference %s did not run (%s); the suite is partial: see \"Tests\" in docs/architecture.md",
		pkg, total, tests, strings.Join(parts, ", "))
}

// packageName is the import path of the package under test: go test runs
// the test binary in the package's folder.
func packageName() string {
	const module = "github.com/riskgate/riskgate"
	wd, err := os.Getwd()
	if err != nil {
		return "?"
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return module
			}
			return module + "/" + filepath.ToSlash(rel)
		}
		if filepath.Dir(dir) == dir {
			return filepath.Base(wd)
		}
	}
}
