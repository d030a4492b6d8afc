package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/golden"
)

// The command line's golden runs (gate/testdata/gate: the built-in example
// and a policy without Bayesian rules) rendered from their result.json
// alone: every report file and the terminal table, byte for byte, with no
// engine and no MCMC fit. The gate package's tests check that a real run
// writes these same files.
func TestReportsFromGoldenResults(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "testdata", "gate")
	for _, run := range []string{"example", "cheap"} {
		t.Run(run, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, run+".result.json.golden"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := result.Read("result.json", data)
			if err != nil {
				t.Fatal(err)
			}
			files, err := Files(r)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range FileNames {
				golden.Check(t, filepath.Join(dir, run+"."+name+".golden"), files[name])
			}
			var table bytes.Buffer
			Text(&table, r, false)
			golden.Check(t, filepath.Join(dir, run+".table.golden"), table.Bytes())
		})
	}
}
