package gate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/pool"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
	"github.com/urfave/cli/v3"
)

// riskgate gate and the run history (docs/pool.md): --pool adds the stored
// systems whose fingerprints match the champion's as artifacts, --record
// stores the champion and the challengers after the decision, and
// --promote-on-pass makes the one challenger a passing gate selected the
// champion.

// gatePoolOptions are the gate's run-history flags.
type gatePoolOptions struct {
	Dir           optional[string] // --pool; else the policy's inputs.pool
	Record        bool
	Label         string
	PromoteOnPass bool
}

func (o *gatePoolOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "pool", Destination: &o.Dir.Value, Action: o.Dir.given,
			Usage: "add the systems stored in the run history `DIR` (riskgate pool) as artifacts, those scored against the champion's qrels and topic set (overrides the policy's inputs.pool)"},
		&cli.BoolFlag{Name: "record", Destination: &o.Record,
			Usage: "after the decision, store the champion and the challengers in the pool (created if need be), whatever the verdict"},
		&cli.StringFlag{Name: "label", Destination: &o.Label, Usage: "with --record, a free `LABEL` for what is stored: a commit, a tag, a pull request"},
		&cli.BoolFlag{Name: "promote-on-pass", Destination: &o.PromoteOnPass,
			Usage: "with --record, when the verdict is pass or warn and one challenger is selected, make it the pool's champion (not under --dry-run)"},
	}
}

// given reports whether any of the flags was given.
func (o *gatePoolOptions) given() bool {
	return o.Dir.Set || o.Record || o.Label != "" || o.PromoteOnPass
}

// gatePool is the run history of one gate: where it is, what the gate took
// from it, and the entries --record will store.
type gatePool struct {
	dir string
	// use is what result.json records (Data.Pool).
	use *result.PoolUse
	// warnings are the exclusions and doubts, for the result's warnings.
	warnings []string
	// record are the entries of the champion and challengers (one per
	// system, every measure of the gate), for --record.
	record []*pool.Entry
}

// dir is the pool's folder: --pool, else the policy's inputs.pool; "" none.
func (o *gatePoolOptions) dir(p *policies.Policy) string {
	if o.Dir.Set {
		return o.Dir.Value
	}
	return p.PoolPath()
}

// joinPool adds the pool's artifacts to the gate's tables (one per measure,
// the inputs' systems first, then the artifacts in the pool's order: the
// time stored, then the name), and prepares what --record stores. The
// champion's fingerprints are its topic set in the inputs and the qrels:
// the file the runs were scored against, or that --qrels names with score
// files (as pool add records it), else unknown. A stored system is left out
// (pool.Partition) when it is an input already, lacks a measure of the
// gate, was scored against other qrels or on another topic set, or matches
// a challenger pattern (stored systems join only as artifacts); the policy's
// inputs.pool_mismatch: refuse makes a fingerprint mismatch an error. An
// input stored with other scores is a warning (the input is used), or an
// error with --record, which could not store it.
func (o *gatePoolOptions) joinPool(ctx context.Context, p *policies.Policy, ts engine.Tables, sources []scores.Source, in *inputOptions, at time.Time) (engine.Tables, *gatePool, error) {
	dir := o.dir(p)
	if dir == "" {
		if o.Record || o.PromoteOnPass || o.Label != "" {
			return nil, nil, errors.New("--record, --label and --promote-on-pass need a pool: --pool DIR, or inputs.pool in the policy")
		}
		return ts, nil, nil
	}
	if (o.PromoteOnPass || o.Label != "") && !o.Record {
		return nil, nil, errors.New("--label and --promote-on-pass apply to what --record stores; add --record")
	}
	gp := &gatePool{dir: dir}
	qrels, err := gateQrels(sources, in)
	if err != nil {
		return nil, nil, err
	}
	t := ts[0]
	roles, err := p.Roles(t.Systems)
	if err != nil {
		return nil, nil, err // the engine would refuse the same roles
	}
	if gp.record, err = inputEntries(ts, roles, sources, qrels, o.Label, at); err != nil {
		return nil, nil, err
	}
	ref := pool.TableFingerprints(t, roles.Champion, qrels.SHA256)
	gp.use = &result.PoolUse{Dir: dir, Qrels: digestOrUnknown(qrels.SHA256), Topics: ref.Topics, NTopics: ref.NTopics, Artifacts: []string{}, Excluded: []result.PoolExclusion{}}
	open := pool.Open
	if o.Record {
		// Day one: --record makes the pool it will record into (another
		// gate may be making it at the same time: Create is safe for that).
		open = func(dir string) (*pool.Store, error) { return pool.Create(ctx, dir) }
	}
	store, err := open(dir)
	if err != nil {
		return nil, nil, err
	}
	entries, err := store.Entries(pool.ReadOptions{})
	if err != nil {
		return nil, nil, fmt.Errorf("%w; restore it (git, the CI cache) or remove it: riskgate pool rm --pool %s SYSTEM", err, escape.Shell(dir))
	}
	gp.use.Stored = len(entries)
	kept, out := pool.Partition(entries, pool.Filter{Measures: ts.Measures(), Match: &ref, Exclude: t.Systems})
	var mismatched []string
	for _, x := range out {
		switch x.Reason {
		case pool.InInputs:
			if w := inputDiffers(entries, x.System, gp.record, ts, qrels, at); w != nil {
				if o.Record {
					return nil, nil, fmt.Errorf("--record: %v", w)
				}
				gp.warnings = append(gp.warnings, fmt.Sprintf("pool %s: the input %q is used; the pool's differs: %v", escape.Printable(dir), x.System, w))
			}
		case pool.OtherQrels, pool.UnknownQrels, pool.OtherTopics:
			mismatched = append(mismatched, x.String())
			fallthrough
		default:
			gp.warnings = append(gp.warnings, fmt.Sprintf("pool %s: %s left out", escape.Printable(dir), x))
		}
		gp.use.Excluded = append(gp.use.Excluded, result.PoolExclusion{System: x.System, Reason: string(x.Reason), Detail: x.Detail})
	}
	if len(mismatched) > 0 && p.Inputs.PoolMismatch == policies.PoolRefuse {
		return nil, nil, fmt.Errorf("pool %s: %d stored systems were not scored on the champion's qrels and topics, and the policy's inputs.pool_mismatch is refuse: %s",
			dir, len(mismatched), strings.Join(mismatched, "; "))
	}
	var taken []*pool.Entry
	for _, e := range kept {
		if slices.ContainsFunc(p.Challengers, func(pat policies.Pattern) bool { return pat.Match(e.System) }) {
			detail := "a challenger pattern matches its name; a stored system joins only as an artifact"
			gp.warnings = append(gp.warnings, fmt.Sprintf("pool %s: %q (%s) left out", escape.Printable(dir), e.System, detail))
			gp.use.Excluded = append(gp.use.Excluded, result.PoolExclusion{System: e.System, Reason: "challenger-name", Detail: detail})
			continue
		}
		taken = append(taken, e)
		gp.use.Artifacts = append(gp.use.Artifacts, e.System)
	}
	if len(taken) > 0 && qrels.SHA256 == "" {
		gp.warnings = append(gp.warnings, fmt.Sprintf("pool %s: the champion's qrels are unknown (score files without --qrels): %s taken, whose qrels are unknown too, matched on the topic set only", escape.Printable(dir), numfmt.Plural(len(taken), "stored system")))
	}
	return withArtifacts(ts, taken), gp, nil
}

// gateQrels are the judgments the gate's inputs were scored against: the
// qrels file the runs were scored with, or, with score files, the file
// --qrels names (its SHA-256: riskgate cannot check the claim); zero when
// unknown. Runs scored with filled-in worklists (--judgments) were scored
// against other judgments than the qrels file's: their fingerprint is the
// SHA-256 of the qrels' and the worklists' digests, one per line, in order,
// so that no system scored without them (or with others) matches.
func gateQrels(sources []scores.Source, in *inputOptions) (pool.Qrels, error) {
	var qrels *scores.Source
	var amended []scores.Source
	for i, src := range sources {
		switch src.Role {
		case scores.RoleQrels:
			qrels = &sources[i]
		case scores.RoleJudgments:
			amended = append(amended, src)
		}
	}
	if qrels != nil {
		if len(amended) == 0 {
			return pool.Qrels{SHA256: qrels.SHA256, Path: qrels.Path}, nil
		}
		h := sha256.New()
		paths := []string{qrels.Path}
		fmt.Fprintln(h, qrels.SHA256)
		for _, src := range amended {
			fmt.Fprintln(h, src.SHA256)
			paths = append(paths, src.Path)
		}
		return pool.Qrels{SHA256: hex.EncodeToString(h.Sum(nil)), Path: strings.Join(paths, " + ")}, nil
	}
	if in.Qrels.Value == "" {
		return pool.Qrels{}, nil
	}
	sum, err := fileSHA256(in.Qrels.Value)
	if err != nil {
		return pool.Qrels{}, err
	}
	return pool.Qrels{SHA256: sum, Path: in.Qrels.Value}, nil
}

func digestOrUnknown(d string) string {
	if d == "" {
		return "unknown"
	}
	return d
}

// inputEntries are the entries of the champion and the challengers of the
// inputs: every measure of the gate, recorded at `at` in their role.
func inputEntries(ts engine.Tables, roles policies.Roles, sources []scores.Source, qrels pool.Qrels, label string, at time.Time) ([]*pool.Entry, error) {
	runs := map[string]scores.Source{}
	for _, src := range sources {
		if src.Run != "" {
			runs[src.Run] = src
		}
	}
	var out []*pool.Entry
	for _, sys := range append([]string{roles.Champion}, roles.Challengers...) {
		r := pool.Recording{At: at, Role: pool.Challenger, Label: label, Qrels: qrels}
		if sys == roles.Champion {
			r.Role = pool.Champion
		}
		if src, ok := runs[sys]; ok {
			r.Run = &pool.Run{Path: src.Path, SHA256: src.SHA256}
		}
		var e *pool.Entry
		for _, t := range ts {
			m, err := pool.NewEntry(t, sys, r)
			if err != nil {
				return nil, err
			}
			if e == nil {
				e = m
			} else if e, err = pool.Merge(e, m); err != nil {
				return nil, err
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// inputDiffers says how the stored entry of input system sys differs from
// the input's scores (qrels, topic set, a score's bits); nil when the input
// is what is stored.
func inputDiffers(stored []*pool.Entry, sys string, record []*pool.Entry, ts engine.Tables, qrels pool.Qrels, at time.Time) error {
	i := slices.IndexFunc(stored, func(e *pool.Entry) bool { return e.System == sys })
	if i < 0 {
		return nil
	}
	var e *pool.Entry
	if j := slices.IndexFunc(record, func(e *pool.Entry) bool { return e.System == sys }); j >= 0 {
		e = record[j]
	} else {
		// An input artifact: compared, never recorded.
		var err error
		for _, t := range ts {
			m, merr := pool.NewEntry(t, sys, pool.Recording{At: at, Role: pool.Artifact, Qrels: qrels})
			if merr != nil {
				return merr
			}
			if e == nil {
				e = m
			} else if e, err = pool.Merge(e, m); err != nil {
				return err
			}
		}
	}
	_, err := pool.Merge(stored[i], e)
	return err
}

// withArtifacts is every table with the artifacts' rows appended: their
// scores of its measure on the table's topics (NaN where an artifact has
// none; Partition kept only artifacts on the champion's topic set).
func withArtifacts(ts engine.Tables, arts []*pool.Entry) engine.Tables {
	if len(arts) == 0 {
		return ts
	}
	out := make(engine.Tables, len(ts))
	for k, t := range ts {
		systems := slices.Clone(t.Systems)
		for _, e := range arts {
			systems = append(systems, e.System)
		}
		j := scores.NewTable(t.Measure, systems, t.Topics)
		for s, row := range t.Scores {
			copy(j.Scores[s], row)
		}
		col := make(map[string]int, len(t.Topics))
		for i, topic := range t.Topics {
			col[topic] = i
		}
		for a, e := range arts {
			row := e.Measure(t.Measure)
			for i, topic := range e.Topics {
				if c, ok := col[topic]; ok {
					j.Scores[len(t.Systems)+a][c] = row[i]
				}
			}
		}
		out[k] = j
	}
	return out
}

// record stores the gate's champion and challengers into the pool (created
// if need be) under its lock, and with --promote-on-pass makes the one
// challenger the decision selected the champion when the verdict is pass or
// warn (not under --dry-run). It says on w what it did.
func (o *gatePoolOptions) record(ctx context.Context, gp *gatePool, r *result.Result, at time.Time, w io.Writer) error {
	store, err := pool.Create(ctx, gp.dir)
	if err != nil {
		return fmt.Errorf("--record: %w", err)
	}
	outcomes, err := store.Record(ctx, gp.record...)
	if err != nil {
		return fmt.Errorf("--record: %w", err)
	}
	var done []string
	for _, x := range outcomes {
		done = append(done, fmt.Sprintf("%q %s", x.System, x.Kind))
	}
	fmt.Fprintf(w, "riskgate: pool %s: recorded %s\n", escape.Printable(gp.dir), strings.Join(done, ", "))
	if !o.PromoteOnPass {
		return nil
	}
	d := r.Decision
	switch {
	case r.DryRun:
		fmt.Fprintf(w, "riskgate: pool %s: not promoted: a dry run promotes nothing\n", escape.Printable(gp.dir))
	case d.Verdict != policies.Pass && d.Verdict != policies.Warn:
		fmt.Fprintf(w, "riskgate: pool %s: not promoted: the verdict is %s\n", escape.Printable(gp.dir), d.Verdict)
	case len(d.Selected) != 1:
		fmt.Fprintf(w, "riskgate: pool %s: not promoted: %d challengers are selected (%s); promote one with riskgate pool promote\n",
			escape.Printable(gp.dir), len(d.Selected), quoteNames(d.Selected))
	default:
		previous, err := store.Promote(ctx, d.Selected[0], at, o.Label)
		if err != nil {
			return fmt.Errorf("--promote-on-pass: %w", err)
		}
		fmt.Fprintf(w, "riskgate: pool %s: %q is the champion; %q is an artifact from now on\n", escape.Printable(gp.dir), d.Selected[0], previous)
	}
	return nil
}

// recordAfter is --record once emit has returned err: a decision that was
// reported — no error, or the verdict's exit status — is recorded, unless
// the report set --out asked for was not written (unwritten); after any
// other error nothing is stored, and it says so. A failed record is the
// gate's error: the pool did not get what was asked.
func (o *gateOptions) recordAfter(ctx context.Context, gp *gatePool, r *result.Result, unwritten bool, err error, s *streams) error {
	var verdict *statusError
	switch {
	case err != nil && !errors.As(err, &verdict):
		fmt.Fprintf(s.Err, "riskgate: pool %s: nothing recorded: the gate ended in an error\n", escape.Printable(gp.dir))
		return err
	case unwritten:
		fmt.Fprintf(s.Err, "riskgate: pool %s: nothing recorded: the report set was not written\n", escape.Printable(gp.dir))
		return err
	}
	if rerr := o.Pool.record(ctx, gp, r, o.now(), s.Err); rerr != nil {
		return rerr
	}
	return err
}
