//go:build linux

package gate

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v3"
)

// extremes are the values every numeric flag is given: its type's limits and
// beyond, and the floats' special values.
var extremes = []string{"0", "-1", "2147483648", "9223372036854775807", "-9223372036854775808", "18446744073709551615",
	"1e308", "-1e308", "4.9e-324", "NaN", "Inf", "-Inf"}

// numericFlag is a flag that takes a number, or a list of numbers (a
// string flag whose default is one, such as --risk-sweep 1,2,5,10).
type numericFlag struct {
	command []string // the command's path below riskgate
	name    string
}

// numericFlags walks the command tree: every flag of a numeric type, and
// every string flag whose default is a comma-separated list of numbers.
func numericFlags(t *testing.T) []numericFlag {
	t.Helper()
	var out []numericFlag
	var walk func(path []string, c *cli.Command)
	walk = func(path []string, c *cli.Command) {
		for _, f := range c.Flags {
			v := reflect.ValueOf(f)
			if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
				continue
			}
			value := v.Elem().FieldByName("Value")
			numeric := false
			switch value.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
				numeric = true
			case reflect.String:
				numeric = numberList(value.String())
			}
			if numeric {
				out = append(out, numericFlag{command: path, name: f.Names()[0]})
			}
		}
		for _, sub := range c.Commands {
			walk(append(slices.Clone(path), sub.Name), sub)
		}
	}
	walk(nil, newApp(&streams{}, testDeps()))
	if len(out) < 30 {
		t.Fatalf("found %d numeric flags; the walk of the command tree is broken", len(out))
	}
	return out
}

// numberList reports whether s is a comma-separated list of numbers.
func numberList(s string) bool {
	if s == "" {
		return false
	}
	for _, f := range strings.Split(s, ",") {
		if _, err := strconv.ParseFloat(strings.TrimSpace(f), 64); err != nil {
			return false
		}
	}
	return true
}

// quickRuns are, per command, arguments that make it finish quickly on the
// fixture, to which each numeric flag under test is added (replacing the
// same flag's value here).
var quickRuns = map[string][]string{
	"eval":         {"qrels.txt", "r1.run"},
	"compare":      {"--champion", "base", "--challenger", "fusion", "compare_small.csv"},
	"fit":          {"--champion", "base", "--challenger", "fusion", "compare_small.csv"},
	"simulate":     {"--n-systems", "3", "--n-topics", "4", "-o", "sim.csv"},
	"pair":         {"--champion", "prod", "--challenger", "new", "pair_small.csv"},
	"classify":     {"--truth", "classify_truth.txt", "--a", "classify_a.txt", "--b", "classify_b.txt"},
	"gate":         {"--example"},
	"publish":      {"--from", "example.result.json.golden"},
	"calibrate":    {"--example", "--reps", "2", "--effects", "0", "--risks", "1"},
	"bench":        {"--quick", "--only", "^nomatch$"},
	"discriminate": {"--qrels", "qrels.txt", "r1.run", "r2.run"},
	"pool":         {"--pool", "pool-prune"}, // pool prune, of the pool the test adds to the fixture
}

// TestNumericFlagExtremes: every numeric flag of every command, at its
// type's extremes, ends in one line and exit 2, or — where the value is
// valid — finishes in bounded time and memory.
func TestNumericFlagExtremes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several hundred child processes")
	}
	t.Parallel()
	dir := childFixture(t)
	if r := runChild(t, dir, "", time.Minute, "pool", "add", "--pool", "pool-prune", "compare_small.csv"); r.code != 0 {
		t.Fatalf("pool add: exit %d: %s", r.code, r.stderr)
	}
	for _, f := range numericFlags(t) {
		base, ok := quickRuns[f.command[0]]
		if !ok {
			t.Errorf("riskgate %s has numeric flag --%s and no quick run to try it on (quickRuns)", strings.Join(f.command, " "), f.name)
			continue
		}
		for _, v := range extremes {
			args := append(slices.Clone(f.command), withFlag(base, f.name, v)...)
			name := strings.Join(args, " ")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				r := runChild(t, dir, "", 3*time.Minute, args...)
				// A verdict is an end: gate --example passes, fails or is inconclusive.
				checkCleanEnd(t, name, r, exitPass, exitFail, exitInconclusive)
			})
		}
	}
}

// withFlag returns args with --name value, replacing any value args give it.
func withFlag(args []string, name, value string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if args[i] == "--"+name {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return append(out, "--"+name+"="+value)
}

// TestEvalNumericOptionExtremes: riskgate eval takes trec_eval's options
// raw (SkipFlagParsing: not in the command tree's flags); its numbers -l,
// -M and -N, read with C's atol, at the same extremes.
func TestEvalNumericOptionExtremes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 36 child processes")
	}
	t.Parallel()
	dir := childFixture(t)
	for _, opt := range []string{"-l", "-M", "-N"} {
		for _, v := range extremes {
			args := []string{"eval", "-q", "-m", "all_trec", opt, v, "qrels.txt", "r1.run"}
			name := strings.Join(args, " ")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				checkCleanEnd(t, name, runChild(t, dir, "", time.Minute, args...), exitPass)
			})
		}
	}
}
