package pool

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// writerEnv makes this test binary one writer of TestConcurrentWriters:
// "DIR WRITER" (see writeConcurrently).
const writerEnv = "RISKGATE_POOL_TEST_WRITER"

func TestMain(m *testing.M) {
	if arg := os.Getenv(writerEnv); arg != "" {
		dir, n, _ := strings.Cut(arg, " ")
		w, _ := strconv.Atoi(n)
		if err := writeConcurrently(dir, w); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// writeConcurrently is writer w's share of the race: it records its own
// system, adds its own measure to the system both writers share (a
// read-modify-write of one file), and promotes its system (a
// read-modify-write of the lineage), each a separate locked write.
func writeConcurrently(dir string, w int) error {
	s, err := Create(ctx, dir)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(uint64(w), 29))
	own := testEntry(rng, fmt.Sprintf("writer-%d", w), []string{"map", "P_5"}, 50)
	if _, err := s.Record(ctx, own); err != nil {
		return err
	}
	shared := sharedEntry(rng, w)
	if _, err := s.Record(ctx, shared); err != nil {
		return err
	}
	_, err = s.Promote(ctx, own.System, t0.Add(time.Duration(w)*time.Second), "")
	return err
}

// sharedEntry is writer w's scores of the shared system: one measure of its
// own on the same topics.
func sharedEntry(rng *rand.Rand, w int) *Entry {
	e := testEntry(rng, "shared", []string{fmt.Sprintf("measure-%d", w)}, 50)
	e.History[0].Label = "" // both writers record the same event
	return e
}

// checkBothWritten checks what two writers leave: every entry readable,
// both systems stored, the shared one with both measures, both promotions
// in the lineage, and no temporary file left behind.
func checkBothWritten(t *testing.T, dir string) {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := s.Entries(ReadOptions{})
	if err != nil {
		t.Fatalf("a damaged entry after two writers: %v", err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.System)
	}
	slices.Sort(names)
	if strings.Join(names, " ") != "shared writer-0 writer-1" {
		t.Fatalf("stored %v, want both writers' systems and the shared one", names)
	}
	shared, _ := s.Entry("shared")
	m := slices.Clone(shared.Measures)
	slices.Sort(m)
	if strings.Join(m, " ") != "measure-0 measure-1" {
		t.Errorf("the shared system holds %v: a writer's measure was lost", shared.Measures)
	}
	reigns, err := s.Lineage()
	if err != nil {
		t.Fatal(err)
	}
	var champions []string
	for _, r := range reigns {
		champions = append(champions, r.System)
	}
	slices.Sort(champions)
	if strings.Join(champions, " ") != "writer-0 writer-1" {
		t.Errorf("lineage %v: a promotion was lost", champions)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, "*", ".*.tmp"))
	top, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(leftovers)+len(top) > 0 {
		t.Errorf("temporary files left: %v %v", leftovers, top)
	}
}

// Two writers in goroutines (each with its own lock file descriptor, as
// two processes have), 20 times: nothing is lost or damaged.
func TestConcurrentWritersGoroutines(t *testing.T) {
	t.Parallel()
	for rep := range 20 {
		dir := filepath.Join(t.TempDir(), "pool")
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for w := range 2 {
			wg.Go(func() { errs[w] = writeConcurrently(dir, w) })
		}
		wg.Wait()
		for w, err := range errs {
			if err != nil {
				t.Fatalf("repetition %d, writer %d: %v", rep, w, err)
			}
		}
		checkBothWritten(t, dir)
	}
}

// Two writers in separate processes, started together, 20 times.
func TestConcurrentWritersProcesses(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for rep := range 20 {
		dir := filepath.Join(t.TempDir(), "pool")
		cmds := make([]*exec.Cmd, 2)
		outs := make([]strings.Builder, 2)
		for w := range cmds {
			cmds[w] = exec.Command(self, "-test.run=^$")
			cmds[w].Env = append(os.Environ(), fmt.Sprintf("%s=%s %d", writerEnv, dir, w))
			cmds[w].Stderr = &outs[w]
			if err := cmds[w].Start(); err != nil {
				t.Fatal(err)
			}
		}
		for w, c := range cmds {
			if err := c.Wait(); err != nil {
				t.Fatalf("repetition %d, writer %d: %v: %s", rep, w, err, outs[w].String())
			}
		}
		checkBothWritten(t, dir)
	}
}

// A reader never sees a half-written entry or lineage while writers write.
func TestReaderDuringWrites(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "pool")
	s, err := Create(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 29))
	if _, err := s.Record(ctx, sharedEntry(rng, 100)); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(done)
		for w := range 30 {
			if _, err := s.Record(ctx, sharedEntry(rng, w)); err != nil {
				t.Error(err)
				return
			}
			if _, err := s.Promote(ctx, "shared", t0, strconv.Itoa(w)); err != nil && !strings.Contains(err.Error(), "already") {
				t.Error(err)
				return
			}
		}
	})
	reads := 0
	for {
		select {
		case <-done:
			wg.Wait()
			if reads == 0 {
				t.Error("no read happened during the writes")
			}
			return
		default:
		}
		if _, err := s.Entries(ReadOptions{}); err != nil {
			t.Fatalf("read during writes: %v", err)
		}
		if _, err := s.Lineage(); err != nil {
			t.Fatalf("lineage read during writes: %v", err)
		}
		reads++
	}
}
