package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/cputime"
	"github.com/riskgate/riskgate/internal/numfmt"
)

// The eval figures measured side by side with trec_eval: riskgate eval and
// trec_eval v10 (built from ../shared/tools/trec_eval, or --trec-eval) run
// as processes on the same files, alternately, each repetition a pair, and
// their outputs are compared byte for byte once, untimed, before timing.

// evalRefArgs are the flags of the paired eval figures: every measure of
// trec_eval's all_trec, per topic, missing topics scored 0 — the most
// expensive common invocation.
var evalRefArgs = []string{"-q", "-c", "-m", "all_trec"}

// Eval1M is the simulated setting of the 1,000,000-line figure: one run of
// 1,000 queries × 1,000 documents, MS MARCO-like.
var Eval1M = ScaleSetting{Queries: 1000, Depth: 1000, Runs: 1, Collection: MSMARCO.Collection, Seed: MSMARCO.Seed}

// benchEvalRefCases are the paired eval figures: the simulated 1,000,000-line
// run and robust03's pircRBa1.run (100,000 lines), when ../shared has it.
func benchEvalRefCases(cfg Config) []Case {
	what := "riskgate eval " + joinArgs(evalRefArgs) + " as a process, paired with trec_eval's"
	s := Eval1M
	cs := []Case{{ID: "eval-1m", What: what,
		Data: fmt.Sprintf("simulated MS MARCO-like run: %s queries × %s documents (%s lines)", numfmt.Thousands(s.Queries), numfmt.Thousands(s.Depth), numfmt.Thousands(s.Queries*s.Depth)),
		prepare: func() (*Work, error) {
			dir, err := os.MkdirTemp("", "riskgate-bench-")
			if err != nil {
				return nil, err
			}
			qrels, runs, err := s.write(dir)
			if err != nil {
				os.RemoveAll(dir)
				return nil, err
			}
			w, err := cfg.evalRefWork(qrels, runs[0], float64(s.Queries*s.Depth))
			if err != nil {
				os.RemoveAll(dir)
				return nil, err
			}
			w.cleanup = join(w.cleanup, func() { os.RemoveAll(dir) })
			return w, nil
		}}}
	cs = append(cs, Case{ID: "eval-robust03", What: what,
		Data: "TREC 2003 Robust: pircRBa1.run (100,000 lines), qrels 128,796 lines, from ../shared/data/trec_eval/robust03",
		prepare: func() (*Work, error) {
			root := sharedRoot()
			if root == "" {
				return nil, skipf("../shared is absent (set RISKGATE_SHARED)")
			}
			dir := filepath.Join(root, "data", "trec_eval", "robust03")
			qrels, run := filepath.Join(dir, "qrels.txt"), filepath.Join(dir, "runs", "pircRBa1.run")
			if _, err := os.Stat(run); err != nil {
				return nil, skipf("%s is absent", run)
			}
			return cfg.evalRefWork(qrels, run, 100_000)
		}})
	return cs
}

// evalRefWork times riskgate eval on qrels and run, paired with trec_eval
// when there is one, after checking that both print the same.
func (cfg Config) evalRefWork(qrels, run string, lines float64) (*Work, error) {
	args := append(append([]string{}, evalRefArgs...), qrels, run)
	tools, cleanup := cfg.refTools()
	trecEval, why := tools.trecEval()
	ours := cfg.riskgateEval(args)
	w := &Work{cleanup: cleanup}
	if trecEval == "" {
		w.run = func() (Outcome, error) {
			o, err := ours(io.Discard)
			o.Lines, o.Note = lines, "no trec_eval to compare with: "+why
			return o, err
		}
		return w, nil
	}
	theirs := func(out io.Writer) (Outcome, error) { return timeProcess(out, trecEval, args...) }
	var a, b bytes.Buffer
	if _, err := ours(&a); err != nil {
		cleanup()
		return nil, err
	}
	if _, err := theirs(&b); err != nil {
		cleanup()
		return nil, err
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		cleanup()
		return nil, fmt.Errorf("riskgate eval and %s print different output on %s (%d and %d bytes)", trecEval, run, a.Len(), b.Len())
	}
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		cleanup()
		return nil, err
	}
	w.cleanup = join(func() { devNull.Close() }, cleanup)
	pair := 0
	w.run = func() (Outcome, error) {
		// Alternate which goes first, so that neither always meets the
		// other's caches or the machine's load first.
		var o, ref Outcome
		var err1, err2 error
		if pair%2 == 0 {
			o, err1 = ours(devNull)
			ref, err2 = theirs(devNull)
		} else {
			ref, err2 = theirs(devNull)
			o, err1 = ours(devNull)
		}
		pair++
		if err := errors.Join(err1, err2); err != nil {
			return Outcome{}, err
		}
		o.Lines = lines
		o.Reference = &RefTiming{Program: "trec_eval " + trecEvalVersion, Seconds: ref.Seconds, CPUSeconds: ref.CPUSeconds, Identical: true}
		return o, nil
	}
	return w, nil
}

// trecEvalVersion is the trec_eval of ../shared/tools (its -v says 10.0-rc3).
const trecEvalVersion = "10.0"

// riskgateEval returns a function that runs riskgate eval with args, as a
// process of cfg.Executable when there is one, else in this process.
func (cfg Config) riskgateEval(args []string) func(out io.Writer) (Outcome, error) {
	if exe := cfg.executable(); exe != "" {
		return func(out io.Writer) (Outcome, error) {
			return timeProcess(out, exe, append([]string{"eval"}, args...)...)
		}
	}
	return func(out io.Writer) (Outcome, error) {
		cl, err := trec.ParseCommandLine(args)
		if err != nil {
			return Outcome{}, err
		}
		runtime.GC()
		c0, t0 := cputime.Process(), time.Now()
		err = cl.Execute(nil, out, io.Discard)
		return Outcome{Seconds: time.Since(t0).Seconds(), CPUSeconds: (cputime.Process() - c0).Seconds(),
			Note: "riskgate timed in this process (no riskgate program to run)"}, err
	}
}

// executable is the riskgate program that eval figures run: Executable, or
// this program unless it is a test binary (whose arguments are not
// riskgate's).
func (cfg Config) executable() string {
	if cfg.Executable != "" || testing.Testing() {
		return cfg.Executable
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
}

// timeProcess runs program with args, its output to out, and returns its
// wall time and the CPU time (user + system) the kernel counted for it.
func timeProcess(out io.Writer, program string, args ...string) (Outcome, error) {
	var errw bytes.Buffer
	cmd := exec.Command(program, args...)
	cmd.Stdout, cmd.Stderr = out, &errw
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0).Seconds()
	if err != nil {
		return Outcome{}, fmt.Errorf("%s: %v: %s", filepath.Base(program), err, tailLines(errw.String(), 3))
	}
	st := cmd.ProcessState
	return Outcome{Seconds: wall, CPUSeconds: (st.UserTime() + st.SystemTime()).Seconds(), Process: true}, nil
}

// refTools are the reference programs of one bench run, built once.
type refTools struct {
	trecEvalFlag string // --trec-eval: a program, or a source folder
	once         sync.Once
	path, why    string // trec_eval's path, or why there is none
	dir          string // the temporary build folder
}

// refTools returns the run's reference programs, or new ones (and their
// cleanup) when Run did not set them (the Go benchmarks).
func (cfg Config) refTools() (*refTools, func()) {
	if cfg.tools != nil {
		return cfg.tools, func() {}
	}
	t := &refTools{trecEvalFlag: cfg.TrecEval}
	return t, t.cleanup
}

func (t *refTools) cleanup() {
	if t.dir != "" {
		os.RemoveAll(t.dir)
	}
}

// trecEval returns the trec_eval program to compare with: --trec-eval when
// it names a program; else the source folder it names, or
// ../shared/tools/trec_eval, built with its own Makefile in a temporary
// folder ("" and the reason when there is none).
func (t *refTools) trecEval() (string, string) {
	t.once.Do(func() {
		src := t.trecEvalFlag
		if src == "" {
			root := sharedRoot()
			if root == "" {
				t.why = "../shared is absent; give --trec-eval"
				return
			}
			src = filepath.Join(root, "tools", "trec_eval")
		}
		fi, err := os.Stat(src)
		switch {
		case err != nil:
			t.why = err.Error()
			return
		case !fi.IsDir():
			t.path = src
			return
		}
		t.path, t.dir, err = buildTrecEval(src)
		if err != nil {
			t.why = err.Error()
		}
	})
	return t.path, t.why
}

// buildTrecEval copies trec_eval's source folder src to a temporary folder
// and builds it there with its Makefile (as the differential test does:
// -ftrivial-auto-var-init=zero where GCC has it, else plainly).
func buildTrecEval(src string) (path, dir string, err error) {
	for _, tool := range []string{"make", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", "", fmt.Errorf("%s is not installed to build trec_eval", tool)
		}
	}
	dir, err = os.MkdirTemp("", "riskgate-trec_eval-")
	if err != nil {
		return "", "", err
	}
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		os.RemoveAll(dir)
		return "", "", err
	}
	var out []byte
	for _, cc := range []string{"gcc -ftrivial-auto-var-init=zero", "gcc"} {
		cmd := exec.Command("make", "-s", "-j2", "CC="+cc, "trec_eval")
		cmd.Dir = dir
		if out, err = cmd.CombinedOutput(); err == nil {
			return filepath.Join(dir, "trec_eval"), dir, nil
		}
	}
	os.RemoveAll(dir)
	return "", "", fmt.Errorf("building trec_eval from %s: %v: %s", src, err, tailLines(string(out), 3))
}

// sharedRoot is the developers' reference folder: RISKGATE_SHARED, or
// ../shared beside the working directory or beside this source's module
// ("" when absent).
func sharedRoot() string {
	dirs := []string{os.Getenv("RISKGATE_SHARED")}
	if os.Getenv("RISKGATE_SHARED") == "" {
		dirs = append(dirs[:0], filepath.Join("..", "shared"))
		if _, file, _, ok := runtime.Caller(0); ok { // <module>/gate/bench/evalref.go
			dirs = append(dirs, filepath.Join(filepath.Dir(file), "..", "..", "..", "shared"))
		}
	}
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			if abs, err := filepath.Abs(d); err == nil {
				return abs
			}
			return d
		}
	}
	return ""
}

// skipError is a case that cannot run here, and why.
type skipError struct{ why string }

func (e *skipError) Error() string { return e.why }

func skipf(format string, a ...any) error { return &skipError{fmt.Sprintf(format, a...)} }

// join returns a function that calls every non-nil f in order.
func join(fs ...func()) func() {
	return func() {
		for _, f := range fs {
			if f != nil {
				f()
			}
		}
	}
}

func joinArgs(args []string) string {
	var b bytes.Buffer
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a)
	}
	return b.String()
}
