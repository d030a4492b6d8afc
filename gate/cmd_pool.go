package gate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/riskgate/riskgate/gate/pool"
	"github.com/riskgate/riskgate/gate/scores"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/numfmt"

	"github.com/urfave/cli/v3"
)

// riskgate pool: the run history (gate/pool, docs/pool.md). Each
// subcommand has its options, constructor and run function here.

func newPoolCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "pool",
		Usage: "keep the run history: every system's scores, fingerprints and history, and the champions' lineage",
		Description: "A pool is a folder of small text files (docs/pool.md) that keeps every stored system's per-topic\n" +
			"scores on every measure, when it was stored, a label, the SHA-256 of the qrels and topic set it was\n" +
			"scored on, its history, and the lineage of champions. Keep it in the repository or a CI cache.\n" +
			"Exit status: 0 success, 2 usage or input error (a damaged file is named, file:line).",
		Commands: []*cli.Command{
			newPoolAddCommand(s),
			newPoolListCommand(s),
			newPoolShowCommand(s),
			newPoolRmCommand(s),
			newPoolPruneCommand(s),
			newPoolPromoteCommand(s),
			newPoolRescoreCommand(s),
		},
	}
}

func poolFlag(dst *string) *cli.StringFlag {
	return &cli.StringFlag{Name: "pool", Destination: dst, Required: true, Usage: "the pool's `DIR`"}
}

func skipDamagedFlag(dst *bool) *cli.BoolFlag {
	return &cli.BoolFlag{Name: "skip-damaged", Destination: dst,
		Usage: "leave out damaged entries with a warning naming each (default: refuse them)"}
}

// readEntries reads the pool's entries; with skip, damaged ones are left out
// with a warning on w, and their messages returned.
func readEntries(store *pool.Store, skip bool, w io.Writer) ([]*pool.Entry, []string, error) {
	var skipped []string
	opt := pool.ReadOptions{}
	if skip {
		opt.Skip = func(err error) {
			skipped = append(skipped, err.Error())
			fmt.Fprintf(w, "riskgate: warning: %v; skipped\n", err)
		}
	}
	entries, err := store.Entries(opt)
	return entries, skipped, err
}

// poolAddOptions are the options of riskgate pool add.
type poolAddOptions struct {
	Pool     string
	Input    *inputOptions
	Label    string
	KeepRuns bool
	Now      func() time.Time
}

func newPoolAddCommand(s *streams) *cli.Command {
	o := &poolAddOptions{Input: newInputOptions(s), Now: time.Now}
	return &cli.Command{
		Name:      "add",
		Usage:     "store every system of the inputs as an artifact",
		ArgsUsage: "INPUT...",
		Description: "Loads the inputs as every command does (score files, or TREC runs with --qrels) and stores each\n" +
			"system's scores of the measure loaded, creating the pool if need be. With runs, the qrels' SHA-256\n" +
			"is recorded, and each run's path and SHA-256 (--keep-runs copies the run into the pool), for\n" +
			"riskgate pool rescore. With score files, --qrels names the judgments they were scored against:\n" +
			"its SHA-256 is recorded (riskgate cannot check it). A system stored already gains the measure\n" +
			"when it lacks it; other scores, qrels or topics under its name are refused.",
		Flags: append([]cli.Flag{
			poolFlag(&o.Pool),
			&cli.StringFlag{Name: "label", Destination: &o.Label, Usage: "a free `LABEL`: a commit, a tag, an experiment id"},
			&cli.BoolFlag{Name: "keep-runs", Destination: &o.KeepRuns, Usage: "copy TREC run inputs into the pool (default: record their paths)"},
		}, o.Input.flags()...),
		Action: func(ctx context.Context, c *cli.Command) error {
			o.Input.Paths = c.Args().Slice()
			return runPoolAdd(ctx, s, o)
		},
	}
}

func runPoolAdd(ctx context.Context, s *streams, o *poolAddOptions) error {
	// A pool stores scores under the measure's name, and pool rescore scores
	// runs with trec_eval's defaults: scores made under -l, -J or -M would
	// pass for standard ones, and be silently replaced by a rescore.
	if opt, err := o.Input.Trec.options(); err != nil || opt != nil || len(o.Input.Trec.Judgments) > 0 {
		if err != nil {
			return err
		}
		return errors.New("pool add stores scores under the measure's name, and pool rescore scores runs with trec_eval's defaults, so -l, -J, -M and --judgments (which a pool does not record) are refused; add the runs without them")
	}
	t, _, sources, err := o.Input.loadSources(s.Err)
	if err != nil {
		return err
	}
	qrels, runs := pool.Qrels{}, map[string]scores.Source{}
	for _, src := range sources {
		switch {
		case src.Role == scores.RoleQrels:
			qrels = pool.Qrels{SHA256: src.SHA256, Path: src.Path}
		case src.Run != "":
			runs[src.Run] = src
		}
	}
	if qrels.SHA256 == "" && o.Input.Qrels.Value != "" {
		sum, err := fileSHA256(o.Input.Qrels.Value)
		if err != nil {
			return err
		}
		qrels = pool.Qrels{SHA256: sum, Path: o.Input.Qrels.Value}
	}
	if o.KeepRuns && len(runs) == 0 {
		return errors.New("--keep-runs keeps TREC run inputs, and no input is a run")
	}
	at := pool.Time(o.Now())
	var entries []*pool.Entry
	for _, name := range t.Systems {
		r := pool.Recording{At: at, Role: pool.Artifact, Label: o.Label, Qrels: qrels}
		if src, ok := runs[name]; ok {
			r.Run = &pool.Run{Path: src.Path, SHA256: src.SHA256}
			if o.KeepRuns {
				r.Run = pool.KeptRun(name, src.Path, src.SHA256)
			}
		}
		e, err := pool.NewEntry(t, name, r)
		if err != nil {
			return err
		}
		entries = append(entries, e)
	}
	if err := scores.VerifySources(sources); err != nil {
		return err
	}
	store, err := pool.Create(ctx, o.Pool)
	if err != nil {
		return err
	}
	outcomes, err := store.Record(ctx, entries...)
	if err != nil {
		return err
	}
	byKind := map[pool.OutcomeKind][]string{}
	for _, out := range outcomes {
		byKind[out.Kind] = append(byKind[out.Kind], strconv.Quote(out.System))
	}
	var parts []string
	for _, k := range []pool.OutcomeKind{pool.Added, pool.Extended, pool.Unchanged} {
		if names := byKind[k]; len(names) > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", k, strings.Join(names, ", ")))
		}
	}
	fp := entries[0].Fingerprints()
	_, err = fmt.Fprintf(s.Out, "%s: %s (%s on %s; qrels %s)\n", o.Pool, strings.Join(parts, "; "),
		measureLabel(t.Measure), numfmt.Plural(fp.NTopics, "topic"), digestLabel(qrels.SHA256))
	return err
}

func measureLabel(m string) string {
	if m == "" {
		return "scores of an unnamed measure"
	}
	return strconv.Quote(m)
}

func digestLabel(d string) string {
	if d == "" {
		return "unknown"
	}
	return "sha256:" + d[:12] + "…"
}

// fileSHA256 is the SHA-256 of a file's bytes.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", inputerr.At(path, 0, "cannot open the qrels file named by --qrels: %v", errors.Unwrap(err))
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", inputerr.At(path, 0, "read error: %v", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// poolListOptions are the options of riskgate pool list.
type poolListOptions struct {
	Pool        string
	Format      string // table or json
	SkipDamaged bool
}

func newPoolListCommand(s *streams) *cli.Command {
	o := &poolListOptions{}
	return &cli.Command{
		Name:  "list",
		Usage: "list the stored systems and the lineage",
		Description: "One row per stored system, oldest first: its role now (the lineage's current champion, else\n" +
			"artifact), when it was stored, its label, measures, number of topics and qrels fingerprint.",
		Flags: []cli.Flag{poolFlag(&o.Pool), formatFlag(&o.Format, []string{"table", "json"}), skipDamagedFlag(&o.SkipDamaged)},
		Action: func(_ context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return fmt.Errorf("pool list takes no arguments (got %q)", c.Args().First())
			}
			return runPoolList(s, o)
		},
	}
}

func runPoolList(s *streams, o *poolListOptions) error {
	if err := checkPoolFormat(o.Format); err != nil {
		return err
	}
	store, err := pool.Open(o.Pool)
	if err != nil {
		return err
	}
	entries, skipped, err := readEntries(store, o.SkipDamaged, s.Err)
	if err != nil {
		return err
	}
	reigns, err := store.Lineage()
	if err != nil {
		return err
	}
	v := pool.NewListView(store, entries, reigns, skipped)
	return writeOutput(s.Out, "", func(w io.Writer) error {
		if o.Format == "json" {
			return writeJSON(w, v)
		}
		return v.WriteList(w)
	})
}

func checkPoolFormat(format string) error {
	if format != "table" && format != "json" {
		return fmt.Errorf("--format %q: expected table or json", format)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// poolShowOptions are the options of riskgate pool show.
type poolShowOptions struct {
	Pool   string
	Format string
	System string
}

func newPoolShowCommand(s *streams) *cli.Command {
	o := &poolShowOptions{}
	return &cli.Command{
		Name:        "show",
		Usage:       "show one stored system: fingerprints, history and scores",
		ArgsUsage:   "SYSTEM",
		Description: "Prints the system's fields, its history (with its reigns as champion) and every score it holds.",
		Flags:       []cli.Flag{poolFlag(&o.Pool), formatFlag(&o.Format, []string{"table", "json"})},
		Action: func(_ context.Context, c *cli.Command) error {
			if c.NArg() != 1 {
				return fmt.Errorf("pool show: name one SYSTEM, got %d arguments", c.NArg())
			}
			o.System = c.Args().First()
			return runPoolShow(s, o)
		},
	}
}

func runPoolShow(s *streams, o *poolShowOptions) error {
	if err := checkPoolFormat(o.Format); err != nil {
		return err
	}
	store, err := pool.Open(o.Pool)
	if err != nil {
		return err
	}
	e, err := store.Entry(o.System)
	if err != nil {
		return err
	}
	reigns, err := store.Lineage()
	if err != nil {
		return err
	}
	v := pool.NewShowView(store, e, reigns)
	return writeOutput(s.Out, "", func(w io.Writer) error {
		if o.Format == "json" {
			return writeJSON(w, v)
		}
		return v.WriteShow(w)
	})
}

// poolRmOptions are the options of riskgate pool rm.
type poolRmOptions struct {
	Pool    string
	Systems []string
}

func newPoolRmCommand(s *streams) *cli.Command {
	o := &poolRmOptions{}
	return &cli.Command{
		Name:      "rm",
		Usage:     "remove stored systems",
		ArgsUsage: "SYSTEM...",
		Description: "Removes each system's entry (and its kept run). Every name must be stored, else nothing is\n" +
			"removed; the current champion cannot be (promote another first). A damaged entry can be removed.",
		Flags: []cli.Flag{poolFlag(&o.Pool)},
		Action: func(ctx context.Context, c *cli.Command) error {
			o.Systems = c.Args().Slice()
			return runPoolRm(ctx, s, o)
		},
	}
}

func runPoolRm(ctx context.Context, s *streams, o *poolRmOptions) error {
	if len(o.Systems) == 0 {
		return errors.New("pool rm: name at least one SYSTEM")
	}
	store, err := pool.Open(o.Pool)
	if err != nil {
		return err
	}
	if err := store.Remove(ctx, o.Systems...); err != nil {
		return err
	}
	_, err = fmt.Fprintf(s.Out, "%s: removed %s\n", o.Pool, quoteNames(o.Systems))
	return err
}

func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// poolPruneOptions are the options of riskgate pool prune.
type poolPruneOptions struct {
	Pool        string
	Keep        int
	OlderThan   string // a Go duration, or a number of days: 30d
	Label       string
	Apply       bool
	SkipDamaged bool
	Now         func() time.Time
}

func newPoolPruneCommand(s *streams) *cli.Command {
	o := &poolPruneOptions{Now: time.Now}
	return &cli.Command{
		Name:  "prune",
		Usage: "remove old artifacts: by count, age or label (a dry run unless --apply)",
		Description: "Selects the systems that meet every criterion given — not among the --keep N stored last, stored\n" +
			"more than --older-than ago, label matching --label — never the current champion, and prints\n" +
			"them. Only with --apply are they removed.",
		Flags: []cli.Flag{
			poolFlag(&o.Pool),
			&cli.IntFlag{Name: "keep", Destination: &o.Keep, HideDefault: true, Usage: "keep the `N` systems stored last (the champion is kept besides)"},
			&cli.StringFlag{Name: "older-than", Destination: &o.OlderThan, Usage: "select systems stored more than `AGE` ago: 90d, 36h, 1h30m"},
			&cli.StringFlag{Name: "label", Destination: &o.Label, Usage: "select systems whose label matches `PATTERN` (* and ?, as a glob)"},
			&cli.BoolFlag{Name: "apply", Destination: &o.Apply, Usage: "remove the systems selected (default: only print them)"},
			skipDamagedFlag(&o.SkipDamaged),
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return fmt.Errorf("pool prune takes no arguments (got %q); to remove named systems use pool rm", c.Args().First())
			}
			if c.IsSet("keep") && o.Keep < 1 {
				return fmt.Errorf("--keep %d: expected at least 1 (pool rm removes named systems)", o.Keep)
			}
			return runPoolPrune(ctx, s, o)
		},
	}
}

// parseAge reads --older-than: a Go duration (36h, 90m) or whole days (30d).
func parseAge(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n > 0 && n < 1e6 {
			return time.Duration(n) * 24 * time.Hour, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("--older-than %q: expected a positive age such as 90d, 36h or 1h30m", s)
	}
	return d, nil
}

func runPoolPrune(ctx context.Context, s *streams, o *poolPruneOptions) error {
	age, err := parseAge(o.OlderThan)
	if err != nil {
		return err
	}
	store, err := pool.Open(o.Pool)
	if err != nil {
		return err
	}
	entries, _, err := readEntries(store, o.SkipDamaged, s.Err)
	if err != nil {
		return err
	}
	champion, err := store.Champion()
	if err != nil {
		return err
	}
	selected, err := pool.Prune(entries, champion, pool.PruneRule{Keep: o.Keep, OlderThan: age, Label: o.Label}, o.Now())
	if err != nil {
		return err
	}
	var names []string
	for _, e := range selected {
		names = append(names, e.System)
	}
	switch {
	case len(names) == 0:
		_, err = fmt.Fprintf(s.Out, "%s: no system to prune (%d stored)\n", o.Pool, len(entries))
	case !o.Apply:
		_, err = fmt.Fprintf(s.Out, "%s: would remove %d of %d: %s\n(a dry run: --apply removes them)\n", o.Pool, len(names), len(entries), quoteNames(names))
	default:
		if err = store.Remove(ctx, names...); err == nil {
			_, err = fmt.Fprintf(s.Out, "%s: removed %d of %d: %s\n", o.Pool, len(names), len(entries), quoteNames(names))
		}
	}
	return err
}

// poolPromoteOptions are the options of riskgate pool promote.
type poolPromoteOptions struct {
	Pool   string
	System string
	Label  string
	Now    func() time.Time
}

func newPoolPromoteCommand(s *streams) *cli.Command {
	o := &poolPromoteOptions{Now: time.Now}
	return &cli.Command{
		Name:      "promote",
		Usage:     "make a stored system the champion (the previous champion becomes an artifact)",
		ArgsUsage: "SYSTEM",
		Description: "Appends SYSTEM to the lineage of champions, from now. The previous champion stays stored, as an\n" +
			"artifact from now on.",
		Flags: []cli.Flag{poolFlag(&o.Pool), &cli.StringFlag{Name: "label", Destination: &o.Label, Usage: "a `LABEL` for the promotion: the release, the commit"}},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() != 1 {
				return fmt.Errorf("pool promote: name one SYSTEM, got %d arguments", c.NArg())
			}
			o.System = c.Args().First()
			return runPoolPromote(ctx, s, o)
		},
	}
}

func runPoolPromote(ctx context.Context, s *streams, o *poolPromoteOptions) error {
	store, err := pool.Open(o.Pool)
	if err != nil {
		return err
	}
	at := pool.Time(o.Now())
	previous, err := store.Promote(ctx, o.System, at, o.Label)
	if err != nil {
		return err
	}
	msg := fmt.Sprintf("%s: %q is the champion from %s", o.Pool, o.System, at.Format(time.RFC3339))
	if previous != "" {
		msg += fmt.Sprintf("; %q is an artifact from now on", previous)
	}
	_, err = fmt.Fprintln(s.Out, msg)
	return err
}

// poolRescoreOptions are the options of riskgate pool rescore.
type poolRescoreOptions struct {
	Pool        string
	Qrels       string
	Topics      string
	Label       string
	Systems     []string // "" = every system with a run
	SkipDamaged bool
	Now         func() time.Time
}

func newPoolRescoreCommand(s *streams) *cli.Command {
	o := &poolRescoreOptions{Now: time.Now}
	return &cli.Command{
		Name:      "rescore",
		Usage:     "score stored runs again against other qrels",
		ArgsUsage: "[SYSTEM...]",
		Description: "Re-scores every stored measure of the named systems (default: every system stored from a run)\n" +
			"from their runs — the pool's copy when kept, else the file at the path recorded, which must still\n" +
			"have the SHA-256 recorded — against --qrels, aligning topics with --topics as pool add does.\n" +
			"The scores, topics and qrels fingerprint are replaced; the history records the rescore.",
		Flags: []cli.Flag{
			poolFlag(&o.Pool),
			&cli.StringFlag{Name: "qrels", Destination: &o.Qrels, Required: true, Usage: "the qrels `FILE` to score against"},
			&cli.StringFlag{Name: "topics", Value: string(scores.Intersect), Destination: &o.Topics,
				Usage: "`MODE` for topics not scored for every system: intersect, zero, error, keep"},
			&cli.StringFlag{Name: "label", Destination: &o.Label, Usage: "a `LABEL` for the rescore: the qrels' version"},
			skipDamagedFlag(&o.SkipDamaged),
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			o.Systems = c.Args().Slice()
			return runPoolRescore(ctx, s, o)
		},
	}
}

func runPoolRescore(ctx context.Context, s *streams, o *poolRescoreOptions) error {
	mode, err := scores.ParseTopicMode(o.Topics)
	if err != nil {
		return err
	}
	store, err := pool.Open(o.Pool)
	if err != nil {
		return err
	}
	var selected []*pool.Entry
	if len(o.Systems) > 0 {
		for _, name := range o.Systems {
			e, err := store.Entry(name)
			if err != nil {
				return err
			}
			if e.Run == nil {
				return fmt.Errorf("system %q was not stored from a run file, so it cannot be rescored", name)
			}
			selected = append(selected, e)
		}
	} else {
		all, _, err := readEntries(store, o.SkipDamaged, s.Err)
		if err != nil {
			return err
		}
		for _, e := range all {
			if e.Run != nil {
				selected = append(selected, e)
			}
		}
		if len(selected) == 0 {
			return fmt.Errorf("no system in %s was stored from a run file (pool add records a run's path when the inputs are TREC runs with --qrels)", o.Pool)
		}
	}
	rescored, qrels, err := rescoreEntries(store, selected, o.Qrels, mode, s.Err)
	if err != nil {
		return err
	}
	n, err := store.Rescore(ctx, pool.Time(o.Now()), o.Label, rescored...)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(s.Out, "%s: rescored %d of %d systems against %s (qrels %s); %d unchanged\n",
		o.Pool, n, len(rescored), o.Qrels, digestLabel(qrels), len(rescored)-n)
	return err
}

// rescoreEntries scores each entry's run against qrels on every measure the
// entry holds (the runs holding a measure are scored together and aligned
// with mode) and returns the new entries and the qrels file's SHA-256.
func rescoreEntries(store *pool.Store, entries []*pool.Entry, qrelsPath string, mode scores.TopicMode, notes io.Writer) ([]*pool.Entry, string, error) {
	var measures []string
	for _, e := range entries {
		for _, m := range e.Measures {
			if !slices.Contains(measures, m) {
				measures = append(measures, m)
			}
		}
	}
	out := make([]*pool.Entry, len(entries))
	qrelsSHA := ""
	for _, m := range measures {
		var paths []string
		var holders []int
		for i, e := range entries {
			if slices.Contains(e.Measures, m) {
				paths = append(paths, store.RunPath(e.Run))
				holders = append(holders, i)
			}
		}
		set, a, sources, err := scores.LoadSources(paths, scores.LoadOptions{Format: scores.Run, Measures: []string{m}, Qrels: qrelsPath, Topics: mode})
		if err != nil {
			return nil, "", err
		}
		t := set.Tables[0]
		if msg := a.Summary(); msg != "" {
			fmt.Fprintf(notes, "riskgate: note: %s: %s\n", measureLabel(m), msg)
		}
		for _, src := range sources {
			if src.Role == scores.RoleQrels {
				qrelsSHA = src.SHA256
			}
		}
		for k, i := range holders {
			e, src := entries[i], sources[k]
			if src.SHA256 != e.Run.SHA256 {
				return nil, "", inputerr.At(src.Path, 0, "the run changed since %q was stored from it (SHA-256 %.12s…, stored %.12s…); expected the run scored then", e.System, src.SHA256, e.Run.SHA256)
			}
			if src.Run != e.System {
				return nil, "", inputerr.At(src.Path, 0, "the run scores as %q; expected %q, the system stored from it", src.Run, e.System)
			}
			ne, err := pool.NewEntry(t, e.System, pool.Recording{At: e.Stored, Role: pool.Artifact, Qrels: pool.Qrels{SHA256: qrelsSHA, Path: qrelsPath}, Run: e.Run})
			if err != nil {
				return nil, "", err
			}
			if out[i] != nil {
				if ne, err = pool.Merge(out[i], ne); err != nil {
					return nil, "", err
				}
			}
			out[i] = ne
		}
		if err := scores.VerifySources(sources); err != nil {
			return nil, "", err
		}
	}
	return out, qrelsSHA, nil
}
