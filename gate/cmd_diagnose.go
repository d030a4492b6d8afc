package gate

import "github.com/urfave/cli/v3"

// Placeholder until the diagnose command lands.
func newDiagnoseCommand(s *Streams) *cli.Command {
	return &cli.Command{Name: "diagnose", Usage: "(not implemented yet)", Action: notYet("diagnose")}
}
