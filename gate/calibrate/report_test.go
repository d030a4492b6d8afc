package calibrate

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/internal/golden"
	"github.com/riskgate/riskgate/policies"
)

// Whole reports in every format, from one small calibration: the example
// pool (engine.ExamplePool), the policy without MCMC of testdata/cheap.yaml,
// effects 0 and 0.02 at risks 1 and 2 (each cell's true effects are most of
// the cost), 12 pools per cell. The rates are tested in gate
// (TestCalibrateJSON, TestCalibrateConservativePolicy); these goldens pin
// the report, so that an edit here is checked without the gate's
// end-to-end suite (go test ./gate/calibrate -update rewrites them).
func TestReportGolden(t *testing.T) {
	t.Parallel()
	p, err := policies.Load(filepath.Join("testdata", "cheap.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), p, engine.Tables{engine.ExamplePool()}, Settings{Reps: 12, Effects: []float64{0, 0.02},
		Risks: []float64{1, 2}, MinEffect: 0.02, Seed: 9, Now: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"table", "md", "json", "csv", "html"} {
		var out bytes.Buffer
		if err := rep.Write(&out, format); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "cheap."+format+".golden"), out.Bytes())
	}
}
