package bayes

import (
	"bytes"
	"encoding/csv"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite generated test data (testdata/rstanarm_unbalanced/removed.csv)")

const removedCellsFile = "testdata/rstanarm_unbalanced/removed.csv"

// TestRemovedCellsFile checks that the committed list of removed cells, which
// make.R read to fit rstanarm on the reduced table, is what the seeded rule
// gives (run with -update to regenerate it).
func TestRemovedCellsFile(t *testing.T) {
	tab := rb04(t)
	cells := removedArtifactCells(tab, unbalancedFrac, unbalancedSeed)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"system", "topic"})
	for _, c := range cells {
		w.Write([]string{tab.Systems[c[0]], tab.Topics[c[1]]})
	}
	w.Flush()
	if *update {
		if err := os.WriteFile(filepath.FromSlash(removedCellsFile), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(filepath.FromSlash(removedCellsFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Fatalf("%s differs from the seeded rule's cells; regenerate with -update and refit with make.R", removedCellsFile)
	}
	if len(cells) != 200 {
		t.Fatalf("removed %d cells, want 10%% of 40×50 artifact cells = 200", len(cells))
	}
}
