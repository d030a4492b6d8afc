package bayes

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// readLongCSV reads a system,topic,score CSV into a Table, systems and topics
// in order of first appearance. Test helper: package bayes does no I/O.
func readLongCSV(tb testing.TB, path string) *Table {
	tb.Helper()
	rows := shared.ReadCSV(tb, path)
	t := &Table{}
	si, ti := map[string]int{}, map[string]int{}
	type cell struct {
		s, t int
		v    float64
	}
	var cells []cell
	for _, r := range rows[1:] {
		s, ok := si[r[0]]
		if !ok {
			s = len(t.Systems)
			si[r[0]] = s
			t.Systems = append(t.Systems, r[0])
		}
		j, ok := ti[r[1]]
		if !ok {
			j = len(t.Topics)
			ti[r[1]] = j
			t.Topics = append(t.Topics, r[1])
		}
		v, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			tb.Fatal(err)
		}
		cells = append(cells, cell{s, j, v})
	}
	t.Scores = make([][]float64, len(t.Systems))
	for s := range t.Scores {
		t.Scores[s] = make([]float64, len(t.Topics))
		for j := range t.Scores[s] {
			t.Scores[s][j] = math.NaN()
		}
	}
	for _, c := range cells {
		t.Scores[c.s][c.t] = c.v
	}
	return t
}

func rb04(tb testing.TB) *Table {
	return readLongCSV(tb, shared.Path(tb, "data/bayesian-risk/rb04.csv"))
}

// isArtifact reports whether a system of rb04.csv belongs to the artifact pool
// (not the champion, not a challenger).
func isArtifact(name string) bool {
	return name != "Champion" && !strings.HasPrefix(name, "Chal.")
}

// unbalancedSeed and unbalancedFrac define the reduced rb04 table whose
// rstanarm fit is in testdata/rstanarm_unbalanced.
const (
	unbalancedSeed = 20240404
	unbalancedFrac = 0.10
)

// removedArtifactCells is the seeded rule choosing the cells to delete: the
// artifact cells in (system, topic) table order are permuted by
// rand.Perm from PCG(seed, 0) and the first round(frac·n) are taken; the
// result is sorted back into table order.
func removedArtifactCells(t *Table, frac float64, seed uint64) [][2]int {
	var cells [][2]int
	for s, name := range t.Systems {
		if !isArtifact(name) {
			continue
		}
		for j := range t.Topics {
			cells = append(cells, [2]int{s, j})
		}
	}
	k := int(math.Round(frac * float64(len(cells))))
	perm := rand.New(rand.NewPCG(seed, 0)).Perm(len(cells))[:k]
	slices.Sort(perm)
	out := make([][2]int, k)
	for i, p := range perm {
		out[i] = cells[p]
	}
	return out
}

// withoutCells returns a copy of t with the given cells missing.
func withoutCells(t *Table, cells [][2]int) *Table {
	u := &Table{Systems: t.Systems, Topics: t.Topics, Scores: make([][]float64, len(t.Scores))}
	for s := range t.Scores {
		u.Scores[s] = slices.Clone(t.Scores[s])
	}
	for _, c := range cells {
		u.Scores[c[0]][c[1]] = math.NaN()
	}
	return u
}
