package engine

import (
	"os"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// TestMain says, in one line, how many reference tests skipped for lack of
// ../shared, R, trec_eval's toolchain or Chromium (shared.RunTests).
func TestMain(m *testing.M) { os.Exit(shared.RunTests(m)) }
