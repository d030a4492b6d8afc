// Package rdiff runs R for the differential tests of packages risk and
// bayes: it finds Rscript and the R packages a test needs (skipping the test
// with a message without them), hands float64 values to R exactly, runs one
// script over a whole batch of cases, and reads the results back exactly.
//
// Values travel as C99 hexadecimal floats ("0x1.999999999999ap-4"), which R's
// parser reads exactly for normal numbers (as.numeric builds them from an
// integer mantissa and a power of two) and which sprintf("%a") writes back
// exactly; decimal strings of 17 digits do not survive R 4.2's read.csv and
// as.numeric in every case. R 4.2 reads a subnormal hexadecimal float as 0
// (as.numeric("0x1p-1074")), so tests echo their inputs through R and compare
// the bits: a value R did not read exactly fails the test, not the statistics.
package rdiff

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/internal/shared"
)

// Require returns the path of Rscript, skipping the test with a message when
// Rscript or one of the R packages is missing.
func Require(tb testing.TB, packages ...string) string {
	tb.Helper()
	path, err := exec.LookPath("Rscript")
	if err != nil {
		shared.Skip(tb, shared.MissingR, "Rscript is not installed; skipping the differential test against R (Debian: apt-get install r-base-core r-cran-boot r-cran-posterior)")
	}
	for _, p := range packages {
		// find.package looks the package up without loading it: loading
		// posterior and its imports costs more than a CPU-second, which the
		// test's own script spends again (and where a package that is
		// installed but does not load fails the test, not skips it).
		cmd := exec.Command(path, "--vanilla", "-e", fmt.Sprintf("invisible(find.package(%q))", p))
		if out, err := cmd.CombinedOutput(); err != nil {
			shared.Skip(tb, shared.MissingR, fmt.Sprintf("R package %s is not installed (%v: %s); skipping the differential test against R", p, err, strings.TrimSpace(string(out))))
		}
	}
	return path
}

// Hex formats v for R: a C99 hexadecimal float, NA for NaN (R's missing
// value), Inf or -Inf.
func Hex(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NA"
	case math.IsInf(v, 1):
		return "Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'x', -1, 64)
}

// AppendHex appends the values of vs to b, each preceded by a space.
func AppendHex(b []byte, vs ...float64) []byte {
	for _, v := range vs {
		b = append(b, ' ')
		b = append(b, Hex(v)...)
	}
	return b
}

// Result is what R printed for one key of one case: its values, or the
// message of the error R stopped with.
type Result struct {
	Values []float64
	Err    string
}

// Results maps case id, then key, to a Result.
type Results map[string]map[string]Result

// Get returns the result of id and key, and whether R printed it.
func (r Results) Get(id, key string) (Result, bool) {
	res, ok := r[id][key]
	return res, ok
}

// Run runs script (a file) with Rscript on input, passing the input and
// output files as arguments, and parses the output lines "id key v_1 …"
// (values %a, NA, NaN, Inf, -Inf) or "id key ERR:message".
func Run(tb testing.TB, rscript, script string, input []byte) Results {
	tb.Helper()
	dir := tb.TempDir()
	in, out := filepath.Join(dir, "input.txt"), filepath.Join(dir, "output.txt")
	if err := os.WriteFile(in, input, 0o644); err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, rscript, "--vanilla", script, in, out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		tb.Fatalf("Rscript %s: %v\n%s", script, err, stderr.String())
	}
	text, err := os.ReadFile(out)
	if err != nil {
		tb.Fatal(err)
	}
	res := Results{}
	for i, line := range strings.Split(strings.TrimRight(string(text), "\n"), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			tb.Fatalf("%s: output line %d %q: expected id, key, values", script, i+1, line)
		}
		r := Result{}
		if len(f) == 3 && strings.HasPrefix(f[2], "ERR:") {
			r.Err = strings.ReplaceAll(strings.TrimPrefix(f[2], "ERR:"), "_", " ")
		} else {
			for _, s := range f[2:] {
				v, err := parseR(s)
				if err != nil {
					tb.Fatalf("%s: output line %d: %v", script, i+1, err)
				}
				r.Values = append(r.Values, v)
			}
		}
		if res[f[0]] == nil {
			res[f[0]] = map[string]Result{}
		}
		res[f[0]][f[1]] = r
	}
	return res
}

// parseR reads one value R printed; NA and NaN both become NaN.
func parseR(s string) (float64, error) {
	switch s {
	case "NA", "NaN":
		return math.NaN(), nil
	case "Inf":
		return math.Inf(1), nil
	case "-Inf":
		return math.Inf(-1), nil
	}
	return strconv.ParseFloat(s, 64)
}

// Close reports whether got and want agree: both NaN, equal, or within
// abs + rel·max(|got|, |want|).
func Close(got, want, rel, abs float64) bool {
	switch {
	case math.IsNaN(got) || math.IsNaN(want):
		return math.IsNaN(got) && math.IsNaN(want)
	case got == want:
		return true
	case math.IsInf(got, 0) || math.IsInf(want, 0):
		return false
	}
	return math.Abs(got-want) <= abs+rel*math.Max(math.Abs(got), math.Abs(want))
}

// Seed returns the seed named by the environment variable env, or a fresh
// one from the clock.
func Seed(tb testing.TB, env string) uint64 {
	tb.Helper()
	if s := os.Getenv(env); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			tb.Fatalf("%s=%q: not a non-negative integer", env, s)
		}
		return v
	}
	return uint64(time.Now().UnixNano()) % 1_000_000_007
}

// Cases returns the number of cases named by the environment variable env,
// else def (short under -short).
func Cases(tb testing.TB, env string, def, short int) int {
	tb.Helper()
	if s := os.Getenv(env); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			tb.Fatalf("%s=%q: not a positive integer", env, s)
		}
		return v
	}
	if testing.Short() {
		return short
	}
	return def
}
