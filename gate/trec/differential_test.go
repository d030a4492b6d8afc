package trec

// The differential test against NIST trec_eval v10: random qrels, runs and
// command lines, each run through trec_eval (built from the unmodified
// source in ../shared/tools/trec_eval) and through riskgate eval's own
// entry point (ParseCommandLine and Execute), comparing standard output byte
// for byte and the exit status class (0 or an error).
//
//	RISKGATE_DIFF_SEED=n   seed (default: random, printed)
//	RISKGATE_DIFF_CASES=n  cases to compare (default 500; -short skips the test unless set)
//
// Every mismatch is shrunk to a minimal input and printed with the command
// line that reproduces it. Cases where trec_eval itself crashes, or reads
// memory it never wrote, are skipped and counted by reason
// (../shared/tools/README.md lists them).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/internal/shared"
)

// diffCase is one generated input: qrels and run lines (without line ends)
// and the command line as option units ({"-l", "2"} stays together when
// shrinking).
type diffCase struct {
	qrels, run         []string
	qrelsCRLF, runCRLF bool
	qrelsNoFinalEOL    bool
	runNoFinalEOL      bool
	opts               [][]string
	optsAfterFiles     int // the last optsAfterFiles units follow the file names
}

func (c *diffCase) clone() *diffCase {
	d := *c
	d.qrels = slices.Clone(c.qrels)
	d.run = slices.Clone(c.run)
	d.opts = slices.Clone(c.opts)
	return &d
}

func joinLines(lines []string, crlf, noFinal bool) []byte {
	eol := "\n"
	if crlf {
		eol = "\r\n"
	}
	s := strings.Join(lines, eol)
	if len(lines) > 0 && !noFinal {
		s += eol
	}
	return []byte(s)
}

func (c *diffCase) qrelsBytes() []byte { return joinLines(c.qrels, c.qrelsCRLF, c.qrelsNoFinalEOL) }
func (c *diffCase) runBytes() []byte   { return joinLines(c.run, c.runCRLF, c.runNoFinalEOL) }

// args returns the command line with the given file names.
func (c *diffCase) args(qrels, run string) []string {
	var out []string
	k := len(c.opts) - min(c.optsAfterFiles, len(c.opts))
	for _, u := range c.opts[:k] {
		out = append(out, u...)
	}
	out = append(out, qrels, run)
	for _, u := range c.opts[k:] {
		out = append(out, u...)
	}
	return out
}

// String prints the case as a shell session that reproduces it.
func (c *diffCase) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "printf %%s %s > qrels\n", shellQuote(string(c.qrelsBytes())))
	fmt.Fprintf(&b, "printf %%s %s > run\n", shellQuote(string(c.runBytes())))
	b.WriteString("trec_eval")
	for _, a := range c.args("qrels", "run") {
		b.WriteString(" " + shellQuote(a))
	}
	return b.String()
}

// shellQuote quotes s for bash, with $'…' when it holds control characters.
func shellQuote(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.,=/+:", r)) {
			plain = false
		}
	}
	if plain {
		return s
	}
	if !strings.ContainsAny(s, "\r\n\t\v\f") && !strings.Contains(s, "'") {
		return "'" + s + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\'', '\\':
			b.WriteByte('\\')
			b.WriteByte(ch)
		default:
			b.WriteByte(ch)
		}
	}
	b.WriteString("'")
	return b.String()
}

// pick returns one of xs.
func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// chance is true with probability p.
func chance(r *rand.Rand, p float64) bool { return r.Float64() < p }

// diffTopicIDs and the docno styles give ties under strcmp, prefixes,
// case differences, UTF-8 and punctuation.
var diffTopicIDs = []string{"1", "2", "10", "101", "301", "9", "A", "a", "B", "b", "t-1", "x.y", "é", "Q_7"}

func genDocnos(r *rand.Rand, n int) []string {
	style := r.IntN(6)
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		k := r.IntN(3 * n)
		var d string
		switch style {
		case 0:
			d = fmt.Sprintf("d%d", k)
		case 1:
			d = fmt.Sprintf("DOC-%03d", k)
		case 2: // case and prefix neighbours
			d = pick(r, "d", "D", "d1", "D1", "d10", "d1a", "d2", "dd", "d-1", "d_1", "d.1")
			d += strings.Repeat("x", k%2)
		case 3:
			d = pick(r, "é", "e", "ß", "z", "Z", "~", "a.b", "#d", "0", "00", "-")
			d += strconv.Itoa(k % 4)
		case 4:
			d = fmt.Sprintf("clueweb09-en%04d-%02d", k/7, k%7)
		default:
			d = fmt.Sprintf("%d", k)
		}
		if chance(r, 0.02) {
			d = bogusDocno
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

func genLevel(r *rand.Rand) string {
	x := r.Float64()
	switch {
	case x < 0.30:
		return "0"
	case x < 0.55:
		return "1"
	case x < 0.68:
		return "2"
	case x < 0.73:
		return "3"
	case x < 0.78:
		return "-1"
	case x < 0.81:
		return "-2"
	case x < 0.86:
		return strconv.Itoa(4 + r.IntN(9))
	case x < 0.88:
		return "127"
	default:
		return pick(r, "00", "1.9", "2abc", "+1", "-0", "01", "abc", "3.", "0x2")
	}
}

func genScore(r *rand.Rand, style int) string {
	if chance(r, 0.04) {
		return pick(r, "nan", "-nan", "NaN", "inf", "-inf", "1e400", "-1e400", "0x1p-1", "5abc", "abc",
			"-0", "+.5e1", "1e-320", "0.30000000000000004", "0.3", "1e0", "1.", ".5", "0x.8")
	}
	switch style {
	case 0:
		return strconv.Itoa(r.IntN(4))
	case 1:
		return strconv.FormatFloat(float64(r.IntN(100))/10, 'f', -1, 64)
	case 2:
		return strconv.FormatFloat(r.NormFloat64()*10, 'g', 17, 64)
	default:
		return strconv.Itoa(1000 - r.IntN(30))
	}
}

// sep returns a field separator: mostly one space, sometimes tabs or runs.
func sep(r *rand.Rand) string {
	if chance(r, 0.85) {
		return " "
	}
	return pick(r, "\t", "  ", " \t", "\v", "\f")
}

func genMeasures(r *rand.Rand) []string {
	good := []string{
		"official", "all_trec", "set", "runid", "num_q", "num_ret", "num_rel", "num_rel_ret",
		"map", "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring", "recall",
		"infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG", "G", "dcg", "ideal_dcg",
		"ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
		"set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "rbp",
		"rbp_resid", "unj", "yaap",
		"P.5,10", "P.1", "P.3,1,2", "P.5abc", "recall.2", "recall.1,100",
		"ndcg_cut.1,3", "ndcg_cut.2", "map_cut.2,5", "success.1,2", "relative_P.2", "unj.1,3",
		"iprec_at_recall..1,.5", "iprec_at_recall.0,.3,1", "iprec_at_recall.-1,2",
		"Rprec_mult.0.5,1,2", "Rprec_mult.0.2", "utility.2,-1,0,0", "utility.1,1,1,1",
		"11pt_avg..25,.5", "11pt_avg.1", "set_F.0.5", "set_F.2", "set_F.0", "relstring.5", "relstring.20",
		"relstring.0", "ndcg.1=3,2=9", "ndcg.0=1,1=2", "ndcg.1=0.5", "ndcg.2=-1", "ndcg.a=1,1=2",
		"G.-1=9", "G.1=2,2=5", "G.0=-2", "dcg.1=1", "ideal_dcg.2=7", "ndcg_rel.1=3", "ndcg_rel.0=0.5,1=2.5",
		"Rndcg.2=1", "Rndcg.1=2,2=1", "rbp.p=0.5", "rbp.p=0.8,1=2", "rbp.2=-1", "rbp_resid.p=0.5",
		"rbp_resid.p=0.95", "rbp_resid.p=1", "yaap.1",
	}
	bad := []string{"P.0", "P.-1", "P.2,2", "P.", "iprec_at_recall.0.5,0.5", "utility.1,2", "ndcg.1",
		"nosuch", "prefs_simp", "map_avgjg", "official.5"}
	n := 1 + r.IntN(4)
	var out []string
	for range n {
		if chance(r, 0.03) {
			out = append(out, pick(r, bad...))
		} else {
			out = append(out, pick(r, good...))
		}
	}
	return out
}

// genDiffCase draws one case.
func genDiffCase(r *rand.Rand) *diffCase {
	c := &diffCase{}
	nTopics := 1 + r.IntN(4)
	perm := r.Perm(len(diffTopicIDs))
	var qTopics, rTopics []string
	for _, i := range perm[:nTopics] {
		id := diffTopicIDs[i]
		inQ, inR := chance(r, 0.92), chance(r, 0.95)
		if inQ {
			qTopics = append(qTopics, id)
		}
		if inR {
			rTopics = append(rTopics, id)
		}
	}
	if len(qTopics) == 0 {
		qTopics = append(qTopics, diffTopicIDs[perm[0]])
	}
	if len(rTopics) == 0 {
		rTopics = append(rTopics, diffTopicIDs[perm[0]])
	}
	docs := genDocnos(r, 3+r.IntN(10))

	// qrels
	for _, t := range qTopics {
		var lines []string
		for _, d := range docs {
			if !chance(r, 0.55) {
				continue
			}
			lines = append(lines, t+sep(r)+pick(r, "0", "0", "Q0", "1")+sep(r)+d+sep(r)+genLevel(r))
		}
		if len(lines) == 0 {
			lines = append(lines, t+" 0 "+pick(r, docs...)+" "+genLevel(r))
		}
		if chance(r, 0.02) {
			lines = append(lines, pick(r, lines...))
		}
		c.qrels = append(c.qrels, lines...)
	}
	if chance(r, 0.25) {
		r.Shuffle(len(c.qrels), func(i, j int) { c.qrels[i], c.qrels[j] = c.qrels[j], c.qrels[i] })
	}
	for range r.IntN(3) {
		if chance(r, 0.2) {
			line := pick(r, "# comment", "#", "#x 0 d 1", "# a b c d")
			at := r.IntN(len(c.qrels) + 1)
			if at == len(c.qrels) && chance(r, 0.7) {
				at = r.IntN(len(c.qrels))
			}
			c.qrels = slices.Insert(c.qrels, at, line)
		}
	}
	if chance(r, 0.01) {
		c.qrels = slices.Insert(c.qrels, r.IntN(len(c.qrels)+1), pick(r, "", "  ", "1 0 d", "1 0 d 1 x"))
	}
	for i := range c.qrels {
		if chance(r, 0.03) {
			c.qrels[i] = pick(r, " ", "\t") + c.qrels[i]
		}
		if chance(r, 0.03) {
			c.qrels[i] += pick(r, " ", "\t", " \t")
		}
	}

	// run
	scoreStyle := r.IntN(4)
	runID := pick(r, "run1", "r", "BM25", "x-y")
	extra := []string{"u1", "u2", "u3", "x", "D"}
	for _, t := range rTopics {
		k := r.IntN(13)
		if chance(r, 0.05) {
			k = 0
		}
		pool := slices.Clone(docs)
		for _, e := range extra {
			if !slices.Contains(pool, e) {
				pool = append(pool, e)
			}
		}
		r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		k = min(k, len(pool))
		if k == 0 && chance(r, 0.7) {
			k = 1
		}
		for i, d := range pool[:k] {
			rid := runID
			if chance(r, 0.05) {
				rid = pick(r, "other", "run2")
			}
			line := t + sep(r) + pick(r, "Q0", "0", "q") + sep(r) + d + sep(r) + strconv.Itoa(pick(r, i+1, i, 0, 7)) +
				sep(r) + genScore(r, scoreStyle) + sep(r) + rid
			if chance(r, 0.04) {
				line += " extra fields"
			}
			c.run = append(c.run, line)
		}
		if k > 0 && chance(r, 0.03) {
			c.run = append(c.run, pick(r, c.run...))
		}
	}
	if chance(r, 0.3) {
		r.Shuffle(len(c.run), func(i, j int) { c.run[i], c.run[j] = c.run[j], c.run[i] })
	}
	for range r.IntN(3) {
		if chance(r, 0.2) {
			c.run = slices.Insert(c.run, r.IntN(len(c.run)+1), pick(r, "# comment", "#", "", "  ", "\t# indented comment", "#1 Q0 d 1 1 r"))
		}
	}
	if chance(r, 0.01) {
		c.run = slices.Insert(c.run, r.IntN(len(c.run)+1), pick(r, "1 Q0 d 1 1", "1 Q0 d"))
	}
	for i := range c.run {
		if chance(r, 0.03) {
			c.run[i] = pick(r, " ", "\t") + c.run[i]
		}
	}
	c.qrelsCRLF, c.runCRLF = chance(r, 0.12), chance(r, 0.12)
	c.qrelsNoFinalEOL, c.runNoFinalEOL = chance(r, 0.08), chance(r, 0.08)

	// command line
	attach := chance(r, 0.4)
	opt := func(name, value string) []string {
		if attach {
			return []string{name + value}
		}
		return []string{name, value}
	}
	switch {
	case chance(r, 0.08):
		c.opts = append(c.opts, []string{pick(r, "-qc", "-cq", "-qn", "-cJ", "-qJ")})
	default:
		if chance(r, 0.5) {
			c.opts = append(c.opts, []string{pick(r, "-q", "-q", "--query_eval_wanted")})
		}
		if chance(r, 0.4) {
			c.opts = append(c.opts, []string{pick(r, "-c", "-c", "--complete_rel_info_wanted")})
		}
		if chance(r, 0.08) {
			c.opts = append(c.opts, []string{"-n"})
		}
		if chance(r, 0.12) {
			c.opts = append(c.opts, []string{pick(r, "-J", "--Judged_docs_only")})
		}
	}
	if chance(r, 0.3) {
		c.opts = append(c.opts, opt("-l", pick(r, "0", "2", "2", "3", "-1", "1.5", "abc", "-5", "1")))
	}
	if chance(r, 0.2) {
		c.opts = append(c.opts, opt("-M", pick(r, "1", "2", "3", "5", "0", "1.5", "abc", "10")))
	}
	if chance(r, 0.15) {
		c.opts = append(c.opts, opt("-N", pick(r, "0", "3", "10", "100", "-5", "1.5")))
	}
	if chance(r, 0.05) {
		c.opts = append(c.opts, opt("-R", pick(r, "qrels", "qrels", "prefs")))
	}
	if chance(r, 0.05) {
		c.opts = append(c.opts, opt("-T", pick(r, "trec_results", "trec_results", "other")))
	}
	if !chance(r, 0.12) {
		for _, m := range genMeasures(r) {
			if chance(r, 0.1) {
				c.opts = append(c.opts, []string{"--measure=" + m})
			} else {
				c.opts = append(c.opts, opt("-m", m))
			}
		}
	}
	r.Shuffle(len(c.opts), func(i, j int) { c.opts[i], c.opts[j] = c.opts[j], c.opts[i] })
	if chance(r, 0.1) {
		c.optsAfterFiles = 1 + r.IntN(2)
	}
	return c
}

// diffOutcome is what one program did with a case.
type diffOutcome struct {
	stdout  []byte
	failed  bool   // exited with an error status
	crashed string // trec_eval: killed by a signal or timed out
}

func (o diffOutcome) class() string {
	if o.failed {
		return "error"
	}
	return "ok"
}

// diffRunner runs cases through both programs in one scratch directory.
type diffRunner struct {
	trecEval string
	dir      string
}

func (d *diffRunner) write(c *diffCase) (qrels, run string, err error) {
	qrels, run = filepath.Join(d.dir, "qrels"), filepath.Join(d.dir, "run")
	if err = os.WriteFile(qrels, c.qrelsBytes(), 0o644); err == nil {
		err = os.WriteFile(run, c.runBytes(), 0o644)
	}
	return qrels, run, err
}

func (d *diffRunner) reference(c *diffCase) (diffOutcome, error) {
	qrels, run, err := d.write(c)
	if err != nil {
		return diffOutcome{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, d.trecEval, c.args(qrels, run)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, io.Discard
	err = cmd.Run()
	o := diffOutcome{stdout: out.Bytes()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		o.crashed = "timed out"
	case errors.As(err, &exit) && exit.ExitCode() < 0:
		o.crashed = exit.String()
	case errors.As(err, &exit):
		o.failed = true
	case err != nil:
		return o, err
	}
	return o, nil
}

func (d *diffRunner) riskgate(c *diffCase) (diffOutcome, error) {
	qrels, run, err := d.write(c)
	if err != nil {
		return diffOutcome{}, err
	}
	// Run files (and qrels) are read in chunks, and large ones in parts
	// parsed in parallel: cut this one at every few bytes too (a choice
	// fixed by the file, for shrinking).
	// Topics are scored in parallel blocks too.
	defer func(size int, part int64, topics int) {
		runChunkSize, runPartMin, parallelTopicsMin = size, part, topics
	}(runChunkSize, runPartMin, parallelTopicsMin)
	n := len(c.runBytes())
	runChunkSize = []int{1 << 20, 1, 3, 16, 64}[n%5]
	runPartMin = []int64{4 << 20, 1, 8, 1, 32}[n/5%5]
	parallelTopicsMin = []int{32, 1, 2}[n/25%3]
	var out bytes.Buffer
	cl, err := ParseCommandLine(c.args(qrels, run))
	if err == nil {
		err = cl.Execute(nil, &out, io.Discard)
	}
	return diffOutcome{stdout: out.Bytes(), failed: err != nil}, nil
}

// knownTrecEvalBug names the trec_eval bug a case runs into, if it is one
// of those that make trec_eval crash or read memory it never wrote
// (../shared/tools/README.md); such cases are skipped.
func knownTrecEvalBug(c *diffCase) string {
	// get_qrels.c skips a '#' line and parses the next one without looking:
	// a comment as the last line makes it read past the buffer.
	after := false
	for i, l := range c.qrels {
		if strings.HasPrefix(l, "#") && !after {
			if i == len(c.qrels)-1 {
				return "qrels ending in a comment line (get_qrels.c reads past the buffer)"
			}
			after = true
			continue
		}
		after = false
	}
	// get_trec_results.c: a run file of blank and comment lines leaves its
	// one topic's id and run id uninitialised (riskgate refuses it).
	if len(c.runBytes()) > 0 && !slices.ContainsFunc(c.run, func(l string) bool {
		l = strings.TrimLeft(l, " \t\v\f\r")
		return l != "" && l[0] != '#'
	}) {
		return "run without data lines (get_trec_results.c reads an uninitialised topic and run id)"
	}
	cl, err := ParseCommandLine(c.args("qrels", "run"))
	if err != nil {
		return ""
	}
	// dcg, ideal_dcg and ndcg share one parameter block (m_ndcg.c): with
	// parameters for one and another of them requested, cleanup frees the
	// parameters twice.
	ms, err := ParseMeasures(cl.Measures)
	if err != nil {
		return ""
	}
	sharing, params := 0, false
	for _, m := range ms.list {
		switch m.fam.name {
		case "dcg", "ideal_dcg", "ndcg":
			sharing++
			params = params || len(m.pairs) > 0 || m.names[0] != m.fam.name
		}
	}
	if sharing > 1 && params {
		return "parameters for one of dcg, ideal_dcg, ndcg with another requested (m_ndcg.c shares their parameters)"
	}
	if rbpUninitialised && slices.ContainsFunc(ms.list, func(m *Measure) bool { return m.fam.name == "rbp" }) {
		return "rbp with trec_eval built without -ftrivial-auto-var-init (m_rbp.c reads min and max uninitialised)"
	}
	if relLevelsAllocation(c, cl, ms) == relLevelsCrash {
		return "a topic whose judgments are all below -1 after another topic (form_res_rels.c clears a negative length)"
	}
	return ""
}

type relLevelsOutcome int

const (
	relLevelsFine  relLevelsOutcome = iota
	relLevelsFails                  // trec_eval stops: "Can't calculate measure"
	relLevelsStale                  // the previous topic's level counts are used
	relLevelsCrash                  // memset with a negative length
)

// relLevelsAllocation replays form_res_rels.c's allocation of rel_levels,
// max_rel + 1 longs per topic through te_chk_and_malloc, which hands back
// the previous block when it is large enough, and so NULL, which trec_eval
// takes for a failure, while nothing has been allocated yet: a topic whose
// judgments are all negative (max_rel + 1 ≤ 0) stops trec_eval when it is
// the first topic evaluated; later, with max_rel = −1 it is scored with
// the previous topic's level counts (nothing is cleared or counted, and
// num_rel_levels keeps its value), and with max_rel < −1 trec_eval crashes
// (memset of max_rel + 1 < 0 longs).
func relLevelsAllocation(c *diffCase, cl *CommandLine, ms *Measures) relLevelsOutcome {
	if !ms.needRanking() {
		return relLevelsFine
	}
	q, err := ReadQrels(bytes.NewReader(c.qrelsBytes()), "qrels")
	if err != nil {
		return relLevelsFine
	}
	run, err := ReadRun(bytes.NewReader(c.runBytes()), "run")
	if err != nil {
		return relLevelsFine
	}
	var bound int64
	outcome := relLevelsFine
	for _, qt := range q.topics {
		if run.topics.lookup([]byte(qt.id)) < 0 && !cl.Complete {
			return outcome // trec_eval v10 stops here anyway
		}
		maxRel := int64(qt.judged[0].rel)
		for _, j := range qt.judged {
			maxRel = max(maxRel, int64(j.rel))
		}
		switch needed := maxRel + 1; {
		case needed > bound:
			bound += needed
		case bound == 0:
			return relLevelsFails
		case needed < 0:
			return relLevelsCrash
		case needed == 0:
			outcome = relLevelsStale
		}
	}
	return outcome
}

// deliberateDifference names the documented difference a case runs into,
// if any, and whether it is one where trec_eval stops with an error that
// riskgate does not reproduce (then trec_eval must fail, and riskgate must
// print what trec_eval printed before it stopped).
func deliberateDifference(c *diffCase) (why string, stops bool) {
	cl, err := ParseCommandLine(c.args("qrels", "run"))
	if err != nil {
		return "", false
	}
	ms, err := ParseMeasures(cl.Measures)
	if err != nil {
		return "", false
	}
	switch relLevelsAllocation(c, cl, ms) {
	case relLevelsFails:
		return "trec_eval stops on a first topic without a judgment ≥ 0 (docs/eval.md)", true
	case relLevelsStale:
		return "trec_eval scores a later topic without a judgment ≥ 0 with the previous topic's level counts (docs/eval.md)", false
	}
	return "", false
}

// buildTrecEval compiles ../shared/tools/trec_eval in a temporary directory
// and returns the program's path. The source is compiled unmodified with
// its own Makefile; -ftrivial-auto-var-init=zero (GCC 12 and later) makes the
// automatic variables it reads uninitialised (rbp's min and max, m_rbp.c)
// zero, the value riskgate documents, instead of stack garbage. A compiler
// without the option builds it plainly, and rbp is then not compared
// (rbpUninitialised).
func buildTrecEval(t *testing.T) string {
	t.Helper()
	src := shared.Path(t, "tools/trec_eval")
	for _, tool := range []string{"make", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			shared.Skip(t, shared.MissingTrecEval, tool+" is not installed; skipping the differential test against trec_eval")
		}
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	build := func(cc string) ([]byte, error) {
		cmd := exec.Command("make", "-s", "-j2", "CC="+cc, "trec_eval")
		cmd.Dir = dir
		return cmd.CombinedOutput()
	}
	rbpUninitialised = false
	if _, err := build("gcc -ftrivial-auto-var-init=zero"); err != nil {
		rbpUninitialised = true
		t.Logf("gcc lacks -ftrivial-auto-var-init=zero (%v); building trec_eval without it, and not comparing rbp", err)
		if out, err := build("gcc"); err != nil {
			t.Fatalf("building trec_eval: %v\n%s", err, out)
		}
	}
	return filepath.Join(dir, "trec_eval")
}

// rbpUninitialised is set when trec_eval was built without zeroing its
// uninitialised variables: its rbp then depends on stack garbage.
var rbpUninitialised bool

func envInt(t *testing.T, name string, def uint64) uint64 {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: not a non-negative integer", name, s)
	}
	return v
}

// diffSeed returns RISKGATE_DIFF_SEED, or a fresh seed.
func diffSeed(t *testing.T) uint64 {
	if os.Getenv("RISKGATE_DIFF_SEED") != "" {
		return envInt(t, "RISKGATE_DIFF_SEED", 0)
	}
	return uint64(time.Now().UnixNano()) % 1_000_000_007
}

// TestDifferentialTrecEval compares riskgate eval with trec_eval v10 on
// random inputs (see the top of this file). Reference: trec_eval built from
// ../shared/tools/trec_eval; tolerance: none (stdout byte for byte, exit
// status 0 or not).
func TestDifferentialTrecEval(t *testing.T) {
	t.Parallel()
	if testing.Short() && os.Getenv("RISKGATE_DIFF_CASES") == "" {
		t.Skip("slow: builds trec_eval with gcc and runs both programs on random inputs (6 CPU-seconds); the full suite runs it, " +
			"RISKGATE_DIFF_CASES=N runs N cases with -short; -short compares with trec_eval's recorded outputs (TestGoldenDatasets, TestUpstreamQuicktest, TestBehaviours)")
	}
	bin := buildTrecEval(t)
	seed := diffSeed(t)
	want := envInt(t, "RISKGATE_DIFF_CASES", 500)
	t.Logf("seed %d (RISKGATE_DIFF_SEED=%d reproduces this run), %d cases", seed, seed, want)
	d := &diffRunner{trecEval: bin, dir: t.TempDir()}
	r := rand.New(rand.NewPCG(seed, 0x7265635f6576616c))
	skipped, deliberate := map[string]int{}, map[string]int{}
	var compared, mismatches, failures int
	start := time.Now()
	for compared < int(want) {
		c := genDiffCase(r)
		if bug := knownTrecEvalBug(c); bug != "" {
			skipped[bug]++
			continue
		}
		ref, err := d.reference(c)
		if err != nil {
			t.Fatal(err)
		}
		if ref.crashed != "" {
			skipped["trec_eval crashed ("+ref.crashed+")"]++
			t.Logf("trec_eval crashed (%s) on a case outside the known bugs:\n%s", ref.crashed, c)
			continue
		}
		got, err := d.riskgate(c)
		if err != nil {
			t.Fatal(err)
		}
		if why, stops := deliberateDifference(c); why != "" {
			deliberate[why]++
			if stops && (!ref.failed || !bytes.HasPrefix(got.stdout, ref.stdout)) {
				t.Errorf("case classified %q, but trec_eval did not stop, or riskgate did not print what it printed first:\n%s", why, c)
			}
			continue
		}
		compared++
		if ref.failed {
			failures++
		}
		if diffAgree(got, ref) {
			continue
		}
		mismatches++
		if mismatches > 10 {
			continue
		}
		small := shrinkDiffCase(t, d, c)
		ref, _ = d.reference(small)
		got, _ = d.riskgate(small)
		t.Errorf("mismatch %d (seed %d), shrunk to:\n%s\ntrec_eval (%s):\n%sriskgate (%s):\n%s%s",
			mismatches, seed, small, ref.class(), ref.stdout, got.class(), got.stdout, diffFirst(string(got.stdout), string(ref.stdout)))
	}
	t.Logf("%d cases compared (%d where both fail), %d mismatches; skipped (trec_eval bugs): %s; deliberate differences: %s; %.1fs",
		compared, failures, mismatches, countList(skipped), countList(deliberate), time.Since(start).Seconds())
	if mismatches > 0 {
		t.Errorf("%d of %d cases differ from trec_eval (seed %d)", mismatches, compared, seed)
	}
}

// countList formats counts by reason, most frequent first.
func countList(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return m[b] - m[a] })
	var out []string
	for _, k := range keys {
		out = append(out, fmt.Sprintf("%d × %s", m[k], k))
	}
	return strings.Join(out, "; ")
}

func diffAgree(got, ref diffOutcome) bool {
	return got.failed == ref.failed && bytes.Equal(got.stdout, ref.stdout)
}

// shrinkDiffCase removes lines and options from c while it still
// disagrees (trec_eval not crashing), until no single removal keeps it so.
func shrinkDiffCase(t *testing.T, d *diffRunner, c *diffCase) *diffCase {
	bad := func(x *diffCase) bool {
		if why, _ := deliberateDifference(x); why != "" || knownTrecEvalBug(x) != "" {
			return false
		}
		ref, err := d.reference(x)
		if err != nil || ref.crashed != "" {
			return false
		}
		got, err := d.riskgate(x)
		return err == nil && !diffAgree(got, ref)
	}
	for changed := true; changed; {
		changed = false
		try := func(x *diffCase) {
			if bad(x) {
				c, changed = x, true
			}
		}
		for i := len(c.opts) - 1; i >= 0; i-- {
			if i < len(c.opts) {
				x := c.clone()
				x.opts = slices.Delete(x.opts, i, i+1)
				try(x)
			}
		}
		for i := len(c.run) - 1; i >= 0; i-- {
			if i < len(c.run) {
				x := c.clone()
				x.run = slices.Delete(x.run, i, i+1)
				try(x)
			}
		}
		for i := len(c.qrels) - 1; i >= 0; i-- {
			if i < len(c.qrels) {
				x := c.clone()
				x.qrels = slices.Delete(x.qrels, i, i+1)
				try(x)
			}
		}
		for _, f := range []func(*diffCase){
			func(x *diffCase) { x.qrelsCRLF = false },
			func(x *diffCase) { x.runCRLF = false },
			func(x *diffCase) { x.qrelsNoFinalEOL = false },
			func(x *diffCase) { x.runNoFinalEOL = false },
			func(x *diffCase) { x.optsAfterFiles = 0 },
		} {
			x := c.clone()
			f(x)
			if !sameCase(x, c) {
				try(x)
			}
		}
	}
	return c
}

func sameCase(a, b *diffCase) bool {
	return a.qrelsCRLF == b.qrelsCRLF && a.runCRLF == b.runCRLF && a.qrelsNoFinalEOL == b.qrelsNoFinalEOL &&
		a.runNoFinalEOL == b.runNoFinalEOL && a.optsAfterFiles == b.optsAfterFiles &&
		slices.Equal(a.qrels, b.qrels) && slices.Equal(a.run, b.run)
}
