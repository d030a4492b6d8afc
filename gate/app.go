// Package gate is riskgate's command line: one file per command (cmd_*.go:
// its options, constructor and run function), reading inputs and writing
// outputs, and Main, the one place that maps errors to exit statuses. What
// the commands compute lives in the packages below it: engine, result,
// report, calibrate, bench, compare, fit, pair, classify, diagnose, scores,
// trec and github (docs/architecture.md is the map).
package gate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/buildinfo"
	"github.com/riskgate/riskgate/internal/escape"

	"github.com/urfave/cli/v3"
)

// Exit statuses, documented in --help and the README. A verdict's are the
// result's (result.ExitStatus); every error that is not a verdict is exitError.
const (
	exitPass         = result.ExitPass         // pass (warnings allowed), or any command that succeeded
	exitFail         = result.ExitFail         // the gate failed a challenger
	exitError        = 2                       // usage, input or policy error
	exitInconclusive = result.ExitInconclusive // the gate could not decide (after on_inconclusive)
	exitInterrupted  = 130                     // interrupted (SIGINT or SIGTERM), as shells report SIGINT
)

// streams are the process's standard streams; tests substitute buffers.
type streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// deps are what the commands take from the process besides its streams and
// arguments: the clock, the garbage collector's memory limit, which is the
// process's, and the environment (the GitHub Actions variables that --github
// and riskgate publish read). Main gives the process's own (processDeps);
// tests give theirs, so that gates run in parallel share neither one limit
// nor one environment.
type deps struct {
	now func() time.Time
	// setMemoryLimit sets the limit and returns the previous one
	// (debug.SetMemoryLimit).
	setMemoryLimit func(limit int64) int64
	// getenv reads an environment variable (os.Getenv).
	getenv func(key string) string
}

// processDeps are the process's clock, memory limit and environment.
func processDeps() deps {
	return deps{now: time.Now, setMemoryLimit: debug.SetMemoryLimit, getenv: os.Getenv}
}

// version is the tool version printed by --version and recorded in provenance
// (see internal/buildinfo for how a release stamps it).
func version() string { return buildinfo.Version() }

// newApp returns the root command with every subcommand.
func newApp(s *streams, d deps) *cli.Command {
	app := &cli.Command{
		Name:    "riskgate",
		Usage:   "decide whether a challenger ranker may replace the champion",
		Version: version(),
		Description: "riskgate fits a Bayesian hierarchical model over a champion, its challengers and a pool of\n" +
			"earlier runs, computes risk-sensitive measures, and checks them against a policy.\n\n" +
			"Exit status: 0 pass (or success), 1 fail, 2 usage/input/policy error, 3 inconclusive, 130 interrupted.",
		Reader:          s.In,
		Writer:          s.Out,
		ErrWriter:       s.Err,
		HideHelpCommand: true, // riskgate's own help command (usage.go) replaces urfave's
		// Errors are mapped to exit statuses in Main, nowhere else.
		ExitErrHandler:                  func(context.Context, *cli.Command, error) {},
		EnableShellCompletion:           true,
		ConfigureShellCompletionCommand: configureCompletion,
		Commands: []*cli.Command{
			newEvalCommand(s),
			newCompareCommand(s),
			newDiscriminateCommand(s),
			newFitCommand(s),
			newDiagnoseCommand(s),
			newSimulateCommand(s),
			newPairCommand(s),
			newClassifyCommand(s),
			newGateCommand(s, d, nil),
			newPolicyCommand(s),
			newPublishCommand(s, d),
			newCalibrateCommand(s, d),
			newBenchCommand(s),
			newPoolCommand(s),
			newHelpCommand(),
			newVersionCommand(),
		},
	}
	setUsageErrors(app)
	return app
}

// interruptGrace is how long Main waits, once ctx is cancelled, for the
// command to stop on its own (fits, calibrate and bench stop within a
// sampler transition or a simulated pool) before it returns regardless.
const interruptGrace = 2 * time.Second

// Main runs riskgate with args (args[0] is the program name) and returns the
// process exit status. It is the one place that turns errors into statuses:
// a *statusError carries its own; a cancelled ctx (SIGINT or SIGTERM in
// cmd/riskgate) gives exitInterrupted and one line saying so; every other
// error is printed as one line and gives exitError.
//
// A command that does not stop within interruptGrace of the cancellation is
// abandoned: Main returns, and whatever the command writes later is dropped.
//
// No line written to out or errw can start a GitHub Actions workflow command
// (escape.CommandGuard) but riskgate's own annotations.
func Main(ctx context.Context, args []string, in io.Reader, out, errw io.Writer) int {
	return mainWith(ctx, args, in, out, errw, processDeps())
}

// mainWith is Main with the commands' dependencies d.
func mainWith(ctx context.Context, args []string, in io.Reader, out, errw io.Writer, d deps) int {
	o, e := &gatedWriter{w: out}, &gatedWriter{w: errw}
	og, eg := escape.NewCommandGuard(o), escape.NewCommandGuard(e)
	done := make(chan error, 1)
	go func() { done <- newApp(&streams{In: in, Out: og, Err: eg}, d).Run(ctx, args) }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		select {
		case err = <-done:
		case <-time.After(interruptGrace):
			err = ctx.Err()
		}
	}
	og.Flush()
	eg.Flush()
	o.close()
	e.close()
	return exitStatus(ctx, err, escape.NewCommandGuard(errw))
}

func exitStatus(ctx context.Context, err error, errw io.Writer) int {
	if err == nil {
		return exitPass
	}
	if ctx.Err() != nil {
		fmt.Fprintln(errw, "riskgate: interrupted; nothing was decided")
		return exitInterrupted
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(errw, "riskgate: %s\nRun '%s --help' for usage.\n", ue.Msg, ue.Command)
		return exitError
	}
	var se *statusError
	if errors.As(err, &se) {
		if se.Err != nil {
			printError(errw, se.Err)
		}
		return se.Code
	}
	printError(errw, err)
	return exitError
}

// printError writes err as lines that each start "riskgate: ": one line, or
// one per problem of a joined error (errors.Join: every problem of a policy
// file, every invalid file of policy validate), so that each names its
// file:line:column after the same prefix.
func printError(w io.Writer, err error) {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			printError(w, e)
		}
		return
	}
	fmt.Fprintf(w, "riskgate: %v\n", err)
}

// statusError ends a command with a specific exit status. Err, when not nil,
// is printed; a verdict whose report was already written carries no Err.
type statusError struct {
	Code int
	Err  error
}

func (e *statusError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *statusError) Unwrap() error { return e.Err }

// gatedWriter passes writes to w until it is closed, then drops them: what an
// abandoned command writes after Main returned reaches nobody.
type gatedWriter struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return len(p), nil
	}
	return g.w.Write(p)
}

// Unwrap returns the stream, to ask whether it is a terminal.
func (g *gatedWriter) Unwrap() io.Writer { return g.w }

func (g *gatedWriter) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}
