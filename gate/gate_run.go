package gate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/riskgate/riskgate/gate/engine"

	"github.com/riskgate/riskgate/gate/report"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/riskgate/riskgate/internal/escape"

	"github.com/riskgate/riskgate/internal/atomicfile"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// runGate is riskgate gate: policy → inputs → roles → requirements →
// analyses → decision → Result → reports → GitHub → exit status.
func runGate(ctx context.Context, o *gateOptions, s *streams) error {
	now := time.Now
	if o.now != nil {
		now = o.now
	}
	start := now()
	if err := o.Publish.check(); err != nil {
		return err
	}
	if err := reportfmt.CheckFormat(o.Format, gateFormats); err != nil {
		return err
	}
	if o.Example && len(o.Input.Paths) > 0 {
		return fmt.Errorf("--example gates the built-in pool; give INPUT files or --example, not both")
	}
	p, err := o.policy()
	if err != nil {
		return err
	}
	sweep, err := parseLossWeights("--risk-sweep", o.RiskSweep)
	if err != nil {
		return err
	}
	if p.Model.Family != policies.Gaussian && !o.set["risk-sweep"] {
		sweep = nil // a skew-normal fit takes seconds: sweep only when asked
	}

	var (
		t      *scores.Table
		align  scores.Alignment
		inputs []result.InputFile
	)
	if o.Example {
		t = engine.ExamplePool()
	} else {
		o.applyPolicyInputs(p)
		var hashStdin func() result.InputFile
		hashStdin = o.hashStdin()
		if t, align, err = o.Input.load(s.Err); err != nil {
			return err
		}
		if inputs, err = o.inputFiles(hashStdin); err != nil {
			return err
		}
	}
	prog := newProgress(s.Err, o.Progress)
	r, err := engine.Run(ctx, p, t, engine.Options{Now: start, Sweep: sweep, Alignment: align, Example: o.Example, Progress: prog})
	prog.Done()
	if err != nil {
		return err
	}
	r.DryRun = o.DryRun
	r.Provenance.Inputs = inputs
	r.Provenance.Command = o.replayCommand(p)
	r.Provenance.StartedAt = start.UTC().Format(time.RFC3339)
	r.Provenance.ElapsedMS = now().Sub(start).Milliseconds()

	reports, err := report.Files(r)
	if err != nil {
		return err
	}
	var jsonPath, mdPath string
	if o.Out != "" {
		if err := os.MkdirAll(o.Out, 0o755); err != nil {
			return err
		}
		for _, name := range report.FileNames {
			if err := atomicfile.Write(filepath.Join(o.Out, name), func(w io.Writer) error {
				_, err := w.Write(reports[name])
				return err
			}); err != nil {
				return err
			}
		}
		jsonPath, mdPath = filepath.Join(o.Out, "result.json"), filepath.Join(o.Out, "report.md")
	}
	var out []byte
	switch o.Format {
	case "md":
		out = reports["report.md"]
	case "json":
		out = reports["result.json"]
	case "junit":
		out = reports["junit.xml"]
	default:
		var b bytes.Buffer
		report.Text(&b, r, useColor(s.Out))
		out = b.Bytes()
	}
	if _, err := s.Out.Write(out); err != nil {
		return err
	}

	rep := report.GitHub(r, string(reports["report.md"]))
	rep.JSONPath, rep.MarkdownPath = jsonPath, mdPath
	if err := o.Publish.publish(ctx, rep, s); err != nil {
		return err
	}
	if o.DryRun {
		fmt.Fprintf(s.Err, "riskgate: dry run: the verdict would be %s (exit status %d); exiting 0\n", r.Verdict, r.ExitStatus)
		return nil
	}
	if r.ExitStatus != exitPass {
		return &statusError{Code: r.ExitStatus}
	}
	return nil
}

// policy loads the policy (or the default) and applies the overrides.
func (o *gateOptions) policy() (*policies.Policy, error) {
	var p *policies.Policy
	if o.PolicyPath == "" {
		p = policies.Default()
	} else {
		var err error
		if p, err = policies.Load(o.PolicyPath); err != nil {
			return nil, err
		}
	}
	if o.set["champion"] {
		p.Champion, p.ChampionPos = o.Champion, policies.Pos{}
	}
	if o.set["challenger"] {
		p.Challengers = nil
		for _, c := range o.Challengers {
			p.Challengers = append(p.Challengers, policies.Pattern{Text: c})
		}
	}
	switch {
	case o.set["loss-weight"] && o.set["alpha"]:
		return nil, errors.New("give --loss-weight W or --alpha A (meaning W = 1 + A), not both")
	case o.set["loss-weight"]:
		p.LossWeight, p.FromAlpha = o.LossWeight, false
	case o.set["alpha"]:
		p.LossWeight, p.FromAlpha = 1+o.Alpha, true
	}
	if w := p.LossWeight; (o.set["loss-weight"] || o.set["alpha"]) && (!(w > 0) || math.IsInf(w, 0)) {
		return nil, fmt.Errorf("loss weight %v: expected a positive number (losses count W times; W = 1 + α)", w)
	}
	if o.set["seed"] {
		p.Seed = o.Seed
	}
	return p, nil
}

// applyPolicyInputs fills the inputs the command line leaves unset from the
// policy's inputs: paths (relative to the policy's folder) when no INPUT is
// given, and each input flag not given.
func (o *gateOptions) applyPolicyInputs(p *policies.Policy) {
	in := p.Inputs
	if len(o.Input.Paths) == 0 {
		o.Input.Paths = p.InputPaths()
	}
	if !o.set["input-format"] && in.Format != "" {
		o.Input.Format = in.Format
	}
	if !o.set["qrels"] && in.Qrels != "" {
		o.Input.Qrels = in.Qrels
		if !filepath.IsAbs(in.Qrels) && p.File != "" && p.File != policies.StarterName {
			o.Input.Qrels = filepath.Join(filepath.Dir(p.File), in.Qrels)
		}
	}
	if !o.set["measure"] && in.Measure != "" {
		o.Input.Measure = in.Measure
	}
	if !o.set["topics"] && in.Topics != "" {
		o.Input.Topics = in.Topics
	}
}

// hashStdin makes the loader's standard input feed a SHA-256 as it is read,
// and returns what it read as an input file.
func (o *gateOptions) hashStdin() func() result.InputFile {
	if !slices.Contains(o.Input.Paths, "-") {
		return nil
	}
	in := o.Input.Stdin
	if in == nil {
		in = os.Stdin
	}
	h := sha256.New()
	n := &countWriter{w: h}
	o.Input.Stdin = io.TeeReader(in, n)
	return func() result.InputFile {
		return result.InputFile{Role: "scores", Path: "-", SHA256: hex.EncodeToString(h.Sum(nil)), Bytes: n.n}
	}
}

type countWriter struct {
	w hash.Hash
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.w.Write(p)
}

// inputFiles hashes the input files (and the qrels) for provenance.
func (o *gateOptions) inputFiles(stdin func() result.InputFile) ([]result.InputFile, error) {
	var out []result.InputFile
	add := func(role, path string) error {
		if path == "-" {
			out = append(out, stdin())
			return nil
		}
		// Only a regular file can be read again: a named pipe (bash's
		// <(command)) was consumed by the loader, and opening it again would
		// wait for a writer that never comes. Its digest stays unknown.
		if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
			out = append(out, result.InputFile{Role: role, Path: path})
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		h := sha256.New()
		n, err := io.Copy(h, f)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, result.InputFile{Role: role, Path: path, SHA256: hex.EncodeToString(h.Sum(nil)), Bytes: n})
		return nil
	}
	for _, path := range o.Input.Paths {
		if err := add("scores", path); err != nil {
			return nil, err
		}
	}
	if o.Input.Qrels != "" {
		if err := add("qrels", o.Input.Qrels); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// replayCommand is the one-line command that replays the run: the policy,
// the overrides and inputs as given, and the seed.
func (o *gateOptions) replayCommand(p *policies.Policy) string {
	args := []string{"riskgate", "gate"}
	if o.PolicyPath != "" {
		args = append(args, "--policy", o.PolicyPath)
	}
	if o.Example {
		args = append(args, "--example")
	}
	if o.set["champion"] {
		args = append(args, "--champion", o.Champion)
	}
	if o.set["challenger"] {
		for _, c := range o.Challengers {
			args = append(args, "--challenger", c)
		}
	}
	if o.set["loss-weight"] || o.set["alpha"] {
		args = append(args, "--loss-weight", numfmt.G(p.LossWeight))
	}
	args = append(args, "--seed", fmt.Sprint(p.Seed))
	if o.RiskSweep != defaultRiskSweep {
		args = append(args, "--risk-sweep", o.RiskSweep)
	}
	if !o.Example {
		for _, f := range []struct{ flag, value, def string }{
			{"--input-format", o.Input.Format, string(scores.Auto)}, {"--qrels", o.Input.Qrels, ""},
			{"--measure", o.Input.Measure, ""}, {"--topics", o.Input.Topics, string(scores.Intersect)},
		} {
			if f.value != f.def {
				args = append(args, f.flag, f.value)
			}
		}
		args = append(args, o.Input.Paths...)
	}
	for i, a := range args {
		args[i] = escape.Shell(a)
	}
	return strings.Join(args, " ")
}

// parseLossWeights parses a comma-separated list of loss weights (each > 0).
func parseLossWeights(flag, s string) ([]float64, error) {
	var ws []float64
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		w, err := strconv.ParseFloat(f, 64)
		if err != nil || !(w > 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("%s %q: expected loss weights > 0 separated by commas, e.g. 1,2,5,10", flag, s)
		}
		ws = append(ws, w)
	}
	return ws, nil
}
