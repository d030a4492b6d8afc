package gate

import "github.com/urfave/cli/v3"

// Placeholder until the gate command lands.
func newGateCommand(s *Streams) *cli.Command {
	return &cli.Command{Name: "gate", Usage: "(not implemented yet)", Action: notYet("gate")}
}
