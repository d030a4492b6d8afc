package scores

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// robust03Measures are the measures of issue 25's robust03 gate.
var robust03Measures = []string{"map", "ndcg_cut.10", "recall.1000"}

// loadRobust03Runs scores robust03's three public runs against its qrels
// for every measure of robust03Measures, counting the opens of each file
// that read it (beforeRead).
func loadRobust03Runs(t testing.TB, measures []string) (*Set, []Source, map[string]int) {
	t.Helper()
	dir := shared.Path(t, "data/trec_eval/robust03")
	var runs []string
	for _, r := range []string{"NLPR03vb10", "pircRBa1", "rutcor03100"} {
		runs = append(runs, filepath.Join(dir, "runs", r+".run"))
	}
	reads := map[string]int{}
	set, _, sources, err := LoadSources(runs, LoadOptions{
		Qrels: filepath.Join(dir, "qrels.txt"), Measures: measures,
		beforeRead: func(path, role string) { reads[path]++ },
	})
	if err != nil {
		t.Fatal(err)
	}
	return set, sources, reads
}

// Runs are evaluated once for every measure wanted: each run file is read
// in one pass whatever the number of measures (its detection peeks at the
// start of it once; the evaluation reads it whole once).
func TestRunsReadOncePerLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("scores robust03's runs (3 × 100,000 lines) twice; seconds under load")
	}
	_, _, one := loadRobust03Runs(t, robust03Measures[:1])
	set, sources, three := loadRobust03Runs(t, robust03Measures)
	if len(set.Tables) != 3 {
		t.Fatalf("measures %q", set.Measures())
	}
	for _, src := range sources {
		if src.Role != RoleScores {
			continue
		}
		fi, err := os.Stat(src.Path)
		if err != nil {
			t.Fatal(err)
		}
		if three[src.Path] != 2 || one[src.Path] != three[src.Path] {
			t.Errorf("%s: opened to read %d times for 3 measures, %d for 1; want 2 (detection, evaluation) for both", src.Path, three[src.Path], one[src.Path])
		}
		if src.Bytes != fi.Size() {
			t.Errorf("%s: evaluation read %d bytes of %d", src.Path, src.Bytes, fi.Size())
		}
	}
}

// The same robust03 Set — 3 runs, 3 measures — from runs + qrels, from a
// long CSV, from a metric-column CSV (and TSV) and from Parquet (long and
// wide) is bit-identical: the same measures, systems and topics in the same
// order and every score the same float64. The files are written from the
// runs + qrels Set, each score in its shortest exact decimal.
func TestRobust03SetsIdenticalAcrossFormats(t *testing.T) {
	if testing.Short() {
		t.Skip("scores robust03's runs (3 × 100,000 lines); seconds under load")
	}
	ref, _, _ := loadRobust03Runs(t, robust03Measures)
	// One evaluation of several measures gives each measure's values as its
	// own evaluation does (which runs_test checks against trec_eval's).
	for i, m := range robust03Measures {
		alone, _, _ := loadRobust03Runs(t, []string{m})
		if msg := sameSet(alone, SetOf(ref.Tables[i])); msg != "" {
			t.Errorf("%s alone: %s", m, msg)
		}
	}
	dir := t.TempDir()
	files := map[string]string{
		"long.csv":     formatLong(ref, ","),
		"measures.csv": formatMeasureColumns(ref, ","),
		"measures.tsv": formatMeasureColumns(ref, "\t"),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name := range files {
		got, _, _, err := LoadSources([]string{filepath.Join(dir, name)}, LoadOptions{Measures: robust03Measures})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if msg := sameSet(got, ref); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
	}
}

// sameSet says how got differs from want, bit for bit; "" when it does not.
func sameSet(got, want *Set) string {
	if !slices.Equal(got.Measures(), want.Measures()) {
		return fmt.Sprintf("measures %q, want %q", got.Measures(), want.Measures())
	}
	for m, w := range want.Tables {
		g := got.Tables[m]
		if !slices.Equal(g.Systems, w.Systems) || !slices.Equal(g.Topics, w.Topics) {
			return fmt.Sprintf("%s: systems %q topics %d, want %q and %d", w.Measure, g.Systems, len(g.Topics), w.Systems, len(w.Topics))
		}
		for s := range w.Scores {
			for i, v := range w.Scores[s] {
				if math.Float64bits(g.Scores[s][i]) != math.Float64bits(v) && !(math.IsNaN(v) && math.IsNaN(g.Scores[s][i])) {
					return fmt.Sprintf("%s %s %s = %v, want %v", w.Measure, w.Systems[s], w.Topics[i], g.Scores[s][i], v)
				}
			}
		}
	}
	return ""
}

func formatScore(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// formatLong writes set as system,topic,measure,score rows.
func formatLong(set *Set, sep string) string {
	var b strings.Builder
	b.WriteString(strings.Join([]string{"system", "topic", "measure", "score"}, sep) + "\n")
	for _, tab := range set.Tables {
		for s, sys := range tab.Systems {
			for i, topic := range tab.Topics {
				if v := tab.Scores[s][i]; !math.IsNaN(v) {
					b.WriteString(strings.Join([]string{sys, topic, tab.Measure, formatScore(v)}, sep) + "\n")
				}
			}
		}
	}
	return b.String()
}

// formatMeasureColumns writes set as query_id,system,<measure>… rows, one
// per (topic, system), the measures in ir_measures' spelling where it has
// one (nDCG@10, R@1000, AP), to exercise the registry.
func formatMeasureColumns(set *Set, sep string) string {
	irName := map[string]string{"map": "AP", "ndcg_cut_10": "nDCG@10", "recall_1000": "R@1000"}
	var b strings.Builder
	header := []string{"query_id", "system"}
	for _, m := range set.Measures() {
		header = append(header, irName[m])
	}
	b.WriteString(strings.Join(header, sep) + "\n")
	first := set.Tables[0]
	for i, topic := range first.Topics {
		for s, sys := range first.Systems {
			row := []string{topic, sys}
			any := false
			for _, tab := range set.Tables {
				cell := ""
				if v := tab.Scores[s][i]; !math.IsNaN(v) {
					cell, any = formatScore(v), true
				}
				row = append(row, cell)
			}
			if any {
				b.WriteString(strings.Join(row, sep) + "\n")
			}
		}
	}
	return b.String()
}
