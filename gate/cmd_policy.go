package gate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/riskgate/riskgate/internal/atomicfile"

	"github.com/riskgate/riskgate/policies"
	"github.com/urfave/cli/v3"
)

// defaultPolicyFile is the file `riskgate policy init` writes when given none.
const defaultPolicyFile = "riskgate-policy.yaml"

func newPolicyCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "policy",
		Usage: "check, explain and start policy files",
		Description: "A policy names the champion and challengers, the model settings, the data requirements and the\n" +
			"rules a challenger must pass. These commands check policies, say what they do, print their JSON\n" +
			"Schema and write a commented starter.",
		Commands: []*cli.Command{
			newPolicyValidateCommand(s),
			newPolicyExplainCommand(s),
			newPolicySchemaCommand(s),
			newPolicyInitCommand(s),
		},
	}
}

// readPolicy parses a policy file, or standard input for "-".
func readPolicy(s *streams, path string) (*policies.Policy, error) {
	if path != "-" {
		return policies.Load(path)
	}
	data, err := io.ReadAll(io.LimitReader(s.In, policies.MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	return policies.Parse("<stdin>", data)
}

func printWarnings(w io.Writer, p *policies.Policy, now time.Time) {
	for _, msg := range p.Warnings(now) {
		fmt.Fprintf(w, "riskgate: warning: %s\n", msg)
	}
}

// policyValidateOptions are the inputs of `riskgate policy validate`.
type policyValidateOptions struct {
	Files []string
	Now   func() time.Time // for waiver expiry; time.Now outside tests
}

func newPolicyValidateCommand(s *streams) *cli.Command {
	opts := policyValidateOptions{Now: time.Now}
	return &cli.Command{
		Name:      "validate",
		Usage:     "check policy files",
		ArgsUsage: "FILE...",
		Description: "Parses each policy and reports every problem on standard error as one line\n" +
			"riskgate: file:line:column: what is wrong (valid: …).\n" +
			"Valid policies get one line each; likely mistakes (an expired waiver, a two-sided test bounded\n" +
			"from above) are warnings on standard error. \"-\" reads standard input.\n" +
			"Exit status: 0 when every policy is valid, 2 otherwise.",
		Action: func(_ context.Context, cmd *cli.Command) error {
			opts.Files = cmd.Args().Slice()
			return runPolicyValidate(s, opts)
		},
	}
}

func runPolicyValidate(s *streams, o policyValidateOptions) error {
	if len(o.Files) == 0 {
		return errors.New("policy validate: name at least one policy FILE (\"-\" reads standard input)")
	}
	var problems []error
	invalid := 0
	for _, f := range o.Files {
		p, err := readPolicy(s, f)
		if err != nil {
			// Like a compiler: one line per problem, each naming its
			// file:line:column; Main prints them, then the count.
			problems = append(problems, err)
			invalid++
			continue
		}
		var needs []string
		for _, a := range p.Needs() {
			needs = append(needs, string(a))
		}
		rules := fmt.Sprintf("%d rules", len(p.Rules))
		if len(p.Rules) == 1 {
			rules = "1 rule"
		}
		fmt.Fprintf(s.Out, "%s: valid policy %q: %s; computes %s\n", p.File, p.Name, rules, strings.Join(needs, ", "))
		printWarnings(s.Err, p, o.Now())
	}
	if invalid > 0 {
		problems = append(problems, fmt.Errorf("%d of %d policy files are invalid", invalid, len(o.Files)))
		return &statusError{Code: exitError, Err: errors.Join(problems...)}
	}
	return nil
}

// policyExplainOptions are the inputs of `riskgate policy explain`.
type policyExplainOptions struct {
	File string // "" explains the default policy
	Now  func() time.Time
}

func newPolicyExplainCommand(s *streams) *cli.Command {
	opts := policyExplainOptions{Now: time.Now}
	return &cli.Command{
		Name:      "explain",
		Usage:     "say in plain words what a policy will do",
		ArgsUsage: "[FILE]",
		Description: "Prints the roles, inputs, settings, each rule, how verdicts combine, the waivers and the\n" +
			"analyses the gate will run. Without FILE, explains the built-in default policy (the one\n" +
			"`riskgate policy init` writes). \"-\" reads standard input.",
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.NArg() > 1 {
				return fmt.Errorf("policy explain: give one policy FILE, got %d", cmd.NArg())
			}
			opts.File = cmd.Args().First()
			return runPolicyExplain(s, opts)
		},
	}
}

func runPolicyExplain(s *streams, o policyExplainOptions) error {
	p := policies.Default()
	if o.File != "" {
		var err error
		if p, err = readPolicy(s, o.File); err != nil {
			return err
		}
	}
	now := o.Now()
	fmt.Fprint(s.Out, p.Explain(now))
	fmt.Fprintf(s.Out, "\nExit status of riskgate gate: %d pass or warn, %d fail, %d inconclusive, %d bad input or policy.\n",
		exitPass, exitFail, exitInconclusive, exitError)
	printWarnings(s.Err, p, now)
	return nil
}

func newPolicySchemaCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "schema",
		Usage: "print the JSON Schema of policy files",
		Description: "Prints a JSON Schema (draft 2020-12) for editors, e.g. with the YAML language server:\n" +
			"  riskgate policy schema > riskgate-policy.schema.json\n" +
			"  # yaml-language-server: $schema=riskgate-policy.schema.json   (first line of the policy)\n" +
			"It checks the shape of a policy; validate also checks references across keys.",
		Action: func(context.Context, *cli.Command) error {
			_, err := s.Out.Write(policies.Schema())
			return err
		},
	}
}

// policyInitOptions are the inputs of `riskgate policy init`.
type policyInitOptions struct {
	File  string // "-" writes to standard output
	Force bool   // overwrite an existing file
}

func newPolicyInitCommand(s *streams) *cli.Command {
	opts := policyInitOptions{}
	return &cli.Command{
		Name:      "init",
		Usage:     "write a commented starter policy",
		ArgsUsage: "[FILE]",
		Description: "Writes the commented starter policy to FILE (default " + defaultPolicyFile + "; \"-\" for standard\n" +
			"output). It never overwrites an existing file unless --force is given.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "force", Destination: &opts.Force, Usage: "overwrite FILE if it exists"},
		},
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.NArg() > 1 {
				return fmt.Errorf("policy init: give at most one FILE, got %d", cmd.NArg())
			}
			opts.File = cmd.Args().First()
			return runPolicyInit(s, opts)
		},
	}
}

func runPolicyInit(s *streams, o policyInitOptions) error {
	if o.File == "" {
		o.File = defaultPolicyFile
	}
	if o.File == "-" {
		_, err := s.Out.Write(policies.Starter())
		return err
	}
	write := func(w io.Writer) error { _, err := w.Write(policies.Starter()); return err }
	create := atomicfile.Create // never replaces an existing file
	if o.Force {
		create = atomicfile.Write
	}
	if err := create(o.File, write); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s already exists; use --force to overwrite it", o.File)
		}
		return err
	}
	fmt.Fprintf(s.Out, "wrote %s; edit it, then check it with: riskgate policy validate %s\n", o.File, o.File)
	return nil
}
