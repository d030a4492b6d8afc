package gate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/gate/discriminate"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/gate/trec"
	"github.com/urfave/cli/v3"
)

// discriminateOptions are the settings of riskgate discriminate.
type discriminateOptions struct {
	Input    *inputOptions // its Measure is set per measure by loadMeasures
	Measures []string
	Test     string
	Alpha    float64
	Samples  int
	Seed     uint64
	Format   string
	Output   string
}

// defaultRunMeasures are the candidates when runs are scored and no
// --measure is given: trec_eval's most used measures and NTCIREVAL's Q and
// nERR@10.
var defaultRunMeasures = []string{"map", "P_10", "ndcg_cut_10", "recip_rank", "Q", "nERR@10"}

const discriminateDescription = `Which measure should a gate decide on? On your own pool, discriminate ranks candidate
measures by discriminative power (Sakai, SIGIR 2006): the share of system pairs a
paired test finds significantly different at --alpha. Per measure it also reports the
difference required (the largest, over pairs, of the smallest difference of means the
test would call significant with this many topics), and Kendall's τ and τ_AP between
the system rankings of every two measures (a measure that ranks systems like another
adds little). The HTML page draws the ASL curves.

Name each candidate with --measure (repeatable). Runs with --qrels are scored with
each (default: ` + "map, P_10, ndcg_cut_10, recip_rank, Q, nERR@10" + `); score
files must hold every measure named (a long CSV or JSON Lines file with a measure
column, trec_eval -q output). Tests (--test): t, Student's paired t test; bootstrap,
Sakai's paired studentised bootstrap (--samples resamples, seeded per pair from
--seed); tukey, the randomised Tukey HSD over all systems (family-wise). Every system
must be scored on every topic of a measure.`

func newDiscriminateCommand(s *streams) *cli.Command {
	o := &discriminateOptions{Input: newInputOptions(s)}
	return &cli.Command{
		Name:        "discriminate",
		Usage:       "rank candidate measures by discriminative power on your pool: ASL curves, difference required, Kendall's τ",
		UsageText:   "riskgate discriminate [--measure NAME]... [--test t|bootstrap|tukey] [--alpha 0.05] [--samples 1000] [--qrels FILE] [--format table|md|json|csv|html] INPUT...",
		Description: discriminateDescription,
		Flags:       o.flags(),
		Action: func(_ context.Context, c *cli.Command) error {
			o.Input.Paths = c.Args().Slice()
			return runDiscriminate(o, s)
		},
	}
}

func (o *discriminateOptions) flags() []cli.Flag {
	flags := []cli.Flag{
		&cli.StringSliceFlag{Name: "measure", Aliases: []string{"m"}, Destination: &o.Measures,
			Usage: "candidate `MEASURE` (repeatable), in any spelling of riskgate help measures: map, ndcg_cut.10, nDCG@10, Q, nERR@10"},
		&cli.StringFlag{Name: "test", Value: discriminate.TestT, Destination: &o.Test,
			Usage: "paired `TEST`: t (Student's, two-sided), bootstrap (Sakai's studentised bootstrap), tukey (randomised Tukey HSD)"},
		&cli.FloatFlag{Name: "alpha", Value: 0.05, Destination: &o.Alpha, Usage: "significance `LEVEL` of each comparison"},
		&cli.IntFlag{Name: "samples", Value: 1000, Destination: &o.Samples, Usage: "`B` resamples of the bootstrap test, or permutations of the Tukey test"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Destination: &o.Seed, Usage: "`SEED` of the resampling (each pair's stream is derived from it and the names)"},
		formatFlag(&o.Format, discriminate.Formats),
		outputFlag(&o.Output),
	}
	for _, f := range o.Input.flags() {
		if !slices.Contains(f.Names(), "measure") {
			flags = append(flags, f)
		}
	}
	return flags
}

func runDiscriminate(o *discriminateOptions, s *streams) error {
	opt := discriminate.Options{Test: o.Test, Alpha: o.Alpha, B: o.Samples, Seed: o.Seed}
	if err := checkFormatFlag(o.Format, discriminate.Formats); err != nil {
		return err
	}
	if err := opt.Check(); err != nil {
		return err // before any input is read
	}
	inputs, err := loadMeasures(o.Input, o.Measures, s.Err)
	if err != nil {
		return err
	}
	rep, err := discriminate.Build(inputs, opt)
	if err != nil {
		return err
	}
	return writeOutput(s.Out, o.Output, func(w io.Writer) error { return discriminate.Write(w, rep, o.Format) })
}

// checkFormatFlag checks --format against a command's formats.
func checkFormatFlag(format string, formats []string) error {
	if !slices.Contains(formats, format) {
		return fmt.Errorf("--format %q: expected one of %s (input formats go in --input-format)", format, strings.Join(formats, ", "))
	}
	return nil
}

// loadMeasures reads the inputs once per measure into an aligned table of
// that measure. It is the one place discriminate loads its pool, so that a
// loader of several measures at once can replace it: runs are scored again
// for each measure; score files must hold each. Two names of one measure
// (nDCG@10 and ndcg_cut.10) are one candidate.
func loadMeasures(in *inputOptions, measures []string, w io.Writer) ([]discriminate.Input, error) {
	if len(measures) == 0 {
		if in.Qrels.Value == "" {
			return nil, errors.New("no --measure given: name the candidate measures, each held by every input (e.g. --measure map --measure ndcg_cut.10); runs with --qrels default to " + strings.Join(defaultRunMeasures, ", "))
		}
		measures = defaultRunMeasures
	}
	if len(measures) > 1 && slices.Contains(in.Paths, "-") {
		return nil, errors.New("standard input (-) can be read only once, and each measure reads the inputs again; name files to compare several measures")
	}
	var out []discriminate.Input
	seen := map[string]string{}
	for _, m := range measures {
		name := trec.MeasureName(m)
		if first, dup := seen[name]; dup {
			return nil, fmt.Errorf("--measure %s and --measure %s name one measure (%s); expected distinct candidates", first, m, name)
		}
		seen[name] = m
		one := *in
		one.Measures.Value = []string{m}
		t, _, err := one.load(w)
		if err != nil {
			return nil, err
		}
		out = append(out, tableInput(t))
	}
	return out, nil
}

func tableInput(t *scores.Table) discriminate.Input {
	return discriminate.Input{Measure: t.Measure, Systems: t.Systems, Topics: t.Topics, Scores: t.Scores}
}
