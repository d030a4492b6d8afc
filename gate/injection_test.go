package gate

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/escape"
)

// injectionPool is the payload of issue 17: every challenger's name starts
// a workflow command.
func injectionPool(t testing.TB, names ...string) string {
	r := rand.New(rand.NewPCG(17, 1))
	var b strings.Builder
	b.WriteString("system,topic,score\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "production,t%d,0.%d\n", i, r.IntN(90)+10)
		for _, name := range names {
			fmt.Fprintf(&b, "%q,t%d,0.5\n", name, i)
		}
	}
	return writeTemp(t, "inj.csv", b.String())
}

// noCommandLines fails when a line of out would be read as a workflow command.
func noCommandLines(t testing.TB, what, out string) {
	t.Helper()
	for _, line := range escape.Lines(out) {
		if escape.IsWorkflowCommand(line) {
			t.Errorf("%s: line %q is a workflow command", what, line)
		}
	}
}

// The injection of issue 17: names that start "::stop-commands::",
// "::add-mask::", "::error title=…::" or a blank and "::warning::" reach no
// line start of standard output or error, in any format, with the default
// policy (its Bayesian fallback on a pool without artifacts) and a policy
// without MCMC; bidirectional overrides show as ⟨U+202E⟩ on the terminal.
// The default policy and compare run once each, over a pool of every name
// (their fits are the cost); each other command runs once per name. The
// junit and json formats are read from the files of the md run's --out
// folder: TestGateFormatsMatchFiles checks that each --format on standard
// output is the file --out writes (three gates a name were 2 of the test's
// 2.7 CPU-s).
func TestWorkflowCommandInjection(t *testing.T) {
	t.Parallel()
	cheap := filepath.Join("testdata", "gate", "cheap.yaml")
	names := []string{"::stop-commands::pwnd", "::add-mask::secret", "::error title=x::forged", " ::warning::w", "\u202e::error::rtl", "ok\n::error::nl"}
	check := func(t *testing.T, what string, args ...string) {
		_, stdout, stderr := runMain(t, args...)
		noCommandLines(t, fmt.Sprintf("%s %v stdout", what, args[:2]), stdout)
		noCommandLines(t, fmt.Sprintf("%s %v stderr", what, args[:2]), stderr)
		if strings.ContainsRune(stdout, '\u202e') && args[len(args)-2] != "json" {
			t.Errorf("%s: a bidirectional override reached the terminal", what)
		}
	}
	t.Run("every name", func(t *testing.T) {
		t.Parallel()
		pool := injectionPool(t, names...)
		// Without the --risk-sweep fits: they add loss weights to a
		// reason's text ("it passes at w = 1"), no name (TestGateExampleGolden
		// renders the sweep).
		check(t, "every name", "gate", "--champion", "production", "--challenger", "*::*", "--topics", "intersect", "--risk-sweep", "", pool)
		// Compare with fewer bootstrap and Tukey replicates (0.26 of its
		// 0.7 CPU-s): they change figures, not the names printed.
		check(t, "every name", "compare", "--champion", "production", "--challenger", "*", "--samples", "1000", "--tukey-samples", "100", pool)
	})
	for i, name := range names {
		t.Run(fmt.Sprint("name", i), func(t *testing.T) {
			t.Parallel()
			pool := injectionPool(t, name)
			what := fmt.Sprintf("%q", name)
			out := t.TempDir()
			for _, args := range [][]string{
				{"gate", "--policy", cheap, "--champion", "production", "--challenger", "*", "--out", out, "--format", "md", pool},
				{"gate", "--policy", cheap, "--champion", "nope", pool},
			} {
				check(t, what, args...)
			}
			for format, file := range map[string]string{"junit": "junit.xml", "json": "result.json"} {
				text := readOut(t, out, file)
				noCommandLines(t, fmt.Sprintf("%s --format %s (%s)", what, format, file), text)
				if strings.ContainsRune(text, '\u202e') && format != "json" {
					t.Errorf("%s: a bidirectional override reached %s", what, file)
				}
			}
		})
	}
}

// Every writer of standard output and error, fuzzed by the challenger's
// name: the gate in each format and compare; no line is a workflow command.
func FuzzStdoutWorkflowCommands(f *testing.F) {
	for _, s := range []string{"::stop-commands::x", " ::add-mask::y", "a\n::error::z", "\u2028::x", "x::y"} {
		f.Add(s)
	}
	// Closed-form rules only (no bootstrap, no MCMC), so that each input
	// costs four quick gates: cheap.yaml's bootstrap allowed 9 inputs a
	// minute on a loaded machine.
	cheap := writeTemp(f, "fuzz.yaml", "version: 1\nname: fuzz\nloss_weight: 2\nrules:\n"+
		"  - {id: gains, quantity: mean_diff, at_least: 0}\n"+
		"  - {id: risk, quantity: urisk, at_least: -0.01, severity: warn}\n")
	f.Fuzz(func(t *testing.T, name string) {
		if name == "" || name == "production" || len(name) > 200 {
			return
		}
		pool := injectionPool(t, name)
		for _, format := range []string{"table", "md", "json", "junit"} {
			_, stdout, stderr := runMain(t, "gate", "--policy", cheap, "--champion", "production", "--challenger", "*", "--format", format, pool)
			noCommandLines(t, format+" stdout", stdout)
			noCommandLines(t, format+" stderr", stderr)
		}
	})
}
