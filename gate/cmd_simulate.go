package gate

import "github.com/urfave/cli/v3"

// Placeholder until the simulate command lands.
func newSimulateCommand(s *Streams) *cli.Command {
	return &cli.Command{Name: "simulate", Usage: "(not implemented yet)", Action: notYet("simulate")}
}
