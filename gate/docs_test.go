package gate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/shared"
)

// Docs as tests: every fenced sh block of README.md and docs/*.md runs, one
// command at a time, with sh from a fresh temporary directory holding
// generated data under the names the docs use (scores.csv, runs/*.run,
// qrels.txt, rb04.csv, …), and with `riskgate` on PATH being this test
// binary (TestMain runs Main when RISKGATE_DOCTEST_MAIN is set). A command
// must exit 0 unless the block's marker says otherwise.
//
// A marker is an HTML comment on the line before the fence, invisible where
// the markdown is rendered; directives are separated by ";":
//
//	<!-- doctest: skip needs the network -->    not run; the reason is required
//	<!-- doctest: exit 0,1,3 -->                 the exit statuses the doc expects (a verdict)
//	<!-- doctest: slow -->                       not run with -short
//	<!-- doctest: shared data/trec_eval/robust03 -->  needs that path in ../shared; skipped, saying so, without it
//	<!-- doctest: before riskgate policy init -->  a command run first, not shown in the doc
//	<!-- doctest: append calibrate --reps 4 -->  arguments added to every riskgate calibrate
//	                                               (a documented run that takes minutes)
//	<!-- doctest: same-as docs/recipes/pre-deploy.sh -->  the block is that file, verbatim
//
// A block of another language (a policy's YAML) marked
//
//	<!-- doctest: file release.yaml -->
//
// is that file in the folder every block runs in, so that the doc's commands
// read the policy as the doc shows it.

const (
	doctestMainEnv   = "RISKGATE_DOCTEST_MAIN"
	doctestAppendEnv = "RISKGATE_DOCTEST_APPEND"
)

// TestMain lets this test binary stand in for riskgate in the docs' shell
// commands: run as a child with RISKGATE_DOCTEST_MAIN=1, it is riskgate.
// Otherwise it runs the tests and says how many reference tests skipped
// (shared.RunTests).
func TestMain(m *testing.M) {
	if os.Getenv(doctestMainEnv) == "1" {
		limitAddressSpace()
		args := append([]string{"riskgate"}, os.Args[1:]...)
		if extra := strings.Fields(os.Getenv(doctestAppendEnv)); len(extra) > 1 && len(args) > 1 && args[1] == extra[0] {
			args = append(args, extra[1:]...)
		}
		os.Exit(Main(context.Background(), args, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(shared.RunTests(m))
}

// docBlock is one fenced sh block.
type docBlock struct {
	File     string // relative to the repository
	Line     int    // of the opening fence
	Commands []docCommand
	Text     string // the block's lines, verbatim

	Skip    string // reason, when not run
	Exits   []int
	Slow    bool
	Shared  string // a path in ../shared the block reads
	Before  []string
	Append  string
	SameAs  string
	Markers int
}

type docCommand struct {
	Line int
	Text string
}

var doctestMarker = regexp.MustCompile(`^<!-- doctest: (.*) -->$`)

// docBlocks returns every fenced sh block of the markdown file.
func docBlocks(t *testing.T, repo, rel string) []docBlock {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repo, rel))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var blocks []docBlock
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```sh" {
			continue
		}
		b := docBlock{File: rel, Line: i + 1, Exits: []int{0}}
		if i > 0 {
			if m := doctestMarker.FindStringSubmatch(strings.TrimSpace(lines[i-1])); m != nil {
				parseDocMarker(t, &b, m[1])
			}
		}
		var body []string
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			body = append(body, lines[j])
		}
		if j == len(lines) {
			t.Fatalf("%s:%d: the sh block is not closed", rel, i+1)
		}
		b.Text = strings.Join(body, "\n") + "\n"
		for k := 0; k < len(body); k++ {
			start, cmd := i+2+k, body[k]
			for strings.HasSuffix(cmd, "\\") && k+1 < len(body) {
				k++
				cmd += "\n" + body[k] // sh joins the lines at the backslash
			}
			if s := strings.TrimSpace(cmd); s != "" && !strings.HasPrefix(s, "#") {
				b.Commands = append(b.Commands, docCommand{Line: start, Text: cmd})
			}
		}
		blocks = append(blocks, b)
		i = j
	}
	return blocks
}

func parseDocMarker(t *testing.T, b *docBlock, text string) {
	t.Helper()
	for _, d := range strings.Split(text, ";") {
		d = strings.TrimSpace(d)
		word, rest, _ := strings.Cut(d, " ")
		rest = strings.TrimSpace(rest)
		switch word {
		case "skip":
			if rest == "" {
				t.Errorf("%s:%d: doctest skip needs a reason", b.File, b.Line-1)
			}
			b.Skip = rest
		case "exit":
			b.Exits = nil
			for _, s := range strings.Split(rest, ",") {
				n, err := strconv.Atoi(strings.TrimSpace(s))
				if err != nil {
					t.Errorf("%s:%d: doctest exit %q: %v", b.File, b.Line-1, rest, err)
				}
				b.Exits = append(b.Exits, n)
			}
		case "slow":
			b.Slow = true
		case "shared":
			if rest == "" {
				t.Errorf("%s:%d: doctest shared needs the path in ../shared the block reads", b.File, b.Line-1)
			}
			b.Shared = rest
		case "before":
			b.Before = append(b.Before, rest)
		case "append":
			b.Append = rest
		case "same-as":
			b.SameAs = rest
		default:
			t.Errorf("%s:%d: unknown doctest directive %q (valid: skip, exit, slow, shared, before, append, same-as)", b.File, b.Line-1, word)
		}
		b.Markers++
	}
}

// TestDocsCommands runs every unmarked command of README.md and docs/*.md,
// each block in a parallel subtest of its own (named file:line).
func TestDocsCommands(t *testing.T) {
	t.Parallel()
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	docs, _ := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	for _, d := range docs {
		files = append(files, filepath.Join("docs", filepath.Base(d)))
	}
	fix := newDocFixture(t, repo)
	for _, f := range files {
		for _, fence := range docFences(t, repo, f) {
			name, ok := strings.CutPrefix(fence.Marker, "file ")
			if !ok {
				continue
			}
			if _, taken := fix.files[name]; taken || fence.Lang == "sh" {
				t.Fatalf("%s:%d: doctest file %q: a name the fixture already has, or an sh block", fence.File, fence.Line, name)
			}
			fix.files[name] = strings.Join(fence.Lines, "\n") + "\n"
		}
	}
	var ran atomic.Int64
	var skipped, blocks int
	t.Run("blocks", func(t *testing.T) { // returns when every block has run
		for _, f := range files {
			for _, b := range docBlocks(t, repo, f) {
				blocks++
				name := fmt.Sprintf("%s:%d", b.File, b.Line)
				if b.SameAs != "" {
					want, err := os.ReadFile(filepath.Join(repo, b.SameAs))
					if err != nil || string(want) != b.Text {
						t.Errorf("%s: the block is not %s verbatim (%v)", name, b.SameAs, err)
					}
					continue
				}
				if b.Skip != "" {
					skipped++
					continue
				}
				if b.Slow && testing.Short() {
					t.Logf("%s: slow; skipped with -short", name)
					skipped++
					continue
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					if b.Shared != "" {
						shared.Path(t, b.Shared) // skips, saying so, without ../shared
					}
					runDocBlock(t, b, fix, self)
					ran.Add(int64(len(b.Commands)))
				})
			}
		}
	})
	t.Logf("%d sh blocks: %d commands run, %d blocks skipped (marked or -short)", blocks, ran.Load(), skipped)
	if ran.Load() == 0 {
		t.Fatal("no documented command ran")
	}
}

// runDocBlock runs b's commands with sh, in order, from a fresh folder
// holding the fixture, with self (this test binary) as riskgate on PATH.
func runDocBlock(t *testing.T, b docBlock, fix *docFixture, self string) {
	dir := t.TempDir()
	fix.write(t, dir)
	env := append(os.Environ(), doctestMainEnv+"=1", doctestAppendEnv+"="+b.Append,
		"PATH="+filepath.Join(dir, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"), "CI=", "GITHUB_ACTIONS=")
	if err := os.Symlink(self, filepath.Join(dir, "bin", "riskgate")); err != nil {
		t.Fatal(err)
	}
	run := func(c docCommand, exits []int) {
		// The limit catches a hung command. A slow block (a documented
		// calibration of 500 pools per cell) takes 2 minutes on an idle
		// 2-core machine and over 5 on a loaded one.
		limit := 5 * time.Minute
		if b.Slow {
			limit = 15 * time.Minute
		}
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sh", "-c", c.Text)
		cmd.Dir, cmd.Env = dir, env
		start := time.Now()
		out, err := cmd.CombinedOutput()
		code := 0
		if err != nil {
			code = -1
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
		}
		if !slices.Contains(exits, code) {
			tail := string(out)
			if len(tail) > 2000 {
				tail = "…" + tail[len(tail)-2000:]
			}
			t.Errorf("%s:%d: %s\nexit %d, the doc expects %v; output:\n%s", b.File, c.Line, c.Text, code, exits, tail)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Logf("%s:%d took %v", b.File, c.Line, d.Round(time.Millisecond))
		}
	}
	for _, before := range b.Before {
		run(docCommand{Line: b.Line - 1, Text: before}, []int{0})
	}
	for _, c := range b.Commands {
		run(c, b.Exits)
	}
}

// TestDocsMarkers: every sh block that cannot run says why, and nothing else
// is marked skip without a reason (checked by docBlocks); a block of
// riskgate commands is never skipped.
func TestDocsMarkers(t *testing.T) {
	t.Parallel()
	repo, _ := filepath.Abs("..")
	docs, _ := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	files := []string{"README.md"}
	for _, d := range docs {
		files = append(files, filepath.Join("docs", filepath.Base(d)))
	}
	for _, f := range files {
		for _, b := range docBlocks(t, repo, f) {
			if b.Skip == "" {
				continue
			}
			for _, c := range b.Commands {
				if strings.HasPrefix(strings.TrimSpace(c.Text), "riskgate ") && !strings.Contains(b.Skip, "token") && !strings.Contains(b.Skip, "minutes") {
					t.Errorf("%s:%d: riskgate command in a skipped block (%s): %s", b.File, c.Line, b.Skip, c.Text)
				}
			}
		}
	}
}

// docFixture is the data the docs' commands read, generated once.
type docFixture struct {
	files map[string]string // relative path → content
	links map[string]string // relative path → absolute target
	execs []string          // relative paths made executable
}

// Systems of the generated scores: the docs' names, the example policies'
// and enough artifacts for the Bayesian rules (min_artifacts 10).
var docSystems = []string{"bm25", "new", "prod", "new-ranker", "new-fast", "dpr", "exp-7", "production", "release-candidate",
	"main", "pr-42", "art-01", "art-02", "art-03", "art-04", "art-05", "art-06", "art-07", "art-08", "art-09", "art-10", "art-11", "art-12"}

func newDocFixture(t *testing.T, repo string) *docFixture {
	t.Helper()
	rng := rand.New(rand.NewPCG(19, 2026))
	f := &docFixture{files: map[string]string{}, links: map[string]string{}}
	for _, d := range []string{"examples", "policies", "docs"} {
		f.links[d] = filepath.Join(repo, d)
	}
	f.links["gate/testdata"] = filepath.Join(repo, "gate", "testdata")
	// robust03's trec_eval -q outputs (docs/calibrate.md, several measures),
	// from ../shared, when present.
	if root := shared.Root(); root != "" {
		f.links["robust03"] = filepath.Join(root, "data", "trec_eval", "robust03", "trec_eval")
		f.links["bayesian-risk"] = filepath.Join(root, "data", "bayesian-risk") // rb04 itself (docs/calibrate.md, segment rules)
	}

	// Long-format scores of one measure, 30 topics; and the same per system.
	topics := make([]string, 30)
	difficulty := make([]float64, len(topics))
	for i := range topics {
		topics[i] = fmt.Sprintf("t%02d", i+1)
		difficulty[i] = 0.2 + 0.5*rng.Float64()
	}
	pool := func(systems []string) (long string, per map[string]string) {
		var b strings.Builder
		b.WriteString("system,topic,score,measure\n")
		per = map[string]string{}
		for s, name := range systems {
			effect := 0.04 * rng.NormFloat64()
			if s == 0 {
				effect = 0
			}
			var one strings.Builder
			one.WriteString("system,topic,score,measure\n")
			for i, topic := range topics {
				y := math.Min(1, math.Max(0, difficulty[i]+effect+0.08*rng.NormFloat64()))
				row := fmt.Sprintf("%s,%s,%.4f,ndcg_cut_10\n", name, topic, y)
				b.WriteString(row)
				one.WriteString(row)
			}
			per[name] = one.String()
		}
		return b.String(), per
	}
	long, per := pool(docSystems)
	f.files["scores.csv"] = long
	// Their topics' origin, for rules per segment (docs/policies.md,
	// "Segments"): 15, 10 and 5 topics.
	var origins strings.Builder
	origins.WriteString("topic,origin\n")
	for i, topic := range topics {
		origins.WriteString(topic + "," + [...]string{"web", "news", "forum"}[min(i/15+i/25, 2)] + "\n")
	}
	f.files["topics.csv"] = origins.String()
	for name, content := range per {
		f.files["runs/"+name+".csv"] = content
	}
	rb04 := []string{"Champion", "Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"}
	for i := 1; i <= 12; i++ {
		rb04 = append(rb04, fmt.Sprintf("Artifact %d", i))
	}
	f.files["rb04.csv"], _ = pool(rb04)

	// A wide CSV and JSON Lines, to be mixed.
	var wide, jsonl strings.Builder
	wide.WriteString("topic,bm25,new-ranker\n")
	for _, topic := range topics {
		fmt.Fprintf(&wide, "%s,%.4f,%.4f\n", topic, rng.Float64(), rng.Float64())
		fmt.Fprintf(&jsonl, "{\"system\": \"dpr\", \"topic\": %q, \"score\": %.4f}\n", topic, rng.Float64())
	}
	f.files["wide.csv"], f.files["extra.jsonl"] = wide.String(), jsonl.String()

	// TREC runs and qrels: 20 topics, 40 documents, 8 relevant per topic.
	var qrels strings.Builder
	rel := map[[2]int]int{}
	for q := 301; q <= 320; q++ {
		for _, d := range rng.Perm(40)[:8] {
			rel[[2]int{q, d}] = 1 + rng.IntN(2)
		}
		for d := range 40 {
			fmt.Fprintf(&qrels, "%d 0 d%03d %d\n", q, d, rel[[2]int{q, d}])
		}
	}
	f.files["qrels.txt"], f.files["q.txt"] = qrels.String(), qrels.String()
	for k, name := range []string{"bm25", "new-ranker", "new-fast", "dpr", "art-01", "art-02", "art-03", "art-04", "art-05",
		"art-06", "art-07", "art-08", "art-09", "art-10", "art-11", "art-12"} {
		var run strings.Builder
		for q := 301; q <= 320; q++ {
			type doc struct {
				id    int
				score float64
			}
			docs := make([]doc, 40)
			for d := range docs {
				docs[d] = doc{d, float64(rel[[2]int{q, d}])*(0.5+0.1*float64(k%3)) + rng.Float64()}
			}
			slices.SortFunc(docs, func(a, b doc) int { return -cmpFloat(a.score, b.score) })
			for r, d := range docs[:20] {
				fmt.Fprintf(&run, "%d Q0 d%03d %d %.4f %s\n", q, d.id, r+1, d.score, name)
			}
		}
		f.files["runs/"+name+".run"] = run.String()
	}
	f.files["run.txt"] = f.files["runs/bm25.run"]

	// A per-query export of two measures (docs/inputs.md), as a metric-column
	// CSV and as the same table in Parquet.
	var perQuery strings.Builder
	perQuery.WriteString("query_id,system,map,nDCG@10\n")
	for _, topic := range topics {
		m, n := 0.2+0.3*rng.Float64(), 0.3+0.3*rng.Float64()
		fmt.Fprintf(&perQuery, "%s,bm25,%.4f,%.4f\n%s,new-ranker,%.4f,%.4f\n", topic, m, n, topic, m+0.03+0.02*rng.NormFloat64(), n+0.01*rng.NormFloat64())
	}
	f.files["per_query.csv"] = perQuery.String()
	perQuerySet, _, _, err := scores.LoadSources([]string{writeTemp(t, "per_query.csv", perQuery.String())}, scores.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	parquetBytes, err := setWideParquet(perQuerySet)
	if err != nil {
		t.Fatal(err)
	}
	f.files["per_query.parquet"] = string(parquetBytes)
	for _, name := range []string{"bm25", "dpr"} {
		path := writeTemp(t, name+".run", f.files["runs/"+name+".run"])
		code, out, errw := runMain(t, "eval", "-q", "-m", "all_trec", writeTemp(t, "qrels.txt", f.files["qrels.txt"]), path)
		if code != 0 {
			t.Fatalf("eval for the fixture: %s", errw)
		}
		f.files[name+".eval"] = out
	}

	// Classifier outputs: bare labels paired by line, and id<TAB>label.
	labels := []string{"spam", "ham", "news"}
	var truth, svm, nb, truthTSV, aTSV, bTSV strings.Builder
	for i := range 60 {
		y := labels[rng.IntN(3)]
		guess := func(acc float64) string {
			if rng.Float64() < acc {
				return y
			}
			return labels[rng.IntN(3)]
		}
		fmt.Fprintln(&truth, y)
		fmt.Fprintln(&svm, guess(0.8))
		fmt.Fprintln(&nb, guess(0.7))
		fmt.Fprintf(&truthTSV, "m%d\t%s\n", i, y)
		fmt.Fprintf(&aTSV, "m%d\t%s\n", i, guess(0.8))
		fmt.Fprintf(&bTSV, "m%d\t%s\n", i, guess(0.7))
	}
	f.files["truth.txt"], f.files["svm.txt"], f.files["nb.txt"] = truth.String(), svm.String(), nb.String()
	f.files["truth.tsv"], f.files["a.tsv"], f.files["b.tsv"] = truthTSV.String(), aTSV.String(), bTSV.String()

	// Policies named in the docs: the starter with the docs' champion.
	starter, err := os.ReadFile(filepath.Join(repo, "policies", "starter.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p := strings.Replace(string(starter), "champion: production", "champion: bm25", 1)
	p = strings.Replace(p, `challengers: ["candidate-*"]`, `challengers: ["new-*"]`, 1)
	f.files["policy.yaml"], f.files["p.yaml"] = p, p
	f.files["deploy.sh"] = "#!/bin/sh\necho deployed\n"
	f.execs = []string{"deploy.sh"}
	return f
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// write puts the fixture into dir, with an empty bin/ for riskgate.
func (f *docFixture) write(t *testing.T, dir string) {
	t.Helper()
	for _, d := range []string{"bin", "runs", "gate"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for rel, content := range f.files {
		mode := os.FileMode(0o644)
		if slices.Contains(f.execs, rel) {
			mode = 0o755
		}
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	for rel, target := range f.links {
		if err := os.Symlink(target, filepath.Join(dir, rel)); err != nil {
			t.Fatal(err)
		}
	}
}
