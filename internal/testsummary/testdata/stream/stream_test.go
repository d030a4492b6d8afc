// A package whose tests pass, fail and skip in the ways testsummary must
// follow; its go test -json output is ../stream.json:
//
//	cd internal/testsummary/testdata/stream && go test -json -short ./... > ../stream.json
package stream

import (
	"fmt"
	"os"
	"testing"
)

func TestLogsThenSkips(t *testing.T) {
	t.Log("a log line before the skip")
	t.Skip("needs a thing\non two lines")
}

func TestSubtests(t *testing.T) {
	t.Run("skips", func(t *testing.T) { t.Parallel(); t.Skipf("subtest reason %d", 1) })
	t.Run("passes", func(t *testing.T) { t.Parallel() })
	t.Run("fails", func(t *testing.T) { t.Error("a subtest failed") })
}

func TestFails(t *testing.T) {
	t.Log("a log line before the failure")
	t.Error("boom")
}

func TestSlow(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped with -short")
	}
}

func TestSkipsWithoutReason(t *testing.T) { t.SkipNow() }

func TestPasses(t *testing.T) {}

func TestMain(m *testing.M) {
	code := m.Run()
	fmt.Println("a line TestMain printed")
	os.Exit(code)
}
