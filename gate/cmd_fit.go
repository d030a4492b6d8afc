package gate

import "github.com/urfave/cli/v3"

// Placeholder until the fit command lands.
func newFitCommand(s *Streams) *cli.Command {
	return &cli.Command{Name: "fit", Usage: "(not implemented yet)", Action: notYet("fit")}
}
