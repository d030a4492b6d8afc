package gate

import "github.com/urfave/cli/v3"

// Placeholder until the publish command lands.
func newPublishCommand(s *Streams) *cli.Command {
	return &cli.Command{Name: "publish", Usage: "(not implemented yet)", Action: notYet("publish")}
}
