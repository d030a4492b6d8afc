package gate

import "github.com/urfave/cli/v3"

// Placeholder until the compare command lands.
func newCompareCommand(s *Streams) *cli.Command {
	return &cli.Command{Name: "compare", Usage: "(not implemented yet)", Action: notYet("compare")}
}
