package gate

import "github.com/urfave/cli/v3"

// Placeholder until the classify command lands.
func newClassifyCommand(s *Streams) *cli.Command {
	return &cli.Command{Name: "classify", Usage: "(not implemented yet)", Action: notYet("classify")}
}
