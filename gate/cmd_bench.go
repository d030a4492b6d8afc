package gate

import "github.com/urfave/cli/v3"

// Placeholder until the bench command lands.
func newBenchCommand(s *Streams) *cli.Command {
	return &cli.Command{Name: "bench", Usage: "(not implemented yet)", Action: notYet("bench")}
}
