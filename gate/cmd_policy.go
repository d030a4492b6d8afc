package gate

import "github.com/urfave/cli/v3"

// Placeholder until the policy command lands.
func newPolicyCommand(s *Streams) *cli.Command {
	return &cli.Command{Name: "policy", Usage: "(not implemented yet)", Action: notYet("policy")}
}
