package gate

import "github.com/urfave/cli/v3"

// Placeholder until the pair command lands.
func newPairCommand(s *Streams) *cli.Command {
	return &cli.Command{Name: "pair", Usage: "(not implemented yet)", Action: notYet("pair")}
}
