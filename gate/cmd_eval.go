package gate

import (
	"context"
	"errors"
	"fmt"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/urfave/cli/v3"
)

// evalOptions are the options of riskgate eval: trec_eval's own command line.
type evalOptions struct {
	Args []string // everything after "eval", parsed as trec_eval parses it
}

// newEvalCommand returns riskgate eval, a drop-in for NIST trec_eval v10.
// Its arguments follow trec_eval's getopt conventions (-l2, -mP.10,
// options after the files), which urfave/cli cannot parse, so the command
// takes them raw and gate/trec parses them.
func newEvalCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:            "eval",
		Usage:           "evaluate TREC runs against qrels, byte for byte like trec_eval v10",
		UsageText:       trec.Usage,
		Description:     trec.Help,
		SkipFlagParsing: true,
		Action: func(_ context.Context, c *cli.Command) error {
			return runEval(s, evalOptions{Args: c.Args().Slice()})
		},
	}
}

func runEval(s *streams, o evalOptions) error {
	cl, err := trec.ParseCommandLine(o.Args)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	if cl.Help {
		_, err := fmt.Fprint(s.Out, trec.Help)
		return err
	}
	if cl.Version {
		_, err := fmt.Fprintf(s.Out, "riskgate eval %s (trec_eval 10.0 compatible)\n", version())
		return err
	}
	err = cl.Execute(s.In, s.Out, s.Err)
	var usage *trec.UsageError
	if errors.As(err, &usage) {
		return fmt.Errorf("eval: %w", err)
	}
	return err
}
