package gate

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/scores"

	"github.com/riskgate/riskgate/internal/atomicfile"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/urfave/cli/v3"
)

// simulateOptions are the options of riskgate simulate.
type simulateOptions struct {
	Systems, Topics int
	// The counts as given, by their names and by their old ones (renamed in 0.x).
	nSystems, nTopics, oldSystems, oldTopics optional[int]
	Seed                                     uint64
	Intercept                                float64
	Sigma                                    float64
	SDTopic                                  float64
	SDSystem                                 float64
	Bound                                    bool
	Missing                                  float64
	Out                                      string // pool CSV; "" or "-" = standard output
	Truth                                    string // true parameters CSV; default <output>.truth.csv beside a named --output
}

func newSimulateCommand(s *streams) *cli.Command {
	o := &simulateOptions{}
	return &cli.Command{
		Name:  "simulate",
		Usage: "write a synthetic pool drawn from the hierarchical system/topic model, with its true effects",
		Description: "Draws topic effects T_t ~ N(0, sd-topic²) and system effects S_s ~ N(0, sd-system²), then scores\n" +
			"y = intercept + T_t + S_s + N(0, sigma²) for every system and topic, and writes them in the CSV long\n" +
			"format (system,topic,score) that every riskgate command reads. The true parameters are written beside\n" +
			"the pool (parameter,value; the names riskgate fit uses). Systems are named s1…, topics t1… (zero-padded).",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "n-systems", Destination: &o.nSystems.Value, Action: o.nSystems.given, HideDefault: true, Usage: "`N` systems (at least 2; required)"},
			&cli.IntFlag{Name: "n-topics", Destination: &o.nTopics.Value, Action: o.nTopics.given, HideDefault: true, Usage: "`N` topics (at least 2; required)"},
			// Renamed in 0.x: elsewhere --topics is a mode (intersect, zero, …).
			&cli.IntFlag{Name: "systems", Destination: &o.oldSystems.Value, Action: o.oldSystems.given, Hidden: true},
			&cli.IntFlag{Name: "topics", Destination: &o.oldTopics.Value, Action: o.oldTopics.given, Hidden: true},
			&cli.Uint64Flag{Name: "seed", Value: 1, Destination: &o.Seed, Usage: "random seed; the same seed and settings give the same pool"},
			&cli.FloatFlag{Name: "intercept", Value: 0.3, Destination: &o.Intercept, Usage: "grand mean β0"},
			&cli.FloatFlag{Name: "sigma", Value: 0.1, Destination: &o.Sigma, Usage: "residual standard deviation"},
			&cli.FloatFlag{Name: "sd-topic", Value: 0.2, Destination: &o.SDTopic, Usage: "standard deviation of the topic effects"},
			&cli.FloatFlag{Name: "sd-system", Value: 0.02, Destination: &o.SDSystem, Usage: "standard deviation of the system effects"},
			&cli.BoolFlag{Name: "bound", Destination: &o.Bound, Usage: "clamp scores to [0, 1], as IR measures are"},
			&cli.FloatFlag{Name: "missing", Destination: &o.Missing, Usage: "probability that a cell is left out (each independently; every system and topic keeps a score)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Destination: &o.Out, Usage: "write the pool to `FILE` (atomically; default standard output)"},
			&cli.StringFlag{Name: "truth", Destination: &o.Truth, Usage: "write the true parameters to `FILE` (default: FILE.truth.csv beside --output; needed when the pool goes to standard output)"},
		},
		Action: func(_ context.Context, c *cli.Command) error {
			var err error
			if o.Systems, err = renamedInt(c, s.Err, "systems", "n-systems", o.oldSystems, o.nSystems); err != nil {
				return err
			}
			if o.Topics, err = renamedInt(c, s.Err, "topics", "n-topics", o.oldTopics, o.nTopics); err != nil {
				return err
			}
			return runSimulate(s, o)
		},
	}
}

// maxSimulatedCells bounds a simulated pool: 100 million cells are 800 MB
// of scores and about 3 GB of CSV.
const maxSimulatedCells = 100_000_000

func runSimulate(s *streams, o *simulateOptions) error {
	if o.Systems < 2 || o.Topics < 2 {
		return fmt.Errorf("--n-systems and --n-topics must be at least 2 (got %d and %d)", o.Systems, o.Topics)
	}
	if o.Systems > maxSimulatedCells/2 || o.Topics > maxSimulatedCells/2 || o.Systems*o.Topics > maxSimulatedCells {
		return fmt.Errorf("--n-systems %d × --n-topics %d: expected at most %s cells (8 bytes each in memory, about 30 written)", o.Systems, o.Topics, numfmt.Thousands(maxSimulatedCells))
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"sigma", o.Sigma}, {"sd-topic", o.SDTopic}, {"sd-system", o.SDSystem}} {
		if !(v.x >= 0) || math.IsInf(v.x, 0) {
			return fmt.Errorf("--%s %v: expected a finite number ≥ 0", v.name, v.x)
		}
	}
	if math.IsNaN(o.Intercept) || math.IsInf(o.Intercept, 0) {
		return fmt.Errorf("--intercept %v: expected a finite number", o.Intercept)
	}
	if !(o.Missing >= 0 && o.Missing < 1) {
		return fmt.Errorf("--missing %v: expected a probability in [0, 1)", o.Missing)
	}
	truthPath := o.Truth
	toStdout := o.Out == "" || o.Out == "-"
	if truthPath == "" {
		if toStdout {
			return fmt.Errorf("name --truth FILE for the true parameters when the pool goes to standard output")
		}
		truthPath = strings.TrimSuffix(o.Out, ".csv") + ".truth.csv"
	}
	systems, topics := engine.NumberedNames("s", o.Systems), engine.NumberedNames("t", o.Topics)
	// One stream for the parameters, another for the scores, both from the seed.
	truth := bayes.NewHierParams(rand.New(rand.NewPCG(o.Seed, 1)), o.Intercept, o.Sigma, o.SDTopic, o.SDSystem, o.Systems, o.Topics)
	tab, err := truth.Scores(rand.New(rand.NewPCG(o.Seed, 2)), systems, topics, bayes.ScoreOptions{Bound: o.Bound, Missing: o.Missing})
	if err != nil {
		return err
	}
	writePool := func(w io.Writer) error { return scores.WriteLong(w, tab.Systems, tab.Topics, tab.Scores) }
	if toStdout {
		if err := writePool(s.Out); err != nil {
			return err
		}
	} else if err := atomicfile.Write(o.Out, writePool); err != nil {
		return err
	}
	return atomicfile.Write(truthPath, func(w io.Writer) error { return simWriteTruth(w, truth, systems, topics) })
}

// simWriteTruth writes parameter,value rows named as riskgate fit names them.
func simWriteTruth(w io.Writer, h bayes.HierParams, systems, topics []string) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"parameter", "value"})
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	cw.Write([]string{"intercept", num(h.Intercept)})
	cw.Write([]string{"sigma", num(h.Sigma)})
	cw.Write([]string{"sd_topic", num(h.SDTopic)})
	cw.Write([]string{"sd_system", num(h.SDSystem)})
	for j, t := range topics {
		cw.Write([]string{"topic[" + t + "]", num(h.Topic[j])})
	}
	for i, s := range systems {
		cw.Write([]string{"system[" + s + "]", num(h.System[i])})
	}
	cw.Flush()
	return cw.Error()
}
