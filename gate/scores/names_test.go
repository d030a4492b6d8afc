package scores

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// name512 is a longest valid name: 256 two-byte characters.
var name512 = strings.Repeat("é", MaxNameBytes/2)

// nameCase is one file holding the name NAME, and where the name is: the
// line of the cell that names it (line), and the line it is on (on; 0 when
// the same).
type nameCase struct {
	file, text string
	line, on   int
}

// nameCases put a name in every place an input names a system, topic or measure.
var nameCases = []nameCase{
	{"long-system.csv", "system,topic,score\nA,1,0.5\nNAME,1,0.5\n", 3, 0},
	{"long-topic.csv", "system,topic,score\nA,1,0.5\nA,NAME,0.5\n", 3, 0},
	{"long-measure.csv", "system,topic,measure,score\nA,1,map,0.5\nA,1,NAME,0.5\n", 3, 0},
	{"wide-header.csv", "topic,A,NAME\n1,0.5,0.5\n", 1, 0},
	{"wide-topic.csv", "topic,A\n1,0.5\nNAME,0.5\n", 3, 0},
	{"system.jsonl", `{"system":"A","topic":"1","score":0.5}` + "\n" + `{"system":"NAME","topic":"1","score":0.5}` + "\n", 2, 0},
	{"topic.jsonl", `{"system":"A","topic":"NAME","score":0.5}` + "\n", 1, 0},
	{"measure.jsonl", `{"system":"A","topic":"1","measure":"map","score":0.5}` + "\n" + `{"system":"A","topic":"1","measure":"NAME","score":0.5}` + "\n", 2, 0},
	{"runid.txt", "map\t1\t0.5\nrunid\tall\tNAME\n", 1, 2}, // the run's first cell
	{"topic.txt", "map\t1\t0.5\nmap\tNAME\t0.5\n", 2, 0},
	{"measure.txt", "map\t1\t0.5\nNAME\t1\t0.5\n", 2, 0},
	{"runid.run", "q1 Q0 d1 1 2 NAME\n", 1, 0},
	{"topic.run", "NAME Q0 d1 1 2 r\n", 1, 0}, // scored only when judged: see the qrels
}

func loadName(t *testing.T, c nameCase, name string) error {
	t.Helper()
	text := strings.ReplaceAll(c.text, "NAME", name)
	qrels := "q1 0 d1 1\n" + name + " 0 d1 1\n"
	inDir(t, map[string]string{c.file: text, "qrels": qrels})
	opt := LoadOptions{Qrels: "qrels"}
	if strings.Contains(c.file, "measure") {
		opt.Measures = []string{"map"}
	}
	_, err := Load([]string{c.file}, opt)
	return err
}

// Reference: issue 17, item 7: a name longer than 512 bytes is an input error.
func TestNamesLongerThan512Bytes(t *testing.T) {
	for _, c := range nameCases {
		t.Run(c.file, func(t *testing.T) {
			if err := loadName(t, c, name512); err != nil {
				t.Fatalf("a name of %d bytes: %v", len(name512), err)
			}
			err := loadName(t, c, name512+"x")
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.File != c.file || ie.Line != c.line || !strings.Contains(ie.Msg, "of 513 bytes") || !strings.Contains(ie.Msg, "expected at most 512") {
				t.Errorf("error %v; want %s:%d naming 513 bytes and the bound", err, c.file, c.line)
			}
			if len(err.Error()) > 300 {
				t.Errorf("message of %d bytes quotes the name whole: %s", len(err.Error()), err)
			}
		})
	}
}

// Reference: issue 17, item 8: invalid UTF-8 in a name is an input error
// (it would become U+FFFD in JSON, and two distinct names could collide).
func TestNamesInvalidUTF8(t *testing.T) {
	for _, c := range nameCases {
		t.Run(c.file, func(t *testing.T) {
			err := loadName(t, c, "run\xff1")
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.File != c.file || ie.Line != c.line || !strings.Contains(ie.Msg, "not valid UTF-8") {
				t.Errorf("error %v; want %s:%d saying the name is not valid UTF-8", err, c.file, c.line)
			}
		})
	}
}

func TestJSONStringsAndKeys(t *testing.T) {
	row := func(s string) string { return `{"system":` + s + `,"topic":"1","score":0.5}` }
	ok := map[string]string{
		`"\ud83d\ude00"`:   "\U0001F600", // a surrogate pair is one character
		`"tab\tand\u00e9"`: "tab\tandé",
		`"\/\\\"x"`:        `/\"x`,
		`"plain"`:          "plain",
	}
	for in, want := range ok {
		inDir(t, map[string]string{"a.jsonl": row(in)})
		tab, err := Load([]string{"a.jsonl"}, LoadOptions{})
		if err != nil || tab.Systems[0] != want {
			t.Errorf("%s: %v, want system %q", in, err, want)
		}
	}
	bad := map[string]string{
		row(`"\ud800"`):        `a.jsonl:1: "system" holds the lone UTF-16 surrogate \uD800, which is not a character`,
		row(`"\ude00x"`):       `a.jsonl:1: "system" holds the lone UTF-16 surrogate \uDE00, which is not a character`,
		row("\"a\xfe\""):       `a.jsonl:1: "system" is not valid UTF-8 (byte 2 of the string)`,
		row(`"a\u00e9\ud800"`): `a.jsonl:1: "system" holds the lone UTF-16 surrogate \uD800, which is not a character`,
		"{\"measure\":\"m\xff\",\"system\":\"A\",\"topic\":\"1\",\"score\":0.5}": `a.jsonl:1: "measure" is not valid UTF-8 (byte 2 of the string); expected a non-empty string`,
		// Duplicate keys: the last would win silently in encoding/json.
		`{"system":"A","topic":"1","score":0.5,"score":0.9}`:         `a.jsonl:1: key "score" is given twice; expected ` + jsonHelp,
		`{"system":"A","System":"B","topic":"1","score":0.5}`:        `a.jsonl:1: keys "system" and "System" both give the system; expected ` + jsonHelp,
		`{"x":1,"system":"A","topic":"1","x":2,"score":0.5}`:         `a.jsonl:1: key "x" is given twice; expected ` + jsonHelp,
		`{"s\u0079stem":"A","system":"B","topic":"1","score":1}`:     `a.jsonl:1: key "system" is given twice; expected ` + jsonHelp,
		"{\"k\xff\":1,\"system\":\"A\",\"topic\":\"1\",\"score\":1}": `a.jsonl:1: key "k\xff" is not valid UTF-8 (byte 2 of the string); expected ` + jsonHelp,
	}
	for in, want := range bad {
		inDir(t, map[string]string{"a.jsonl": in})
		_, err := Load([]string{"a.jsonl"}, LoadOptions{})
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error\n%v\nwant\n%s", in, err, want)
		}
	}
	// Keys of nested objects are not riskgate's to judge.
	inDir(t, map[string]string{"a.jsonl": `{"meta":{"a":1,"a":[{"b":"}"}]},"system":"A","topic":"1","score":0.5}`})
	if _, err := Load([]string{"a.jsonl"}, LoadOptions{}); err != nil {
		t.Errorf("nested duplicate keys: %v", err)
	}
	// Many keys switch the duplicate check to a map.
	var b strings.Builder
	b.WriteString(`{"system":"A","topic":"1","score":0.5`)
	for i := range 40 {
		b.WriteString(`,"k` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":1`)
	}
	inDir(t, map[string]string{"a.jsonl": b.String() + `,"kzb":2}`})
	if _, err := Load([]string{"a.jsonl"}, LoadOptions{}); err != nil {
		t.Errorf("40 distinct keys: %v", err)
	}
	inDir(t, map[string]string{"a.jsonl": b.String() + `,"kab":2}`})
	if _, err := Load([]string{"a.jsonl"}, LoadOptions{}); err == nil || !strings.Contains(err.Error(), `key "kab" is given twice`) {
		t.Errorf("a duplicate among 40 keys: %v", err)
	}
}

// Reference: issue 17, item 7: a 70 MB name cost 2.57 GB before its error.
// A line (a CSV record) longer than maxLine is refused once maxLine bytes of
// it are read, in every format, whatever the line's length: loading a file
// with a 48 MB name allocates no more than one of the same size with a 24 MB
// name (the readers grow their line buffers by append, allocating a few
// times maxLine in all; a line read whole would add twice the 24 MB
// difference at least). The files are of one size because gate/trec sizes
// its tables from the file's size.
func TestLongLineRefusedCheaply(t *testing.T) {
	if testing.Short() {
		t.Skip("writes files of 24 and 48 MB; not with -short")
	}
	alloc := func(t *testing.T, c nameCase, size int) uint64 {
		t.Helper()
		// Blank lines after the name, never read, make the sizes equal.
		text := strings.ReplaceAll(c.text, "NAME", strings.Repeat("x", size)) + strings.Repeat("\n", 48<<20-size)
		inDir(t, map[string]string{c.file: text, "qrels": "q1 0 d1 1\n"})
		// No measure asked for: the inputs' own (map for runs); asking for one
		// of a file that names none is refused at its header, before the long line.
		opt := LoadOptions{Qrels: "qrels"}
		if strings.HasSuffix(c.file, ".run") {
			opt.Format = Run // detection cannot tell a first line cut at 64 KB
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Load([]string{c.file}, opt)
		runtime.ReadMemStats(&after)
		line := c.line
		if c.on > 0 {
			line = c.on
		}
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.File != c.file || ie.Line != line || !strings.Contains(ie.Msg, "longer than 16 MB") {
			t.Errorf("error %.300v; want %s:%d, longer than 16 MB", err, c.file, line)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	for _, c := range nameCases {
		t.Run(c.file, func(t *testing.T) {
			small, large := alloc(t, c, 24<<20), alloc(t, c, 48<<20)
			if large > small+4<<20 || large > 12*maxLine {
				t.Errorf("allocated %d MB for a 24 MB name, %d MB for a 48 MB one; want the same, at most %d MB", small>>20, large>>20, 12*maxLine>>20)
			}
		})
	}
	// The qrels file too.
	inDir(t, map[string]string{"r.run": "q1 Q0 d1 1 2 r\n", "qrels": "q1 0 d1 1\n" + strings.Repeat("x", 24<<20) + " 0 d1 1\n"})
	_, err := Load([]string{"r.run"}, LoadOptions{Qrels: "qrels"})
	if err == nil || err.Error() != "qrels:2: line longer than 16 MB; expected one record per line" {
		t.Errorf("qrels: %.300v", err)
	}
	os.Remove("qrels")
}
