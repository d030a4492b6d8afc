package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/riskgate/riskgate/gate/calibrate"

	"github.com/riskgate/riskgate/gate/engine"

	"github.com/riskgate/riskgate/internal/buildinfo"
	"github.com/riskgate/riskgate/internal/stats"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/cputime"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
	"github.com/riskgate/riskgate/risk"
)

// The figures of riskgate bench. Each is a Case: prepare builds its
// data (not timed) and returns the timed work, which Run runs
// --count times. The Go benchmark BenchmarkBenchCases runs the same cases.

// Case is one figure.
type Case struct {
	ID   string // stable id: --only matches it, and it names the Go sub-benchmark
	What string // what is timed, with its settings
	Data string // on what data
	// Once: the case runs once whatever --count (calibrate, rstanarm).
	Once    bool
	prepare func() (*Work, error)
}

// Work is a prepared case: run does the timed work once.
type Work struct {
	run     func() (Outcome, error)
	cleanup func()
}

// Outcome is what one timed run reports beside its time.
type Outcome struct {
	Lines float64 // eval: run lines read
	ESS   float64 // fits: the smallest bulk- or tail-ESS over every quantity
	Cells int     // fits: systems × topics
	// Scale > 0 multiplies the measured time: an extrapolation (calibrate
	// with --quick times a fraction of the replicates).
	Scale float64
	// Seconds, when set, is the time the work measured itself (rstanarm's
	// fit inside R, a riskgate process), reported instead of the wall time
	// of run; CPUSeconds, with it, the CPU time it measured (else unknown).
	Seconds    float64
	CPUSeconds float64
	// Process: the work ran in another process, whose peak memory is not
	// known (a child's ru_maxrss counts the parent's memory it was forked
	// from), so none is reported.
	Process bool
	// Reference is the reference program's run paired with this one.
	Reference *RefTiming
	Note      string
	// Source names where a recorded figure comes from; it was not measured.
	Source string
	// Ratio compares with riskgate's own figure (rstanarm).
	Ratio *Ratio
}

// RefTiming is one run of a reference program (trec_eval) on the same input.
type RefTiming struct {
	Program             string
	Seconds, CPUSeconds float64
	Identical           bool // its output is riskgate's, byte for byte
}

// UserData is the user's data for the figures on it.
type UserData struct {
	Table                *scores.Table
	Paths                []string
	Qrels                string
	Runs                 []string // TREC runs to time eval on (when --qrels is given)
	Champion, Challenger int
}

func Role(t *scores.Table, flag, name string, def int) (int, error) {
	if name == "" {
		if def >= len(t.Systems) {
			return 0, fmt.Errorf("your data has %d system(s); bench needs at least 2", len(t.Systems))
		}
		return def, nil
	}
	i := t.SystemIndex(name)
	if i < 0 {
		return 0, t.UnknownSystemError(flag, name)
	}
	return i, nil
}

// benchFitSizes are the pools the fit is timed on (systems × topics): rb04's
// size, then growing to 1,000 × 10,000 (issue 9's scale target).
func benchFitSizes(quick bool) [][2]int {
	if quick {
		return [][2]int{{45, 50}, {100, 200}, {200, 1000}}
	}
	return [][2]int{{45, 50}, {100, 200}, {200, 1000}, {1000, 2000}, {1000, 10000}}
}

// benchEvalSetting is the simulated TREC setting eval is timed on.
func BenchEvalSetting(quick bool) ScaleSetting {
	s := MSMARCO
	s.Queries, s.Runs = 2000, 4
	if quick {
		s.Queries, s.Runs = 250, 2
	}
	return s
}

const (
	TargetESS        = 10000   // the fits' ESS target, as the bayes benchmarks
	benchBootstrapB  = 100_000 // BCa replicates, as riskgate compare
	benchTukeyB      = 10_000  // randomised Tukey HSD replicates, as riskgate compare
	benchLossWeight  = 5
	benchCalibReps   = 500 // issue 9's calibrate target
	benchQuickCalibR = 10  // replicates per effect timed with --quick
)

// Cases lists the figures for cfg, in the order they are reported.
func Cases(cfg Config) []Case {
	var cs []Case
	es := BenchEvalSetting(cfg.Quick)
	cs = append(cs, Case{ID: "eval",
		What: "riskgate eval, trec_eval's default measures",
		Data: fmt.Sprintf("simulated MS MARCO-like: %s queries × %s documents × %d runs (%s lines)", numfmt.Thousands(es.Queries), numfmt.Thousands(es.Depth), es.Runs, numfmt.Thousands(es.Queries*es.Depth*es.Runs)),
		prepare: func() (*Work, error) {
			dir, err := os.MkdirTemp("", "riskgate-bench-")
			if err != nil {
				return nil, err
			}
			qrels, runs, err := es.write(dir)
			if err != nil {
				os.RemoveAll(dir)
				return nil, err
			}
			return &Work{run: benchEval(qrels, runs, float64(es.Queries*es.Depth*es.Runs)), cleanup: func() { os.RemoveAll(dir) }}, nil
		}})
	cs = append(cs, benchEvalRefCases(cfg)...)
	for _, sz := range benchFitSizes(cfg.Quick) {
		nS, nT := sz[0], sz[1]
		what := "hierarchical fit, 4 chains, every bulk- and tail-ESS ≥ 10,000"
		data := fmt.Sprintf("simulated %s systems × %s topics", numfmt.Thousands(nS), numfmt.Thousands(nT))
		if nS == 45 && nT == 50 {
			data += " (rb04's size)"
		}
		cs = append(cs, Case{ID: fmt.Sprintf("fit-%dx%d", nS, nT), What: what, Data: data,
			prepare: func() (*Work, error) {
				t := benchPool(nS, nT)
				return &Work{run: benchFit(cfg.context(), t)}, nil
			}})
	}
	rb := func() *bayes.Table { return benchPool(45, 50) }
	cs = append(cs,
		Case{ID: "brisk-45x50", What: "BRisk at w = 5: fit (ESS ≥ 10,000), 4 challengers' differences and topics at risk",
			Data: "simulated 45 systems × 50 topics",
			prepare: func() (*Work, error) {
				return &Work{run: benchBRisk(cfg.context(), rb(), 0, []int{1, 2, 3, 4})}, nil
			}},
		Case{ID: "bca-45x50", What: "BCa bootstrap (and percentile), B = 100,000, 4 challengers, w = 5",
			Data: "simulated 45 systems × 50 topics",
			prepare: func() (*Work, error) {
				return &Work{run: benchBCa(rb().Scores, 0, []int{1, 2, 3, 4})}, nil
			}},
		Case{ID: "tukey-45x50", What: "randomised Tukey HSD, B = 10,000",
			Data: "simulated 45 systems × 50 topics",
			prepare: func() (*Work, error) {
				return &Work{run: benchTukey(rb().Scores)}, nil
			}},
	)
	cs = append(cs, benchMeasureCases(cfg)...)
	cs = append(cs, benchGateMeasureCases(cfg)...)
	cs = append(cs, benchGateSegmentCases(cfg)...)
	cs = append(cs, benchCalibrateCases(cfg)...)
	if u := cfg.User; u != nil {
		cs = append(cs, benchUserCases(cfg, u)...)
	}
	if cfg.WithRstanarm {
		cs = append(cs, benchRstanarmCases(cfg)...)
	}
	return cs
}

// benchUserCases are the figures on the user's data.
func benchUserCases(cfg Config, u *UserData) []Case {
	t := u.Table
	data := fmt.Sprintf("your data: %s systems × %s topics", numfmt.Thousands(len(t.Systems)), numfmt.Thousands(len(t.Topics)))
	var cs []Case
	if len(u.Runs) > 0 {
		cs = append(cs, Case{ID: "user-eval", What: "riskgate eval, trec_eval's default measures",
			Data: fmt.Sprintf("your %d run file(s)", len(u.Runs)),
			prepare: func() (*Work, error) {
				lines, err := countLines(u.Runs)
				if err != nil {
					return nil, err
				}
				return &Work{run: benchEval(u.Qrels, u.Runs, float64(lines))}, nil
			}})
	}
	chals := []int{u.Challenger}
	for s := range t.Systems {
		if len(chals) < 4 && s != u.Champion && s != u.Challenger {
			chals = append(chals, s)
		}
	}
	bt := &bayes.Table{Systems: t.Systems, Topics: t.Topics, Scores: t.Scores}
	cs = append(cs,
		Case{ID: "user-fit", What: "hierarchical fit, 4 chains, every bulk- and tail-ESS ≥ 10,000", Data: data,
			prepare: func() (*Work, error) { return &Work{run: benchFit(cfg.context(), bt)}, nil }},
		Case{ID: "user-brisk", What: fmt.Sprintf("BRisk at w = 5: fit (ESS ≥ 10,000), %d challenger(s)' differences and topics at risk", len(chals)), Data: data,
			prepare: func() (*Work, error) { return &Work{run: benchBRisk(cfg.context(), bt, u.Champion, chals)}, nil }},
		Case{ID: "user-bca", What: fmt.Sprintf("BCa bootstrap (and percentile), B = 100,000, %d challenger(s), w = 5", len(chals)), Data: data,
			prepare: func() (*Work, error) { return &Work{run: benchBCa(t.Scores, u.Champion, chals)}, nil }},
		Case{ID: "user-tukey", What: "randomised Tukey HSD, B = 10,000", Data: data,
			prepare: func() (*Work, error) { return &Work{run: benchTukey(t.Scores)}, nil }},
	)
	return cs
}

// benchPool is the simulated pool of the fit figures: nS systems × nT topics
// from the hierarchical model at Robust04's scale (intercept 0.3, σ 0.1,
// SD_topic 0.2, SD_system 0.02; bayes's BenchmarkFitPool1000x10000 draws its
// pool with the same settings and streams), complete and unbounded.
func benchPool(nS, nT int) *bayes.Table {
	h := bayes.NewHierParams(rand1(1), 0.3, 0.1, 0.2, 0.02, nS, nT)
	t, err := h.Scores(rand1(2), plainNames("s", nS), plainNames("t", nT), bayes.ScoreOptions{})
	if err != nil {
		panic("gate: bench pool: " + err.Error()) // names match the sizes: cannot happen
	}
	return t
}

// plainNames returns prefix1 … prefixN (not zero-padded, as bayes's benchmark pools).
func plainNames(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i+1)
	}
	return out
}

func benchEval(qrels string, runs []string, lines float64) func() (Outcome, error) {
	return func() (Outcome, error) {
		cl, err := trec.ParseCommandLine(append([]string{qrels}, runs...))
		if err != nil {
			return Outcome{}, err
		}
		if err := cl.Execute(nil, io.Discard, io.Discard); err != nil {
			return Outcome{}, err
		}
		return Outcome{Lines: lines}, nil
	}
}

// countLines counts the lines of files.
func countLines(paths []string) (int, error) {
	n := 0
	buf := make([]byte, 1<<20)
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return 0, err
		}
		for {
			k, err := f.Read(buf)
			n += bytes.Count(buf[:k], []byte{'\n'})
			if err == io.EOF {
				break
			}
			if err != nil {
				f.Close()
				return 0, err
			}
		}
		f.Close()
	}
	return n, nil
}

// benchFitOptions are the settings of every timed fit (ctx stops it).
func benchFitOptions(ctx context.Context) bayes.HierOptions {
	return bayes.HierOptions{Sampler: mcmc.NUTSOptions{Seed: 42, Context: ctx}, TargetESS: TargetESS}
}

func benchFit(ctx context.Context, t *bayes.Table) func() (Outcome, error) {
	return func() (Outcome, error) {
		f, err := bayes.FitHier(t, benchFitOptions(ctx))
		if err != nil {
			return Outcome{}, err
		}
		f.Describe() // the summaries a report shows are part of the fit's cost
		bulk, tail, _ := f.WorstConvergence()
		o := Outcome{ESS: math.Min(bulk, tail), Cells: len(t.Systems) * len(t.Topics)}
		if !f.Converged {
			o.Note = "did not converge: " + f.Warnings[0]
		}
		return o, nil
	}
}

func benchBRisk(ctx context.Context, t *bayes.Table, champion int, chals []int) func() (Outcome, error) {
	return func() (Outcome, error) {
		r, err := bayes.BRisk(t, champion, benchLossWeight, bayes.BRiskOptions{Challengers: chals, Hier: benchFitOptions(ctx)})
		if err != nil {
			return Outcome{}, err
		}
		// the topics at risk and the summaries a report shows
		if _, err := r.Describe(); err != nil {
			return Outcome{}, err
		}
		r.Fit.Describe()
		bulk, tail, _ := r.Fit.WorstConvergence()
		o := Outcome{ESS: math.Min(bulk, tail), Cells: len(t.Systems) * len(t.Topics)}
		if !r.Converged {
			o.Note = "did not converge: " + r.Warnings[0]
		}
		return o, nil
	}
}

func benchBCa(s [][]float64, champion int, chals []int) func() (Outcome, error) {
	return func() (Outcome, error) {
		o := risk.BootstrapOptions{B: benchBootstrapB, Level: 1 - 0.05/float64(len(chals)), Seed: 1}
		for _, c := range chals {
			if _, err := (risk.Pair{X: s[c], Base: s[champion]}).BCa(benchLossWeight, o); err != nil {
				return Outcome{}, err
			}
		}
		return Outcome{}, nil
	}
}

func benchTukey(s [][]float64) func() (Outcome, error) {
	return func() (Outcome, error) {
		_, err := risk.Systems(s).RandomizedTukeyHSD(benchTukeyB, 1)
		return Outcome{}, err
	}
}

// Run runs the cases cfg selects and builds the report, saying on
// status (a terminal, or nil) which case runs.
func Run(ctx context.Context, cfg Config, errw io.Writer) (*Report, error) {
	now := time.Now
	if cfg.now != nil {
		now = cfg.now
	}
	cfg.Context = ctx
	if cfg.tools == nil {
		cfg.tools = &refTools{trecEvalFlag: cfg.TrecEval}
		defer cfg.tools.cleanup()
	}
	rep := &Report{SchemaVersion: 1, Tool: buildinfo.Version(), Quick: cfg.Quick, Count: cfg.Count, Machine: benchMachine()}
	rep.Machine.LoadBefore = jsonfloat.Floats(cputime.LoadAverage())
	start := now()
	for _, c := range Cases(cfg) {
		if !cfg.Only.MatchString(c.ID) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		benchStatus(errw, "bench: %s (%s)…", c.ID, c.Data)
		row, err := runBenchCase(c, cfg.Count)
		if err != nil {
			return nil, fmt.Errorf("bench %s: %w", c.ID, err)
		}
		rep.Rows = append(rep.Rows, row)
	}
	benchStatus(errw, "")
	fillRatios(rep.Rows)
	rep.Machine.LoadAfter = jsonfloat.Floats(cputime.LoadAverage())
	rep.ElapsedSeconds = jsonfloat.Float(now().Sub(start).Seconds())
	rep.Growth = benchGrowth(rep.Rows)
	return rep, nil
}

// runBenchCase prepares c and runs it count times (once if c.Once).
func runBenchCase(c Case, count int) (Row, error) {
	row := Row{ID: c.ID, What: c.What, Data: c.Data, Reproduce: "go test ./gate/bench -run X -bench 'BenchCases/" + c.ID + "$'"}
	w, err := c.prepare()
	var skip *skipError
	if errors.As(err, &skip) {
		row.Note, row.Reproduce = "not run: "+skip.why, ""
		row.Seconds, row.CPUSeconds = jsonfloat.Float(math.NaN()), jsonfloat.Float(math.NaN())
		return row, nil
	}
	if err != nil {
		return row, err
	}
	if w.cleanup != nil {
		defer w.cleanup()
	}
	if c.Once {
		count = 1
	}
	var walls, cpus, refWalls, refCPUs, speedups []float64
	var last Outcome
	for range count {
		runtime.GC()
		c0, t0 := cputime.Process(), time.Now()
		o, err := w.run()
		wall, cpu := time.Since(t0).Seconds(), (cputime.Process() - c0).Seconds()
		if err != nil {
			return row, err
		}
		if o.Seconds > 0 {
			wall, cpu = o.Seconds, math.NaN()
			if o.CPUSeconds > 0 {
				cpu = o.CPUSeconds
			}
		}
		if o.Scale > 0 {
			wall, cpu = wall*o.Scale, cpu*o.Scale
			row.Extrapolated = true
		}
		walls, cpus = append(walls, wall), append(cpus, cpu)
		if r := o.Reference; r != nil {
			refWalls, refCPUs = append(refWalls, r.Seconds), append(refCPUs, r.CPUSeconds)
			speedups = append(speedups, r.Seconds/wall)
		}
		last = o
	}
	if r := last.Reference; r != nil {
		row.Reference = &Reference{Program: r.Program, Seconds: jsonfloat.Float(stats.Median(refWalls)),
			CPUSeconds: jsonfloat.Float(stats.Median(refCPUs)), Speedup: jsonfloat.Float(stats.Median(speedups)), Identical: r.Identical}
	}
	row.Runs = count
	row.Seconds, row.CPUSeconds = jsonfloat.Float(stats.Median(walls)), jsonfloat.Float(stats.Median(cpus))
	if rss := peakRSS(); rss > 0 && last.Source == "" && !last.Process {
		row.PeakRSSMB = jsonfloat.Ptr(float64(rss) / (1 << 20))
	}
	switch {
	case last.Lines > 0:
		row.Rate, row.RateUnit = jsonfloat.Ptr(last.Lines/float64(row.Seconds)), "run lines/s"
	case last.ESS > 0:
		row.MinESS = jsonfloat.Ptr(last.ESS)
		row.Rate, row.RateUnit = jsonfloat.Ptr(last.ESS/float64(row.Seconds)), "ESS/s"
	}
	row.Cells, row.Note, row.Ratio, row.Source = last.Cells, last.Note, last.Ratio, last.Source
	if row.Source != "" {
		row.Reproduce = ""
	}
	return row, nil
}

// benchGrowth fits log(time) = a + b·log(systems × topics) by least squares
// over the simulated fit figures: b is how the fit's cost grows with the
// pool's size (1: linearly).
func benchGrowth(rows []Row) *Growth {
	var xs, ys []float64
	for _, r := range rows {
		if len(r.ID) > 4 && r.ID[:4] == "fit-" && r.Cells > 0 && r.Seconds > 0 {
			xs = append(xs, math.Log(float64(r.Cells)))
			ys = append(ys, math.Log(float64(r.Seconds)))
		}
	}
	if len(xs) < 2 {
		return nil
	}
	mx, my := posterior.Mean(xs), posterior.Mean(ys)
	sxy, sxx := 0.0, 0.0
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	return &Growth{Exponent: jsonfloat.Float(sxy / sxx), FromCells: int(math.Round(math.Exp(slices.Min(xs)))), ToCells: int(math.Round(math.Exp(slices.Max(xs)))), Fits: len(xs)}
}

// fillRatios completes each ratio with the figure it is against; a ratio
// whose figure was not run (--only) is dropped, with a note.
func fillRatios(rows []Row) {
	for i := range rows {
		q := rows[i].Ratio
		if q == nil {
			continue
		}
		j := slices.IndexFunc(rows, func(r Row) bool { return r.ID == q.Against })
		if j < 0 {
			rows[i].Ratio = nil
			rows[i].Note = strings.TrimPrefix(rows[i].Note+"; ", "; ") + "run " + q.Against + " too for the ratio"
			continue
		}
		q.Time = rows[i].Seconds / rows[j].Seconds
		q.ESSPerSecond = jsonfloat.Float(math.NaN())
		if rows[i].Rate != nil && rows[j].Rate != nil {
			q.ESSPerSecond = *rows[j].Rate / *rows[i].Rate
		}
	}
}

// benchCalibrateCases time riskgate calibrate with the default policy and
// its default effects: on an rb04-like pool, and on the user's data.
func benchCalibrateCases(cfg Config) []Case {
	reps, scale := benchCalibReps, 0.0
	what := fmt.Sprintf("riskgate calibrate, default policy, --reps %d × %d effects (%s)", benchCalibReps, len(benchCalibEffects()), calibrate.DefaultEffects)
	if cfg.Quick {
		reps, scale = benchQuickCalibR, float64(benchCalibReps)/benchQuickCalibR
		what += fmt.Sprintf("; --quick times %d replicates and extrapolates", benchQuickCalibR)
	}
	cs := []Case{{ID: "calibrate-45x50", What: what, Once: true,
		Data: "simulated rb04-like pool: 45 systems × 50 topics from rb04.csv's moment estimates",
		prepare: func() (*Work, error) {
			return &Work{run: benchCalibrate(cfg.context(), policies.Default(), benchCalibPool(), reps, scale)}, nil
		}}}
	if u := cfg.User; u != nil {
		p := policies.Default()
		p.Champion, p.ChampionPos = u.Table.Systems[u.Champion], policies.Pos{}
		p.Challengers = []policies.Pattern{{Text: u.Table.Systems[u.Challenger]}}
		cs = append(cs, Case{ID: "user-calibrate", What: what, Once: true,
			Data: fmt.Sprintf("your data: %s systems × %s topics", numfmt.Thousands(len(u.Table.Systems)), numfmt.Thousands(len(u.Table.Topics))),
			prepare: func() (*Work, error) {
				return &Work{run: benchCalibrate(cfg.context(), p, u.Table, reps, scale)}, nil
			}})
	}
	return cs
}

// benchCalibEffects are calibrate's default effects.
func benchCalibEffects() []float64 {
	e, err := calibrate.ParseEffects(calibrate.DefaultEffects)
	if err != nil {
		panic("gate: the default effects: " + err.Error()) // a constant: cannot happen
	}
	return e
}

// benchCalibPool is an rb04-like pool named for the default policy: a
// champion, one challenger and 43 artifacts over 50 topics, drawn from the
// generating model calibrate estimates from rb04.csv (champion Champion,
// challengers Chal. 1–4; the estimates calibrate prints, rounded).
func benchCalibPool() *scores.Table {
	m := bayes.PoolModel{Intercept: 0.314, Sigma: 0.1068, SDTopic: 0.1932, SDSystem: 0.01038, DiffSD: 0.09013, DiffSkew: 0.6625}
	systems := append([]string{"production", "candidate-1"}, engine.NumberedNames("artifact-", 43)...)
	pool, _, err := m.Simulate(rand1(3), 0, systems, plainNames("t", 50))
	if err != nil {
		panic("gate: the calibrate bench pool: " + err.Error()) // fixed sizes: cannot happen
	}
	return calibrate.BayesToScores(pool)
}

func benchCalibrate(ctx context.Context, p *policies.Policy, t *scores.Table, reps int, scale float64) func() (Outcome, error) {
	return func() (Outcome, error) {
		r, err := calibrate.Run(ctx, p, engine.Tables{t}, calibrate.Settings{Reps: reps, Effects: benchCalibEffects(), MinEffect: 0.01, Seed: 1, Now: time.Now()})
		if err != nil {
			return Outcome{}, err
		}
		o := Outcome{Scale: scale}
		if f := r.FalseShip; f != nil {
			o.Note = fmt.Sprintf("false-ship rate %s ± %s at %s", numfmt.Dash.Fixed(float64(f.Rate), 3), numfmt.Dash.Fixed(float64(f.SE), 3), numfmt.G(float64(f.Effect)))
		}
		return o, nil
	}
}

// Config is what Run needs.
type Config struct {
	Quick        bool
	Count        int
	Only         *regexp.Regexp
	WithRstanarm bool
	Rscript      string
	RstanarmIter int
	User         *UserData
	// TrecEval is the trec_eval to compare eval with: a program, or its
	// source folder to build ("": ../shared/tools/trec_eval, built).
	TrecEval string
	// Executable is the riskgate program the paired eval figures run (""
	// means this program, unless it is a test binary: then eval runs in
	// this process).
	Executable string
	tools      *refTools // the run's reference programs, built once
	// Context, when done, stops the fits and calibrate of the cases (Run
	// sets it); nil never stops.
	Context context.Context
	now     func() time.Time
}

// context is the cases' context: Context, or one never done.
func (c Config) context() context.Context {
	if c.Context == nil {
		return context.Background()
	}
	return c.Context
}
