package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/gate.md shows the output of `riskgate gate --example`: the block
// after its marker is, byte for byte, testdata/gate/example.table.golden,
// which TestGateExampleGolden checks against the command itself — so the
// doc cannot describe rules the example no longer prints (issue 30 item 2:
// it showed bayes.p_better and brisk.p_riskier rules the default policy
// had dropped). After `go test ./gate -update`, copy the golden into the doc.
func TestDocsGateExampleOutput(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "gate.md"))
	if err != nil {
		t.Fatal(err)
	}
	const marker = "<!-- doctest: skip the output of riskgate gate --example, checked against its golden gate/testdata/gate/example.table.golden by TestDocsGateExampleOutput -->\n```\n$ riskgate gate --example\n"
	_, block, ok := strings.Cut(string(doc), marker)
	if !ok {
		t.Fatalf("docs/gate.md has no block marked %q", marker)
	}
	block, _, ok = strings.Cut(block, "```\n")
	if !ok {
		t.Fatal("docs/gate.md: the example's block is not closed")
	}
	want, err := os.ReadFile(filepath.Join("testdata", "gate", "example.table.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if block != string(want) {
		t.Errorf("docs/gate.md's example output is not what riskgate gate --example prints (testdata/gate/example.table.golden) from %s", firstDiff(block, string(want)))
	}
}
