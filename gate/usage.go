package gate

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/suggest"
	"github.com/urfave/cli/v3"
)

// usageError is a mistake on the command line. Main prints it as one line
// saying what is wrong (with a did-you-mean when one is likely), then one line
// pointing to Command's --help, and exits 2; nothing goes to standard output.
type usageError struct {
	Msg     string
	Command string // "riskgate gate": the command whose --help explains the mistake
}

func (e *usageError) Error() string { return e.Msg }

// setUsageErrors makes every command of the tree report usage mistakes as a
// usageError, and gives every command that only groups others (the root,
// policy) an action that refuses an unknown subcommand with a did-you-mean.
func setUsageErrors(c *cli.Command) {
	c.OnUsageError = onUsageError
	if len(c.Commands) > 0 && c.Action == nil {
		c.Action = groupAction
	}
	for _, sub := range c.Commands {
		setUsageErrors(sub)
	}
}

// flagInMessage finds urfave/cli's single-dash spelling of a flag ("flag
// -seed: …") to respell it as users type it (--seed).
var flagInMessage = regexp.MustCompile(`flag -([[:alnum:]][[:alnum:]-]+)`)

// requiredFlags is urfave/cli's message for required flags not given.
var requiredFlags = regexp.MustCompile(`^Required flags? "([^"]+)" not set$`)

func onUsageError(_ context.Context, c *cli.Command, err error, _ bool) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		msg = fmt.Sprintf("unknown flag %s for %s", dashed(name), c.FullName())
		if s := suggest.Closest(name, flagNames(c)); s != "" {
			msg += fmt.Sprintf("; did you mean %s?", dashed(s))
		}
	} else if m := requiredFlags.FindStringSubmatch(msg); m != nil {
		var names []string
		for _, n := range strings.Split(m[1], ", ") {
			names = append(names, dashed(n))
		}
		msg = fmt.Sprintf("missing %s (required)", strings.Join(names, " and "))
	} else {
		msg = flagInMessage.ReplaceAllString(msg, "flag --$1")
	}
	return &usageError{Msg: msg, Command: c.FullName()}
}

// dashed spells a flag name as typed: -h, --loss-weight.
func dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

// flagNames are every name (and alias) of c's flags.
func flagNames(c *cli.Command) []string {
	var names []string
	for _, f := range c.Flags {
		names = append(names, f.Names()...)
	}
	return append(names, "help")
}

// groupAction runs a command that only groups others: without arguments it
// shows its help; with one, the argument is no command of it.
func groupAction(ctx context.Context, c *cli.Command) error {
	if !c.Args().Present() {
		if c.Root() == c {
			return cli.ShowRootCommandHelp(c)
		}
		return cli.ShowSubcommandHelp(c)
	}
	return unknownCommand(c, c.Args().First())
}

// unknownCommand is the usage error for name, no subcommand of c.
func unknownCommand(c *cli.Command, name string) error {
	var names []string
	for _, sub := range c.Commands {
		if !sub.Hidden {
			names = append(names, sub.Names()...)
		}
	}
	msg := fmt.Sprintf("unknown command %q for %s", name, c.FullName())
	if s := suggest.Closest(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return &usageError{Msg: msg, Command: c.FullName()}
}

// helpTopics are the help texts that belong to no one command:
// `riskgate help TOPIC`.
var helpTopics = map[string]func() string{
	"measures": trec.MeasureHelp, // every measure of runs + qrels and its names
}

// newHelpCommand is `riskgate help [COMMAND [SUBCOMMAND]]`, as gh and git
// have it: the same text as COMMAND --help; `riskgate help measures` is a
// topic of its own.
func newHelpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "show help for riskgate or a command (the same as COMMAND --help); riskgate help measures: the measures and their names",
		ArgsUsage: "[COMMAND [SUBCOMMAND] | measures]",
		Action: func(ctx context.Context, c *cli.Command) error {
			if topic, ok := helpTopics[c.Args().First()]; ok && c.Args().Len() == 1 {
				_, err := io.WriteString(c.Root().Writer, topic())
				return err
			}
			target, parent := c.Root(), (*cli.Command)(nil)
			for _, name := range c.Args().Slice() {
				sub := target.Command(name)
				if sub == nil || sub.Hidden && sub.Name != "completion" {
					return unknownCommand(target, name)
				}
				target, parent = sub, target
			}
			switch {
			case parent == nil:
				return cli.ShowRootCommandHelp(target)
			case len(target.VisibleCommands()) > 0:
				return cli.ShowSubcommandHelp(target)
			default:
				return cli.ShowCommandHelp(ctx, parent, target.Name)
			}
		},
	}
}

// newVersionCommand is `riskgate version`, the same as --version.
func newVersionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version (the same as --version)",
		Action: func(_ context.Context, c *cli.Command) error {
			if c.Args().Present() {
				return &usageError{Msg: fmt.Sprintf("riskgate version takes no arguments (got %q)", c.Args().First()), Command: c.FullName()}
			}
			cli.ShowVersion(c.Root())
			return nil
		},
	}
}

// configureCompletion shows urfave/cli's completion command (hidden by
// default) as `riskgate completion bash|zsh|fish|pwsh`, as gh has it.
func configureCompletion(c *cli.Command) {
	c.Hidden = false
	c.Usage = "print a shell completion script: bash, zsh, fish or pwsh (e.g. source <(riskgate completion bash))"
	setUsageErrors(c)
}

// renamedInt reads an integer flag renamed in this release (CHANGELOG.md):
// the new spelling (newName, given as new), or the old one (oldName, as old)
// with a warning on w, for one release. One of them is required.
func renamedInt(c *cli.Command, w io.Writer, oldName, newName string, old, new optional[int]) (int, error) {
	switch {
	case old.Set && new.Set:
		return 0, &usageError{Msg: fmt.Sprintf("give --%s, not both it and --%s (its old spelling)", newName, oldName), Command: c.FullName()}
	case old.Set:
		fmt.Fprintf(w, "riskgate: warning: --%s is deprecated and will be removed in the next release; use --%s\n", oldName, newName)
		return old.Value, nil
	case new.Set:
		return new.Value, nil
	}
	return 0, &usageError{Msg: fmt.Sprintf("missing --%s (required)", newName), Command: c.FullName()}
}
