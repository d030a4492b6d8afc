package pool

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/internal/inputerr"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// hardScores are floats whose decimal spelling is easy to get wrong: the
// shortest round-trip form is needed for each to read back as the same bits.
var hardScores = []float64{
	0, math.Copysign(0, -1), 0.1, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, 1, -1, 0.30000000000000004,
	math.SmallestNonzeroFloat64, 4.9406564584124654e-324, 2.2250738585072014e-308, 2.225073858507201e-308,
	math.MaxFloat64, -math.MaxFloat64, 1e21, 1e-7, 123456789012345680, 0.1234567890123456789,
	math.Nextafter(0.5, 1), math.Nextafter(0.5, 0), 9007199254740993,
}

// testEntry makes an entry of nTopics topics and the given measures, its
// scores drawn from rng and hardScores.
func testEntry(rng *rand.Rand, system string, measures []string, nTopics int) *Entry {
	e := &Entry{
		System: system, Label: "v1.0 \"quoted\"", Stored: t0,
		Qrels:   Qrels{SHA256: strings.Repeat("ab", 32), Path: "qrels.txt"},
		History: []Event{{At: t0, Action: Recorded, Role: Artifact, Label: "v1.0"}},
	}
	for t := range nTopics {
		e.Topics = append(e.Topics, fmt.Sprintf("%d", 301+t))
	}
	for range measures {
		row := make([]float64, nTopics)
		for t := range row {
			if rng.IntN(3) == 0 {
				row[t] = hardScores[rng.IntN(len(hardScores))]
			} else {
				row[t] = rng.Float64()
			}
		}
		e.Scores = append(e.Scores, row)
	}
	e.Measures = append([]string(nil), measures...)
	return e
}

// sameEntry compares two entries, scores by their bits.
func sameEntry(t *testing.T, got, want *Entry) {
	t.Helper()
	g, w := *got, *want
	g.Scores, w.Scores = nil, nil
	g.Run, w.Run = nil, nil
	if fmt.Sprintf("%#v", g) != fmt.Sprintf("%#v", w) {
		t.Fatalf("entry differs:\n got %#v\nwant %#v", g, w)
	}
	if (got.Run == nil) != (want.Run == nil) || got.Run != nil && (got.Run.Kept != want.Run.Kept || got.Run.Path != want.Run.Path || got.Run.SHA256 != want.Run.SHA256) {
		t.Fatalf("run %+v, want %+v", got.Run, want.Run)
	}
	for m := range want.Scores {
		for i := range want.Scores[m] {
			if !sameScore(got.Scores[m][i], want.Scores[m][i]) {
				t.Fatalf("%s on %s: %v (bits %x), want %v (bits %x)", want.Measures[m], want.Topics[i],
					got.Scores[m][i], math.Float64bits(got.Scores[m][i]), want.Scores[m][i], math.Float64bits(want.Scores[m][i]))
			}
		}
	}
}

// Every score, name and field reads back exactly, and the file written
// again is the same bytes.
func TestEntryRoundTripBitForBit(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 29))
	names := []string{"bm25", "Chal. 4", "名前 with spaces", "tab\there", "new\nline", "quote\"s and \\", "\u202eevil", "x\x00y", strings.Repeat("é", 256)}
	for i, name := range names {
		e := testEntry(rng, name, []string{"map", "ndcg_cut_10", "P_5"}, 30+i)
		e.Topics[0] = names[(i+1)%len(names)] // topic ids are names too
		e.Scores[1][2] = math.NaN()           // a measure without a score on a topic
		e.Run = &Run{Kept: i%2 == 0, Path: "runs/" + name, SHA256: strings.Repeat("0f", 32)}
		if e.Run.Kept {
			e.Run.Path = keptRunPath(name)
		}
		e.History = append(e.History, Event{At: t0.Add(time.Hour), Action: Rescored, Label: "new qrels"},
			Event{At: t0.Add(2 * time.Hour), Action: Recorded, Role: Challenger, Label: name})
		data, err := e.encode()
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeEntry("x.entry", data)
		if err != nil {
			t.Fatalf("%q: %v\n%s", name, err, data)
		}
		sameEntry(t, got, e)
		again, _ := got.encode()
		if !bytes.Equal(again, data) {
			t.Errorf("%q: written again, the bytes differ", name)
		}
	}
	for _, v := range hardScores {
		if got := formatScore(v); got == "-" {
			t.Errorf("%v written as missing", v)
		}
	}
}

// The example in docs/pool.md is a valid entry (its digest included): the
// documentation shows the format as it is.
func TestEntryDocExample(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "pool.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"entry", "lineage"} {
		start := "<!-- pool-example: " + name + " -->\n```text\n"
		_, rest, ok := strings.Cut(string(doc), start)
		if !ok {
			t.Fatalf("docs/pool.md has no %q example", name)
		}
		text, _, _ := strings.Cut(rest, "```\n")
		if name == "entry" {
			e, err := decodeEntry("docs/pool.md", []byte(text))
			if err != nil {
				t.Fatal(err)
			}
			if FileName(e.System) != "bm25-"+hexName(e.System) {
				t.Errorf("file name %s", FileName(e.System))
			}
		} else if _, err := decodeLineage("docs/pool.md", []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
}

func hexName(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:hashLen] + entryExt
}

// redigest replaces the last line of a pool file with the digest of what
// precedes it, so that a test reaches the parser behind the checksum.
func redigest(data []byte) []byte {
	body := data[:bytes.LastIndex(data[:len(data)-1], []byte("\n"))+1]
	return withDigest(string(body))
}

// Each kind of damage is refused, with the file and the line.
func TestEntryCorruption(t *testing.T) {
	t.Parallel()
	e := testEntry(rand.New(rand.NewPCG(2, 29)), "bm25", []string{"map"}, 5)
	good, err := e.encode()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")
	edit := func(i int, line string) []byte {
		l := append([]string(nil), lines...)
		l[i] = line
		return []byte(strings.Join(l, ""))
	}
	topicLine := len(lines) - 4 // 1-based number of the fourth-last line: a topic
	cases := []struct {
		name string
		data []byte
		line int
		want string
	}{
		{"checksum", []byte(strings.Replace(string(good), "topic \"301\" ", "topic \"301\" 1", 1)), len(lines) - 1, "checksum mismatch"},
		{"truncated mid-line", good[:len(good)/2], strings.Count(string(good[:len(good)/2]), "\n") + 1, "truncated"},
		{"truncated at a line", []byte(strings.Join(lines[:8], "")), 8, "truncated"},
		{"version", redigest(edit(0, "riskgate-pool-entry 2\n")), 1, "format version 2; this riskgate reads version 1"},
		{"not an entry", []byte("system,topic,score\n"), 1, "not a riskgate pool file"},
		{"empty", nil, 0, "empty file"},
		{"CRLF", []byte(strings.ReplaceAll(string(good), "\n", "\r\n")), 1, "CR LF"},
		{"bad score", redigest(edit(topicLine-1, "topic \"303\" abc\n")), topicLine, `score of "map" "abc" is not a finite number`},
		{"NaN score", redigest(edit(topicLine-1, "topic \"303\" NaN\n")), topicLine, "not a finite number"},
		{"score not canonical", redigest(edit(topicLine-1, "topic \"303\" 0.50\n")), topicLine, "not written as riskgate writes it (0.5)"},
		{"hex score", redigest(edit(topicLine-1, "topic \"303\" 0x1p-1\n")), topicLine, "not written as riskgate writes it"},
		{"missing score", redigest(edit(topicLine-1, "topic \"303\"\n")), topicLine, "ends after 2 fields"},
		{"extra score", redigest(edit(topicLine-1, "topic \"303\" 0.5 0.5\n")), topicLine, "expected the end of the line"},
		{"unquoted name", redigest(edit(1, "system bm25\n")), 2, "expected a double-quoted string"},
		{"name quoted otherwise", redigest(edit(1, "system \"\\x62m25\"\n")), 2, "not quoted as riskgate quotes it"},
		{"bad time", redigest(edit(3, "stored 2026-01-02 03:04:05\n")), 4, "expected a UTC time"},
		{"bad digest", redigest(edit(4, "qrels ABAB \"q\"\n")), 5, "64 lower-case hex digits"},
		{"topic set", redigest(edit(topicLine-1, "topic \"999\" 0.5\n")), 6, "topic set"},
		{"duplicate topic", redigest(edit(topicLine-1, "topic \"301\" 0.5\n")), topicLine, "again (first on line"},
		{"two spaces", redigest(edit(2, "label  \"v1.0\"\n")), 3, "expected a double-quoted string"},
		{"missing history", redigest([]byte(strings.Join(append(lines[:7:7], lines[8:]...), ""))), 8, `expected "recorded"`},
		{"bad role", redigest(edit(7, "recorded 2026-01-02T03:04:05Z boss \"v1.0\"\n")), 8, "role \"boss\""},
		{"kept run elsewhere", redigest(edit(6, "run kept "+strings.Repeat("0f", 32)+" \"../../etc/passwd\"\n")), 7, "the pool's copy"},
		{"invalid UTF-8", redigest(edit(2, "label \"\\xff\"\n")), 3, "is not valid UTF-8"},
	}
	for _, c := range cases {
		_, err := decodeEntry("pool/systems/bm25.entry", c.data)
		var ie *inputerr.Error
		if !errors.As(err, &ie) {
			t.Errorf("%s: %v, want an *inputerr.Error", c.name, err)
			continue
		}
		if ie.File != "pool/systems/bm25.entry" || ie.Line != c.line || !strings.Contains(ie.Msg, c.want) {
			t.Errorf("%s: %q, want line %d and %q", c.name, err, c.line, c.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: the message is not one line: %q", c.name, err)
		}
	}
	if _, err := decodeEntry("x", good); err != nil {
		t.Fatalf("the undamaged entry: %v", err)
	}
}

func TestLineageRoundTripAndCorruption(t *testing.T) {
	t.Parallel()
	reigns := []Reign{{"bm25", t0, "v1"}, {"new \"one\"", t0.Add(time.Hour), ""}, {"bm25", t0.Add(2 * time.Hour), "rollback"}}
	data, err := encodeLineage(reigns)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeLineage("lineage", data)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(reigns) {
		t.Fatalf("%v %v, want %v", got, err, reigns)
	}
	bad := bytes.Replace(data, []byte("v1"), []byte("v2"), 1)
	if _, err := decodeLineage("pool/lineage", bad); err == nil || !strings.HasPrefix(err.Error(), "pool/lineage:5: checksum mismatch") {
		t.Errorf("edited lineage: %v", err)
	}
	empty, _ := encodeLineage(nil)
	if got, err := decodeLineage("lineage", empty); err != nil || len(got) != 0 {
		t.Errorf("empty lineage: %v %v", got, err)
	}
}

func TestTopicSetSHA256(t *testing.T) {
	t.Parallel()
	a := TopicSetSHA256([]string{"301", "302", "303"})
	if b := TopicSetSHA256([]string{"303", "301", "302", "301"}); a != b {
		t.Error("order or repetition changed the topic set's fingerprint")
	}
	for _, other := range [][]string{{"301", "302"}, {"301", "302", "304"}, {"301", "302", "303", "304"}, {"301\n302", "303"}} {
		if TopicSetSHA256(other) == a {
			t.Errorf("%q has the fingerprint of 301-303", other)
		}
	}
	// The definition in docs/pool.md, computed by hand: "301"\n"302"\n"303"\n.
	sum := sha256.Sum256([]byte("\"301\"\n\"302\"\n\"303\"\n"))
	if hex.EncodeToString(sum[:]) != a {
		t.Error("TopicSetSHA256 is not the documented digest")
	}
}

func TestFileName(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"bm25":               "bm25-",
		"Chal. 4":            "Chal_4-",
		"../../etc/passwd":   "etc_passwd-",
		"CON":                "CON-",
		"名前":                 "system-",
		"a/b\\c:d*e?f\"g<h>": "a_b_c_d_e_f_g_h-",
	}
	for name, prefix := range cases {
		got := FileName(name)
		if !strings.HasPrefix(got, prefix) || got != prefix+hexName(name) {
			t.Errorf("FileName(%q) = %q, want %s<hash>%s", name, got, prefix, entryExt)
		}
	}
	seen := map[string]string{}
	for _, name := range []string{"BM25", "bm25", "bm25 ", "bm25_", "bm 25", "bm_25", strings.Repeat("a", 500), strings.Repeat("a", 501)} {
		f := FileName(name)
		lower := strings.ToLower(f)
		if other, dup := seen[lower]; dup {
			t.Errorf("%q and %q share the file name %s (on a case-insensitive file system)", name, other, f)
		}
		seen[lower] = name
		if len(f) > slugLen+1+hashLen+len(entryExt) {
			t.Errorf("FileName(%q) is %d bytes long", name, len(f))
		}
		for _, c := range f {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_.", c)) {
				t.Errorf("FileName(%q) = %q holds %q", name, f, c)
			}
		}
	}
}
