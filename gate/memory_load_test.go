package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// pool200x5000 writes a long-format CSV of 200 systems × 5,000 topics
// (1,000,000 cells, about 19 MB) and returns its path and text.
func pool200x5000(t *testing.T) (string, string) {
	t.Helper()
	b := make([]byte, 0, 20<<20)
	b = append(b, "system,topic,score\n"...)
	for s := range 200 {
		for j := range 5000 {
			b = appendCellKey(b, s, j)
			b = append(appendScore4(b, (s*7919+j*104729)%10000), '\n')
		}
	}
	path := filepath.Join(t.TempDir(), "pool.csv")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, string(b)
}

// appendCellKey appends "s<s>,t<j>,", what fmt's "s%d,t%d," writes, and
// appendScore4 appends "0.<v>" with v in [0, 10000) on four digits, fmt's
// "0.%04d": the million rows of this file's pools at a tenth of fmt's cost
// (0.5 CPU-s a pool, in a test that cannot run in parallel).
func appendCellKey(b []byte, s, j int) []byte {
	b = strconv.AppendInt(append(b, 's'), int64(s), 10)
	return append(strconv.AppendInt(append(b, ",t"...), int64(j), 10), ',')
}

func appendScore4(b []byte, v int) []byte {
	return append(b, '0', '.', byte('0'+v/1000), byte('0'+v/100%10), byte('0'+v/10%10), byte('0'+v%10))
}

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Issue 23, defect 4: --max-memory 50MB on a 1,000 × 10,000 pool used 329 MB
// loading it before it refused. The inputs are charged before they are read
// — a file by its size, at what loading takes per cell (scores.
// LoadCellBytes) and its cells per byte, from the start detection read — and
// a pipe as it is read: a pool over the budget is refused having read
// almost none of it. (Not in parallel: the test counts allocations.)
func TestGateRefusesALoadOverTheMemoryLimit(t *testing.T) {
	path, text := pool200x5000(t)
	want := "loading the inputs would need about 44 MB of memory (mostly " + path + ": 44 MB), over the limit of 10 MB; raise the limit with --max-memory, or gate fewer topics or systems"
	var code int
	var out, stderr string
	n := allocated(func() {
		code, out, stderr = runMain(t, "gate", "--champion", "s0", "--challenger", "s1", "--max-memory", "10MB", path)
	})
	checkOneLineError(t, code, out, stderr, want)
	if n > 4<<20 {
		t.Errorf("allocated %d MB before refusing a 19 MB file; want it refused before reading", n>>20)
	}
	// From a pipe: refused once what it read passes the limit.
	n = allocated(func() {
		code, out, stderr = runMainWithStdin(t, text, "gate", "--champion", "s0", "--challenger", "s1", "--max-memory", "10MB", "-")
	})
	checkOneLineError(t, code, out, stderr, "loading the inputs would need about 11 MB of memory (mostly <stdin>: ")
	if n > 30<<20 { // runMainWithStdin's reader of the whole text, 19 MB, and a few MB read
		t.Errorf("allocated %d MB before refusing standard input; want it refused a few MB in", n>>20)
	}
	if testing.Short() {
		return
	}
	// Within the limit, the same pool loads and goes on to the estimate of
	// the gate as a whole.
	code, out, stderr = runMain(t, "gate", "--champion", "s0", "--challenger", "s1", "--max-memory", "100MB", path)
	checkOneLineError(t, code, out, stderr, "this gate would need about")
}

// The charge of a score set counts every measure's cells: a CSV of one
// column per measure (system, topic, then 4 measures; 200 × 1,250 rows, so
// 1,000,000 cells, about 12 MB of text) is charged about 1e6 ×
// scores.LoadCellBytes = 40 MB, as the same cells in the long layout
// (TestGateRefusesALoadOverTheMemoryLimit: 44 MB), not a quarter of it.
func TestGateChargesEveryMeasureOfASet(t *testing.T) {
	t.Parallel()
	b := []byte("system,topic,map,ndcg_cut_10,recall_1000,P_10\n")
	for s := range 200 {
		for j := range 1250 {
			v := (s*7919 + j*104729) % 10000
			b = appendCellKey(b, s, j)
			for k := range 4 {
				if k > 0 {
					b = append(b, ',')
				}
				b = appendScore4(b, (v+k)%10000)
			}
			b = append(b, '\n')
		}
	}
	path := filepath.Join(t.TempDir(), "measures.csv")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runMain(t, "gate", "--champion", "s0", "--challenger", "s1", "--measure", "map", "--max-memory", "10MB", path)
	var need, most float64
	if _, err := fmt.Sscanf(stderr, "riskgate: loading the inputs would need about %g MB of memory (mostly "+path+": %g MB)", &need, &most); err != nil || code != exitError || out != "" {
		t.Fatalf("exit %d, %v: %s%s", code, err, out, stderr)
	}
	if need < 36 || need > 48 {
		t.Errorf("charged %g MB for 1,000,000 cells of 4 measures; want about 40 MB (every measure's cells at %d bytes)", need, 40)
	}
}
