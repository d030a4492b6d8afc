package bayes

import (
	"bytes"
	"encoding/csv"
	"path/filepath"
	"testing"

	"github.com/riskgate/riskgate/internal/golden"
)

const removedCellsFile = "testdata/rstanarm_unbalanced/removed.csv"

// TestRemovedCellsFile checks that the committed list of removed cells, which
// make.R read to fit rstanarm on the reduced table, is what the seeded rule
// gives (go test -update regenerates it, as every golden file).
func TestRemovedCellsFile(t *testing.T) {
	t.Parallel()
	tab := rb04(t)
	cells := removedArtifactCells(tab, unbalancedFrac, unbalancedSeed)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"system", "topic"})
	for _, c := range cells {
		w.Write([]string{tab.Systems[c[0]], tab.Topics[c[1]]})
	}
	w.Flush()
	golden.Check(t, filepath.FromSlash(removedCellsFile), b.Bytes())
	if t.Failed() {
		t.Log("the rstanarm reference was fitted without these cells: refit it with testdata/rstanarm_unbalanced/make.R")
	}
	if len(cells) != 200 {
		t.Fatalf("removed %d cells, want 10%% of 40×50 artifact cells = 200", len(cells))
	}
}
