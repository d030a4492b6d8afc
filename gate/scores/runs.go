package scores

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/parallel"
)

// runJob is the TREC runs of one Load, scored together.
type runJob struct {
	paths []string
	// want holds, per path, the file as detection found it (nil: unknown);
	// reading a different or changed file is refused.
	want      []fs.FileInfo
	qrels     string
	qrelsFrom string        // where the qrels path was given; "--qrels" when empty
	trec      *trec.Options // -l, -J, -M; nil: trec_eval's defaults
	// keepRankings keeps each run's rankings in the collector (Rankings).
	keepRankings   bool
	judgments      []string                                                           // LoadOptions.Judgments
	applyJudgments func(q *trec.Qrels, r io.Reader, path string) (*trec.Qrels, error) // LoadOptions.ApplyJudgments
	// measures are the printed names of the values to score (map, P_10,
	// ndcg_cut_10, …), each a table; at least one.
	measures []string
	open     opener
	// budget, when set, is charged as the qrels are read (a pipe).
	budget *loadBudget
}

// loadRuns is scoreRunFiles of one measure into b, without the sources.
func loadRuns(b *Builder, paths []string, qrels, measure string) error {
	if measure == "" {
		measure = DefaultRunMeasure
	}
	c := newCollector()
	c.builders[measure], c.measures = b, []string{measure}
	_, err := scoreRunFiles(c, runJob{paths: paths, qrels: qrels, measures: []string{measure}})
	return err
}

// scoreRunFiles scores TREC run files against the qrels file with the
// measures of the job (each as trec_eval prints it: map, P_10, ndcg_cut_10,
// …; or NTCIREVAL's), all in one evaluation of each run, and adds one system
// per run to each measure's table of c. Scoring is trec_eval's with the
// job's -l, -J and -M (its defaults when nil: level 1, every document,
// judged or not) and without -c: each qrels topic the run retrieved
// documents for gets a cell (file:line of the topic's first run line); run
// topics not in the qrels are ignored, and qrels topics the run lacks are
// left missing for the table's alignment (--topics zero reproduces -c).
// The system name is the run_id of the run's last line (trec_eval's runid),
// else the file name; two runs with the same name are an error.
//
// Every file is read once, through a tracked reader (see Source), and no
// line may be longer than maxLine. The sources returned are the runs', in
// order, then the qrels file's.
func scoreRunFiles(c *collector, job runJob) ([]Source, error) {
	paths, measures := job.paths, job.measures
	if job.qrels == "" {
		return nil, fmt.Errorf("TREC run inputs need a qrels file (--qrels)")
	}
	ms, err := trec.MeasuresForNames(measures)
	if err != nil {
		return nil, err
	}
	from := job.qrelsFrom
	if from == "" {
		from = "--qrels"
	}
	var q *trec.Qrels
	qrelsSource, err := job.open.read(job.qrels, RoleQrels, nil, job.budget, func(r io.Reader) (err error) {
		q, err = trec.ReadQrels(r, job.qrels)
		return err
	})
	if err != nil {
		var ie *inputerr.Error
		if errors.As(err, &ie) && strings.HasPrefix(ie.Msg, "cannot open: ") {
			ie.Msg = fmt.Sprintf("cannot open the qrels file named by %s: %s; expected a readable qrels file", from, strings.TrimPrefix(ie.Msg, "cannot open: "))
		}
		return nil, err
	}
	judgmentSources := make([]Source, 0, len(job.judgments))
	for _, path := range job.judgments {
		src, err := job.open.read(path, RoleJudgments, nil, job.budget, func(r io.Reader) (err error) {
			q, err = job.applyJudgments(q, r, path)
			return err
		})
		if err != nil {
			return nil, err
		}
		judgmentSources = append(judgmentSources, src)
	}
	opt := trec.DefaultOptions()
	if t := job.trec; t != nil {
		opt.RelLevel, opt.JudgedOnly, opt.MaxDocs = t.RelLevel, t.JudgedOnly, t.MaxDocs
	}
	opt.Missing = trec.MissingSkip
	// Runs are read and scored in parallel (as riskgate eval does) and added
	// to the table in argument order, so the table does not depend on it.
	type scored struct {
		system string
		line   int // of the run_id naming it
		cells  []runCell
		// values holds each cell's scores, one per measure: cell i's
		// score of measure k is values[i*len(measures)+k].
		values []float64
		source Source
		ranked []trec.TopicList // with keepRankings
		err    error
	}
	score := func(i int) scored {
		path := paths[i]
		var want fs.FileInfo
		if i < len(job.want) {
			want = job.want[i]
		}
		var run *trec.Run
		src, err := job.open.read(path, RoleScores, want, nil, func(r io.Reader) (err error) {
			run, err = trec.ReadRun(r, path)
			return err
		})
		if err != nil {
			return scored{err: err}
		}
		r := scored{system: run.RunID, source: src, line: run.RunIDLine}
		if r.system == "" {
			r.system = filepath.Base(path)
		}
		// The name is the last data line's run_id: a bad one is that line's.
		if problem := checkName("run_id (the system name)", r.system); problem != "" {
			return scored{err: inputerr.At(path, run.RunIDLine, "%s", problem)}
		}
		r.source.Run = r.system
		_, r.err = trec.NewEvaluator(q, ms, opt).Evaluate(run, func(tr *trec.TopicResult) error {
			for _, m := range measures {
				v, _ := tr.Value(ms, m)
				r.values = append(r.values, v)
			}
			r.cells = append(r.cells, runCell{topic: tr.Topic, line: tr.Line})
			return nil
		})
		if r.err == nil && job.keepRankings {
			r.ranked, r.err = trec.Rank(run, q, opt)
		}
		return r
	}
	seen := map[string]string{} // system name → file
	sources := make([]Source, 0, len(paths)+1)
	var rankings *Rankings
	if job.keepRankings {
		rankings = &Rankings{Qrels: q, Options: opt}
	}
	err = parallel.InOrder(len(paths), runWorkers(), score, func(i int, r scored) error {
		path := paths[i]
		if other, dup := seen[r.system]; dup && r.system != "" {
			return inputerr.At(path, r.line, "run name %q is also the name of %s; expected distinct run_id fields", r.system, other)
		}
		seen[r.system] = path
		// Cells scored before an error are added first, as when runs were
		// scored one after another.
		for k, m := range measures {
			for i, cell := range r.cells {
				if err := c.add(m, r.system, cell.topic, r.values[i*len(measures)+k], path, cell.line); err != nil {
					return err
				}
			}
		}
		sources = append(sources, r.source)
		if rankings != nil && r.err == nil {
			rankings.Systems, rankings.Topics = append(rankings.Systems, r.system), append(rankings.Topics, r.ranked)
		}
		return r.err
	})
	if err != nil {
		return nil, err
	}
	if rankings != nil {
		c.rankings = rankings
	}
	return append(append(sources, qrelsSource), judgmentSources...), nil
}

// read opens path as role, gives read its bytes, and returns the file's
// source; a file that changed while read is refused (see Source), and a
// pipe is charged to budget (when not nil) as it is read. read is
// gate/trec's reader, which refuses a line longer than linelimit's bound
// itself, at its line.
func (o opener) read(path, role string, want fs.FileInfo, budget *loadBudget, read func(io.Reader) error) (Source, error) {
	t, err := o.open(path, role, want)
	if err != nil {
		return Source{}, err
	}
	defer t.close()
	if budget != nil && !t.src.Regular { // a pipe: charged as read (a file was, by its size)
		t.budget, t.cost = budget, qrelsByteCost
	}
	if err := read(t); err != nil {
		return Source{}, t.orChanged(err)
	}
	return t.finish()
}

// runCell is one topic of a run, with the line the topic starts at.
type runCell struct {
	topic string
	line  int
}

// runWorkers is how many runs are read and scored at once: one per core, at
// most 4, which bounds memory to four parsed runs (riskgate eval's bound).
func runWorkers() int { return min(runtime.GOMAXPROCS(0), 4) }
