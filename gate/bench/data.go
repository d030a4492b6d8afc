package bench

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/riskgate/riskgate/gate/engine"

	"github.com/riskgate/riskgate/internal/atomicfile"

	"github.com/riskgate/riskgate/internal/parallel"
)

// Built-in simulated data for riskgate bench and the scale checks: TREC
// settings of any size (qrels and runs written to a folder) and score pools
// from the hierarchical model.

// ScaleSetting is a synthetic TREC setting: one qrels file and Runs run
// files of Depth documents for each of Queries queries.
type ScaleSetting struct {
	Queries, Depth, Runs int
	Collection           int // document ids are 0 … Collection−1
	Seed                 uint64
}

// MSMARCO is MS MARCO passage ranking's size: about 7,000 dev queries,
// 1,000 passages retrieved per query from 8,841,823, 100 runs.
var MSMARCO = ScaleSetting{Queries: 7000, Depth: 1000, Runs: 100, Collection: 8_841_823, Seed: 2016}

// scaleRunNames names the runs so that the default policy applies unchanged:
// production (the champion), candidate-1 … candidate-4 (its challengers) and
// artifacts for the rest.
func scaleRunNames(n int) []string {
	names := []string{"production"}
	for i := 1; i <= 4 && len(names) < n; i++ {
		names = append(names, fmt.Sprintf("candidate-%d", i))
	}
	arts := engine.NumberedNames("artifact-", n-len(names))
	return append(names, arts...)
}

// scaleTopics are the setting's query ids: distinct 7-digit numbers as
// MS MARCO's, in a random order (trec_eval sorts them).
func (s ScaleSetting) topics() []int {
	r := rand.New(rand.NewPCG(s.Seed, 0))
	seen := map[int]bool{}
	ids := make([]int, 0, s.Queries)
	for len(ids) < s.Queries {
		id := 1_000_000 + r.IntN(9_000_000)
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids
}

// scaleJudgments returns each query's relevant documents: one, or two for
// one query in sixteen (MS MARCO dev averages 1.07), and a difficulty that
// every run shares, so that the runs' scores have topic effects.
func (s ScaleSetting) judgments() (rel [][]int, difficulty []float64) {
	r := rand.New(rand.NewPCG(s.Seed, 1))
	rel = make([][]int, s.Queries)
	difficulty = make([]float64, s.Queries)
	for q := range rel {
		n := 1
		if r.IntN(16) == 0 {
			n = 2
		}
		for range n {
			rel[q] = append(rel[q], r.IntN(s.Collection))
		}
		difficulty[q] = r.NormFloat64()
	}
	return rel, difficulty
}

// write generates the setting into dir and returns the qrels path and the
// run paths. Runs are written in parallel, run i from its own stream
// PCG(Seed, 2 + i), so the files do not depend on GOMAXPROCS.
func (s ScaleSetting) write(dir string) (qrels string, runs []string, err error) {
	topics := s.topics()
	rel, difficulty := s.judgments()
	qrels = filepath.Join(dir, "qrels.txt")
	err = atomicfile.Write(qrels, func(w0 io.Writer) error {
		w := bufio.NewWriterSize(w0, 1<<20)
		for q, id := range topics {
			for _, d := range rel[q] {
				fmt.Fprintf(w, "%d 0 %d 1\n", id, d)
			}
		}
		return w.Flush()
	})
	if err != nil {
		return "", nil, err
	}
	names := scaleRunNames(s.Runs)
	runs = make([]string, s.Runs)
	errs := make([]error, s.Runs)
	parallel.Each(s.Runs, func(i int) {
		runs[i] = filepath.Join(dir, names[i]+".run")
		errs[i] = atomicfile.Write(runs[i], func(f io.Writer) error {
			return s.writeRun(f, i, names[i], topics, rel, difficulty)
		})
	})
	for _, e := range errs {
		if e != nil {
			return "", nil, e
		}
	}
	return qrels, runs, nil
}

// writeRun writes run i: for each query, Depth distinct documents with
// descending scores. The query's relevant documents are retrieved with a
// probability and at a rank that depend on the run's quality and the
// query's difficulty (better runs put them higher); the other documents
// are an arithmetic progression over the collection from a random start.
func (s ScaleSetting) writeRun(f io.Writer, i int, name string, topics []int, rel [][]int, difficulty []float64) error {
	r := rand.New(rand.NewPCG(s.Seed, 2+uint64(i)))
	quality := 0.3 * r.NormFloat64()
	switch {
	case i == 0:
		quality = 0.3 // production is among the better runs
	case i <= 4:
		quality = 0.3 + 0.05*float64(i) // the candidates are a little better
	}
	w := bufio.NewWriterSize(f, 1<<20)
	docs := make([]int, s.Depth)
	var line []byte
	for q, id := range topics {
		start, step := r.IntN(s.Collection), 1+r.IntN(s.Collection/s.Depth-1)
		for k := range docs {
			docs[k] = (start + k*step) % s.Collection
		}
		// A relevant document is found with probability sigmoid(1.5 + x) and
		// then ranked 1 + Geometric(sigmoid(x − 1.5)), x = quality − difficulty
		// + noise: reciprocal ranks average about 0.3, as on MS MARCO.
		for _, d := range rel[q] {
			x := quality - difficulty[q] + 0.5*r.NormFloat64()
			if r.Float64() > 1/(1+math.Exp(-(1.5+x))) || slices.Contains(docs, d) {
				continue
			}
			p := 1 / (1 + math.Exp(-(x - 1.5)))
			rank := int(math.Log(1-r.Float64()) / math.Log1p(-p))
			if rank < s.Depth {
				docs[rank] = d
			}
		}
		for k, d := range docs {
			line = strconv.AppendInt(line[:0], int64(id), 10)
			line = append(line, " Q0 "...)
			line = strconv.AppendInt(line, int64(d), 10)
			line = append(line, ' ')
			line = strconv.AppendInt(line, int64(k+1), 10)
			line = append(line, ' ')
			line = strconv.AppendFloat(line, float64(s.Depth-k)/100+25, 'f', 2, 64)
			line = append(line, ' ')
			line = append(line, name...)
			line = append(line, '\n')
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
	}
	return w.Flush()
}

// rand1 is the stream k of seed 1, as bayes's benchmark pools use.
func rand1(k uint64) *rand.Rand { return rand.New(rand.NewPCG(1, k)) }
