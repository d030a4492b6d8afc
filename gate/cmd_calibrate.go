package gate

import "github.com/urfave/cli/v3"

// Placeholder until the calibrate command lands.
func newCalibrateCommand(s *Streams) *cli.Command {
	return &cli.Command{Name: "calibrate", Usage: "(not implemented yet)", Action: notYet("calibrate")}
}
