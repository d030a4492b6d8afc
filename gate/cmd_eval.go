package gate

import "github.com/urfave/cli/v3"

// Placeholder until the eval command lands.
func newEvalCommand(s *Streams) *cli.Command {
	return &cli.Command{Name: "eval", Usage: "(not implemented yet)", Action: notYet("eval")}
}
