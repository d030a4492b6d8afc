package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/pool"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

// loopPolicy is a fast policy whose decision depends on the artifacts: a
// Bayesian rule (the hierarchical fit's system spread is learnt from every
// system; 2 chains, target ESS 400) and ZRisk (standardised by every
// system's scores). With fewer than 3 artifacts the fit takes the day-one
// prior and a pass counts as warn.
const loopPolicy = `version: 1
name: release-loop
model: {chains: 2, target_ess: 400}
requirements: {min_artifacts: 3}
rules:
  - {id: likely-better, quantity: bayes.p_better, at_least: 0.7}
  - {id: zrisk-holds, quantity: zrisk, loss_weight: 2, at_least: -2}
`

// simulatedReleases writes `riskgate simulate`'s pool of n systems (s1,
// s2, … or s01, s02, … from 10 systems) over 40 topics, scores in [0, 1], one CSV per system, and returns
// the files by system.
func simulatedReleases(t *testing.T, dir string, n int, seed int) map[string]string {
	t.Helper()
	all := filepath.Join(dir, "all.csv")
	if status, _, errOut := runMain(t, "simulate", "--n-systems", fmt.Sprint(n), "--n-topics", "40", "--seed", fmt.Sprint(seed),
		"--bound", "--sd-system", "0.03", "-o", all); status != 0 {
		t.Fatalf("simulate: exit %d: %s", status, errOut)
	}
	data, err := os.ReadFile(all)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]*strings.Builder{}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for _, line := range lines[1:] {
		sys, _, _ := strings.Cut(line, ",")
		if rows[sys] == nil {
			rows[sys] = &strings.Builder{}
			rows[sys].WriteString(lines[0] + "\n")
		}
		rows[sys].WriteString(line + "\n")
	}
	files := map[string]string{}
	for sys, b := range rows {
		files[sys] = filepath.Join(dir, sys+".csv")
		if err := os.WriteFile(files[sys], []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(files) != n {
		t.Fatalf("simulate wrote %d systems, want %d", len(files), n)
	}
	return files
}

// gateJSON is what the loop reads of result.json.
type gateJSON struct {
	Decision json.RawMessage `json:"decision"`
	Data     struct {
		Artifacts []string `json:"artifacts"`
		Pool      *struct {
			Stored    int      `json:"stored"`
			Artifacts []string `json:"artifacts"`
			Excluded  []struct {
				System, Reason, Detail string
			} `json:"excluded"`
		} `json:"pool"`
	} `json:"data"`
	Verdict        string   `json:"verdict"`
	Warnings       []string `json:"warnings"`
	WarningDetails []struct {
		Text, About string
	} `json:"warning_details"`
}

func parseGateJSON(t *testing.T, out string) gateJSON {
	t.Helper()
	var r gateJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("result.json: %v\n%.1000s", err, out)
	}
	return r
}

// Issue 29's loop of ten releases: each gates a new challenger against the
// pool's champion with --pool, --record and --promote-on-pass. Then the
// pool's stored scores equal the inputs bit for bit, its lineage lists
// every champion in order, and every gate decided as the same gate with
// the artifacts given as files (in the pool's order, which data.pool
// records) does.
func TestGatePoolReleaseLoop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := simulatedReleases(t, dir, 11, 29)
	policy := filepath.Join(dir, "loop.yaml")
	if err := os.WriteFile(policy, []byte(loopPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	poolDir := filepath.Join(dir, "pool")
	champion, lineage := "s01", []string{"s01"} // the first gate's champion starts the lineage
	var recorded []string
	promoted, rejected := 0, 0
	for k := 2; k <= 11; k++ {
		challenger := fmt.Sprintf("s%02d", k)
		args := []string{"gate", "--policy", policy, "--champion", champion, "--challenger", challenger, "--format", "json"}
		status, out, errOut := runMain(t, append(args, "--pool", poolDir, "--record", "--promote-on-pass", "--label", "release-"+strconv.Itoa(k),
			files[champion], files[challenger])...)
		if status == exitError {
			t.Fatalf("release %d: exit 2: %s", k, errOut)
		}
		got := parseGateJSON(t, out)
		if got.Data.Pool == nil {
			t.Fatalf("release %d: result.json has no data.pool", k)
		}
		var want []string // every system recorded before, but the champion
		for _, s := range recorded {
			if s != champion {
				want = append(want, s)
			}
		}
		if arts := slices.Sorted(slices.Values(got.Data.Pool.Artifacts)); !slices.Equal(arts, want) {
			t.Fatalf("release %d: artifacts taken from the pool %v, want %v", k, arts, want)
		}
		if !slices.Equal(got.Data.Artifacts, got.Data.Pool.Artifacts) {
			t.Errorf("release %d: the gate's artifacts %v are not the pool's %v", k, got.Data.Artifacts, got.Data.Pool.Artifacts)
		}

		// The same gate, the artifacts given as files in the pool's order.
		asFiles := append(args, files[champion], files[challenger])
		for _, a := range got.Data.Pool.Artifacts {
			asFiles = append(asFiles, files[a])
		}
		fileStatus, fileOut, fileErr := runMain(t, asFiles...)
		if fileStatus != status {
			t.Errorf("release %d: exit %d with --pool, %d with the artifacts as files (%s)", k, status, fileStatus, fileErr)
		}
		if fromFiles := parseGateJSON(t, fileOut); !bytes.Equal(got.Decision, fromFiles.Decision) {
			t.Errorf("release %d: decision with --pool:\n%s\nwith the artifacts as files:\n%s", k, got.Decision, fromFiles.Decision)
		}

		for _, s := range []string{champion, challenger} {
			if !slices.Contains(recorded, s) {
				recorded = append(recorded, s)
			}
		}
		if got.Verdict == "pass" || got.Verdict == "warn" {
			champion = challenger
			lineage = append(lineage, challenger)
			promoted++
			if !strings.Contains(errOut, fmt.Sprintf("%q is the champion", challenger)) {
				t.Errorf("release %d: passed, and standard error does not say %q was promoted:\n%s", k, challenger, errOut)
			}
		} else {
			rejected++
		}
	}
	t.Logf("%d promoted, %d rejected; lineage %v", promoted, rejected, lineage)
	if promoted == 0 || rejected == 0 {
		t.Fatalf("%d promoted, %d rejected: the loop should see both (change the seed)", promoted, rejected)
	}

	store, err := pool.Open(poolDir)
	if err != nil {
		t.Fatal(err)
	}
	reigns, err := store.Lineage()
	if err != nil {
		t.Fatal(err)
	}
	var champions []string
	for _, r := range reigns {
		champions = append(champions, r.System)
	}
	if !slices.Equal(champions, lineage) {
		t.Errorf("lineage %v, want %v", champions, lineage)
	}
	entries, err := store.Entries(pool.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(files) {
		t.Errorf("%d systems stored, want %d", len(entries), len(files))
	}
	for _, e := range entries {
		checkStoredEqualsFile(t, e, files[e.System])
	}
}

// checkStoredEqualsFile checks that entry e holds the scores of the CSV
// file (system,topic,score) bit for bit, on the same topics.
func checkStoredEqualsFile(t *testing.T, e *pool.Entry, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")[1:]
	row := e.Measure("")
	if len(e.Measures) != 1 || row == nil || len(lines) != len(e.Topics) {
		t.Fatalf("%s: stored measures %q on %d topics; the file has %d rows of one measure", e.System, e.Measures, len(e.Topics), len(lines))
	}
	for _, line := range lines {
		f := strings.Split(line, ",")
		want, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.Index(e.Topics, f[1])
		if i < 0 || math.Float64bits(row[i]) != math.Float64bits(want) {
			t.Errorf("%s topic %s: stored %v, the input %v", e.System, f[1], row, want)
			return
		}
	}
}

// Two gates recording into one pool at once, 20 times (the pool made by
// whichever comes first): both challengers and the champion are stored,
// every entry reads back with the scores given, and the lineage has the
// champion once.
func TestGatePoolConcurrentRecord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := simulatedReleases(t, dir, 3, 7)
	policy := filepath.Join(dir, "cheap.yaml")
	if err := os.WriteFile(policy, []byte("version: 1\nname: cheap\nrules:\n  - {id: no-worse, quantity: mean_diff, at_least: -1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for rep := range 20 {
		poolDir := filepath.Join(dir, fmt.Sprintf("pool-%02d", rep))
		var wg sync.WaitGroup
		errs := make([]string, 2)
		for i, challenger := range []string{"s2", "s3"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				status, _, errOut := runMain(t, "gate", "--policy", policy, "--champion", "s1", "--challenger", challenger,
					"--pool", poolDir, "--record", "--label", challenger, files["s1"], files[challenger])
				if status != 0 {
					errs[i] = fmt.Sprintf("exit %d: %s", status, errOut)
				}
			}()
		}
		wg.Wait()
		for _, e := range errs {
			if e != "" {
				t.Fatalf("repetition %d: %s", rep, e)
			}
		}
		store, err := pool.Open(poolDir)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := store.Entries(pool.ReadOptions{})
		if err != nil {
			t.Fatalf("repetition %d: %v", rep, err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.System)
			checkStoredEqualsFile(t, e, files[e.System])
		}
		if slices.Sort(names); !slices.Equal(names, []string{"s1", "s2", "s3"}) {
			t.Fatalf("repetition %d: stored %v", rep, names)
		}
		reigns, err := store.Lineage()
		if err != nil || len(reigns) != 1 || reigns[0].System != "s1" {
			t.Fatalf("repetition %d: lineage %v (%v), want s1 once", rep, reigns, err)
		}
	}
}

// writeRunsAndQrels writes TREC runs of the systems (10 topics, 20
// documents each, random scores) and a qrels file judging every document
// 0 or 1, all seeded, and returns the qrels path and each run's path.
func writeRunsAndQrels(t *testing.T, dir string, systems ...string) (string, map[string]string) {
	t.Helper()
	r := rand.New(rand.NewPCG(29, 2))
	var q strings.Builder
	for topic := 401; topic <= 410; topic++ {
		for d := range 20 {
			fmt.Fprintf(&q, "%d 0 d%02d %d\n", topic, d, r.IntN(2))
		}
	}
	qrels := filepath.Join(dir, "qrels.txt")
	if err := os.WriteFile(qrels, []byte(q.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := map[string]string{}
	for _, sys := range systems {
		var b strings.Builder
		for topic := 401; topic <= 410; topic++ {
			for rank, d := range r.Perm(20) {
				fmt.Fprintf(&b, "%d Q0 d%02d %d %g %s\n", topic, d, rank+1, float64(20-rank), sys)
			}
		}
		runs[sys] = filepath.Join(dir, sys+".run")
		if err := os.WriteFile(runs[sys], []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return qrels, runs
}

// An artifact scored against qrels with one judgment changed is left out
// of the gate's pool with a warning that names it (and data.pool says
// why); under inputs.pool_mismatch: refuse the gate refuses, naming it.
func TestGatePoolExcludesOtherQrels(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	qrels, runs := writeRunsAndQrels(t, dir, "bm25", "new", "art-same", "art-other")
	data, err := os.ReadFile(qrels)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(first)
	f[3] = map[string]string{"0": "1", "1": "0"}[f[3]] // one judgment changed
	changed := filepath.Join(dir, "qrels-v2.txt")
	if err := os.WriteFile(changed, []byte(strings.Join(f, " ")+"\n"+rest), 0o644); err != nil {
		t.Fatal(err)
	}
	poolDir := filepath.Join(dir, "pool")
	for _, add := range [][]string{{qrels, runs["art-same"]}, {changed, runs["art-other"]}} {
		if status, _, errOut := runMain(t, "pool", "add", "--pool", poolDir, "--qrels", add[0], add[1]); status != 0 {
			t.Fatalf("pool add: exit %d: %s", status, errOut)
		}
	}
	policy := filepath.Join(dir, "p.yaml")
	rules := "rules:\n  - {id: no-worse, quantity: mean_diff, at_least: -1}\n"
	if err := os.WriteFile(policy, []byte("version: 1\nname: q\n"+rules), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"gate", "--champion", "bm25", "--challenger", "new", "--qrels", qrels, "--pool", poolDir, "--format", "json", runs["bm25"], runs["new"]}
	status, out, errOut := runMain(t, append([]string{args[0], "--policy", policy}, args[1:]...)...)
	if status != 0 {
		t.Fatalf("exit %d: %s", status, errOut)
	}
	r := parseGateJSON(t, out)
	if !slices.Equal(r.Data.Artifacts, []string{"art-same"}) {
		t.Errorf("artifacts %v, want [art-same]", r.Data.Artifacts)
	}
	var warned bool
	for _, w := range r.WarningDetails {
		if strings.Contains(w.Text, `"art-other"`) && strings.Contains(w.Text, "other qrels") {
			warned = true
			if w.About != "inputs" {
				t.Errorf("the exclusion's warning is about %q, want inputs", w.About)
			}
		}
	}
	if !warned {
		t.Errorf("no warning names \"art-other\" and its other qrels: %q", r.Warnings)
	}
	if p := r.Data.Pool; p == nil || len(p.Excluded) != 1 || p.Excluded[0].System != "art-other" || p.Excluded[0].Reason != string(pool.OtherQrels) || p.Stored != 2 {
		t.Errorf("data.pool = %+v, want art-other excluded for other-qrels of 2 stored", p)
	}

	// The reports' first lines say where the artifacts came from.
	for format, want := range map[string]string{"md": "1 artifact(s) (1 from the pool " + poolDir + ", 1 left out) ·", "table": "1 artifact(s) (1 from the pool " + poolDir + ", 1 left out), "} {
		fargs := slices.Clone(args)
		fargs[slices.Index(fargs, "json")] = format
		if _, out, _ := runMain(t, append([]string{fargs[0], "--policy", policy}, fargs[1:]...)...); !strings.Contains(out, want) {
			t.Errorf("--format %s does not say %q:\n%.600s", format, want, out)
		}
	}

	refuse := filepath.Join(dir, "refuse.yaml")
	if err := os.WriteFile(refuse, []byte("version: 1\nname: q\ninputs: {pool_mismatch: refuse}\n"+rules), 0o644); err != nil {
		t.Fatal(err)
	}
	status, out, errOut = runMain(t, append([]string{args[0], "--policy", refuse}, args[1:]...)...)
	if status != exitError || out != "" || !strings.Contains(errOut, `"art-other"`) || !strings.Contains(errOut, "pool_mismatch") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("inputs.pool_mismatch: refuse: exit %d, stdout %q, stderr %q; want exit 2 and one line naming art-other", status, out, errOut)
	}
}

// --record and its companions need a pool; --promote-on-pass and --label
// need --record.
func TestGatePoolFlagsNeedEachOther(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := simulatedReleases(t, dir, 2, 3)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--record"}, "need a pool"},
		{[]string{"--pool", filepath.Join(dir, "p"), "--promote-on-pass"}, "add --record"},
		{[]string{"--pool", filepath.Join(dir, "none")}, "no pool at"},
	} {
		status, _, errOut := runMain(t, append(append([]string{"gate", "--champion", "s1", "--challenger", "s2"}, c.args...), files["s1"], files["s2"])...)
		if status != exitError || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, %q; want exit 2 saying %q", c.args, status, errOut, c.want)
		}
	}
	if status, _, errOut := runMain(t, "gate", "--example", "--label", "x"); status != exitError || !strings.Contains(errOut, "--label and --promote-on-pass take INPUT files") {
		t.Errorf("--example --label: exit %d, %q; want exit 2", status, errOut)
	}
}

// storeScores stores the CSV file's systems in the pool (riskgate pool add).
func storeScores(t *testing.T, poolDir string, files ...string) {
	t.Helper()
	if status, _, errOut := runMain(t, append([]string{"pool", "add", "--pool", poolDir}, files...)...); status != 0 {
		t.Fatalf("pool add: exit %d: %s", status, errOut)
	}
}

// An input stored in the pool with other scores: the input is used and a
// warning names it; --record, which could not store it, refuses the gate.
// The same scores stored: not a word.
func TestGatePoolInputStoredWithOtherScores(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := simulatedReleases(t, dir, 3, 11)
	data, err := os.ReadFile(files["s1"])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	f := strings.Split(lines[1], ",")
	f[2] = "0.123456" // one score of s1 changed
	lines[1] = strings.Join(f, ",")
	other := filepath.Join(dir, "s1-other.csv")
	if err := os.WriteFile(other, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	same, changed := filepath.Join(dir, "same"), filepath.Join(dir, "changed")
	storeScores(t, same, files["s1"], files["s3"])
	storeScores(t, changed, other, files["s3"])
	args := func(poolDir string, extra ...string) []string {
		return append(append([]string{"gate", "--policy", writeCheapPolicy(t, dir), "--champion", "s1", "--challenger", "s2", "--format", "json", "--pool", poolDir}, extra...), files["s1"], files["s2"])
	}

	status, out, errOut := runMain(t, args(same)...)
	if status != 0 {
		t.Fatalf("exit %d: %s", status, errOut)
	}
	if r := parseGateJSON(t, out); slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, `"s1"`) }) || !slices.Equal(r.Data.Artifacts, []string{"s3"}) {
		t.Errorf("the input stored with its own scores: warnings %q, artifacts %v; want none about s1, and [s3]", r.Warnings, r.Data.Artifacts)
	}

	status, out, errOut = runMain(t, args(changed)...)
	if status != 0 {
		t.Fatalf("exit %d: %s", status, errOut)
	}
	r := parseGateJSON(t, out)
	if ws := poolWarnings(r, changed); len(ws) != 2 || !strings.Contains(ws[0], `the input "s1" is used`) || !strings.Contains(ws[0], "0.123456 stored") {
		t.Errorf("warnings %q; want one naming the input s1 and the stored score that differs (and one on the unknown qrels)", ws)
	}

	status, out, errOut = runMain(t, args(changed, "--record")...)
	if status != exitError || out != "" || !strings.Contains(errOut, "--record") || !strings.Contains(errOut, `"s1"`) {
		t.Errorf("--record over other stored scores: exit %d, stdout %q, stderr %q; want exit 2 naming s1", status, out, errOut)
	}
}

// poolWarnings are r's warnings about the pool in dir, each about the inputs.
func poolWarnings(r gateJSON, dir string) []string {
	var out []string
	for _, w := range r.WarningDetails {
		if strings.HasPrefix(w.Text, "pool "+dir+":") && w.About == "inputs" {
			out = append(out, w.Text)
		}
	}
	return out
}

func writeCheapPolicy(t *testing.T, dir string) string {
	t.Helper()
	policy := filepath.Join(dir, "cheap.yaml")
	if err := os.WriteFile(policy, []byte("version: 1\nname: cheap\nrules:\n  - {id: no-worse, quantity: mean_diff, at_least: -1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return policy
}

// A stored system whose name a challenger pattern matches joins as nothing:
// never a challenger of a gate that did not name it as an input.
func TestGatePoolChallengerNameLeftOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := simulatedReleases(t, dir, 4, 5)
	poolDir := filepath.Join(dir, "pool")
	storeScores(t, poolDir, files["s3"], files["s4"])
	status, out, errOut := runMain(t, "gate", "--policy", writeCheapPolicy(t, dir), "--champion", "s1", "--challenger", "s?",
		"--format", "json", "--pool", poolDir, files["s1"], files["s2"])
	if status != 0 {
		t.Fatalf("exit %d: %s", status, errOut)
	}
	r := parseGateJSON(t, out)
	if len(r.Data.Artifacts) != 0 || r.Data.Pool == nil || len(r.Data.Pool.Excluded) != 2 || r.Data.Pool.Excluded[0].Reason != "challenger-name" {
		t.Errorf("artifacts %v, data.pool %+v; want s3 and s4 left out as challenger-name", r.Data.Artifacts, r.Data.Pool)
	}
	if ws := poolWarnings(r, poolDir); len(ws) != 2 || !strings.Contains(ws[0], `"s3"`) || !strings.Contains(ws[1], `"s4"`) {
		t.Errorf("warnings %q; want one per stored system left out", ws)
	}
}

// The memory estimate counts the pool's artifacts: it is the engine's
// estimate of the joined tables, above that of the inputs alone.
func TestGatePoolMemoryEstimateCountsArtifacts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := simulatedReleases(t, dir, 10, 13)
	poolDir := filepath.Join(dir, "pool")
	var stored []string
	for k := 3; k <= 10; k++ {
		stored = append(stored, files[fmt.Sprintf("s%02d", k)])
	}
	storeScores(t, poolDir, stored...)
	estimate := func(extra ...string) (*resolvedGate, float64) {
		var g *resolvedGate
		s := &streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}
		cmd := newGateCommand(s, testDeps(), func(ctx context.Context, o *gateOptions) error {
			var err error
			g, err = o.resolve(ctx, s, 4e9)
			return err
		})
		if err := cmd.Run(context.Background(), append(append([]string{"gate", "--champion", "s01", "--challenger", "s02"}, extra...), files["s01"], files["s02"])); err != nil {
			t.Fatal(err)
		}
		return g, g.estimate
	}
	_, alone := estimate()
	g, withPool := estimate("--pool", poolDir)
	if n := len(g.tables[0].Systems); n != 10 {
		t.Fatalf("%d systems in the gate with the pool, want 10", n)
	}
	if want, _ := engine.EstimateMemory(g.policy, g.tables, g.sweep, g.rankings, g.attributes); withPool != want || withPool <= alone {
		t.Errorf("estimate with the pool's 8 artifacts %.0f B (the engine's for the joined tables %.0f B), alone %.0f B", withPool, want, alone)
	}
}

// --record stores nothing when --out's report set was not written: the
// gate ended in an error, and standard error says why nothing was stored.
func TestGatePoolRecordsNothingWithoutReports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := simulatedReleases(t, dir, 2, 17)
	poolDir := filepath.Join(dir, "pool")
	failWrite := func(o *gateOptions) {
		o.writeReport = func(io.Writer, string, []byte) error { return errors.New("no space left on device") }
	}
	status, _, errOut := runGateWith(t, context.Background(), failWrite, "--policy", writeCheapPolicy(t, dir), "--champion", "s1", "--challenger", "s2",
		"--out", filepath.Join(dir, "report"), "--pool", poolDir, "--record", files["s1"], files["s2"])
	if status != exitError || !strings.Contains(errOut, "nothing recorded") {
		t.Errorf("exit %d, stderr %q; want exit 2 saying nothing was recorded", status, errOut)
	}
	store, err := pool.Open(poolDir)
	if err != nil {
		t.Fatal(err)
	}
	if entries, err := store.Entries(pool.ReadOptions{}); err != nil || len(entries) != 0 {
		t.Errorf("the pool holds %d systems (%v) after a gate whose reports were not written", len(entries), err)
	}
}

// BenchmarkGatePoolJoin is what --pool adds to a gate: reading a pool of
// 100 stored systems of 250 topics, checking their fingerprints against the
// champion's, and joining them to the inputs' table.
func BenchmarkGatePoolJoin(b *testing.B) {
	const systems, topics = 100, 250
	dir := b.TempDir()
	r := rand.New(rand.NewPCG(29, 100))
	var names, ids []string
	for s := range systems + 2 {
		names = append(names, fmt.Sprintf("sys-%03d", s))
	}
	for j := range topics {
		ids = append(ids, fmt.Sprint(301+j))
	}
	all := scores.NewTable("map", names, ids)
	for s := range all.Scores {
		for j := range all.Scores[s] {
			all.Scores[s][j] = r.Float64()
		}
	}
	ctx := context.Background()
	store, err := pool.Create(ctx, filepath.Join(dir, "pool"))
	if err != nil {
		b.Fatal(err)
	}
	var entries []*pool.Entry
	for _, name := range names[2:] {
		e, err := pool.NewEntry(all, name, pool.Recording{Role: pool.Artifact})
		if err != nil {
			b.Fatal(err)
		}
		entries = append(entries, e)
	}
	if _, err := store.Record(ctx, entries...); err != nil {
		b.Fatal(err)
	}
	inputs := scores.NewTable("map", names[:2], ids)
	copy(inputs.Scores[0], all.Scores[0])
	copy(inputs.Scores[1], all.Scores[1])
	p := policies.Default()
	p.Champion, p.Challengers = names[0], []policies.Pattern{{Text: names[1]}}
	o := gatePoolOptions{Dir: optional[string]{Value: store.Dir(), Set: true}}
	in := &inputOptions{}
	b.ResetTimer()
	for b.Loop() {
		ts, gp, err := o.joinPool(ctx, p, engine.Tables{inputs}, nil, in, time.Time{})
		if err != nil || len(ts[0].Systems) != systems+2 || len(gp.use.Artifacts) != systems {
			b.Fatalf("%v: %d systems", err, len(ts[0].Systems))
		}
	}
}

// The policy's inputs.pool is a folder relative to the policy file's, and
// --pool replaces it.
func TestGatePoolFromPolicy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := simulatedReleases(t, dir, 3, 19)
	storeScores(t, filepath.Join(dir, "history"), files["s3"])
	policy := filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(policy, []byte("version: 1\nname: p\ninputs: {pool: history}\nrules:\n  - {id: no-worse, quantity: mean_diff, at_least: -1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, out, errOut := runMain(t, "gate", "--policy", policy, "--champion", "s1", "--challenger", "s2", "--format", "json", files["s1"], files["s2"])
	if status != 0 {
		t.Fatalf("exit %d: %s", status, errOut)
	}
	if r := parseGateJSON(t, out); !slices.Equal(r.Data.Artifacts, []string{"s3"}) {
		t.Errorf("artifacts %v, want [s3] from the policy's pool", r.Data.Artifacts)
	}
	status, _, errOut = runMain(t, "gate", "--policy", policy, "--pool", filepath.Join(dir, "elsewhere"), "--champion", "s1", "--challenger", "s2", files["s1"], files["s2"])
	if status != exitError || !strings.Contains(errOut, "elsewhere") {
		t.Errorf("--pool over the policy's: exit %d, %q; want exit 2 about the folder --pool names", status, errOut)
	}
}

// A damaged entry stops the gate: exit 2, one line naming the file and what
// to do; never read in part.
func TestGatePoolDamagedEntryRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := simulatedReleases(t, dir, 3, 23)
	poolDir := filepath.Join(dir, "pool")
	storeScores(t, poolDir, files["s3"])
	entries, err := filepath.Glob(filepath.Join(poolDir, "systems", "*.entry"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("entries %v (%v)", entries, err)
	}
	data, err := os.ReadFile(entries[0])
	if err != nil {
		t.Fatal(err)
	}
	damaged := bytes.Replace(data, []byte("topic \"t01\" 0"), []byte("topic \"t01\" 1"), 1) // a score edited by hand
	if bytes.Equal(damaged, data) {
		t.Fatalf("no score of t01 to edit in %s", data)
	}
	if err := os.WriteFile(entries[0], damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	status, out, errOut := runMain(t, "gate", "--policy", writeCheapPolicy(t, dir), "--champion", "s1", "--challenger", "s2", "--pool", poolDir, files["s1"], files["s2"])
	if status != exitError || out != "" || !strings.Contains(errOut, entries[0]) || !strings.Contains(errOut, "pool rm") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("a damaged entry: exit %d, stdout %q, stderr %q; want exit 2 and one line naming %s", status, out, errOut, entries[0])
	}
}

// Runs scored with a filled-in worklist were scored against other judgments
// than the qrels file's: their qrels fingerprint is neither the file's nor
// that of the same qrels with another worklist, so the pool never mixes them.
func TestGateQrelsFingerprintCountsTheWorklists(t *testing.T) {
	t.Parallel()
	q := scores.Source{Role: scores.RoleQrels, Path: "qrels.txt", SHA256: strings.Repeat("a", 64)}
	j1 := scores.Source{Role: scores.RoleJudgments, Path: "w1.tsv", SHA256: strings.Repeat("b", 64)}
	j2 := scores.Source{Role: scores.RoleJudgments, Path: "w2.tsv", SHA256: strings.Repeat("c", 64)}
	in := &inputOptions{}
	plain, _ := gateQrels([]scores.Source{q}, in)
	one, _ := gateQrels([]scores.Source{q, j1}, in)
	two, _ := gateQrels([]scores.Source{q, j1, j2}, in)
	swapped, _ := gateQrels([]scores.Source{q, j2, j1}, in)
	again, _ := gateQrels([]scores.Source{q, j1}, in)
	if plain.SHA256 != q.SHA256 || one.SHA256 == plain.SHA256 || two.SHA256 == one.SHA256 || swapped.SHA256 == two.SHA256 || again != one {
		t.Errorf("fingerprints: plain %v, one worklist %v, two %v, swapped %v, again %v", plain, one, two, swapped, again)
	}
	if one.Path != "qrels.txt + w1.tsv" {
		t.Errorf("path %q", one.Path)
	}
}
