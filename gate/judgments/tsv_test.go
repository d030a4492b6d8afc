package judgments

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/golden"
	"github.com/riskgate/riskgate/internal/inputerr"
)

// The worklist file of the small pool (golden: testdata/small.tsv, read
// with -update after a change), read back: every label blank.
func TestWriteTSV(t *testing.T) {
	t.Parallel()
	q, systems := smallPool(t)
	wl, err := BuildWorklist(systems, q, "ndcg_cut.3", trec.DefaultOptions(), 3)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteTSV(&b, wl); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "small.tsv"), b.Bytes())
	f, err := ReadTSV(bytes.NewReader(b.Bytes()), "small.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if f.Blank != 3 || len(f.Judgments) != 0 {
		t.Errorf("read back: %d blank, %d judgments; want 3, 0", f.Blank, len(f.Judgments))
	}
}

// A judge's file: labels filled in (some blank), columns reordered, an
// extra column, CR LF line ends, a byte-order mark, blank and comment
// lines, spaces around fields; applied to the qrels, a label replaces the
// qrels' judgment of the document (d: pooled, -1, becomes 2) and adds the
// others.
func TestReadTSVAndApply(t *testing.T) {
	t.Parallel()
	q, _ := smallPool(t)
	text := "\uFEFF# a comment\r\n\r\nnotes\tlabel\tdocument\ttopic\r\n" +
		"looks good\t2\td\t1\r\n" +
		"\t \tx\t1\r\n" +
		"\t0\ty\t2\r\n" +
		"maybe\t 1 \tz\t1\r\n"
	f, err := ReadTSV(strings.NewReader(text), "filled.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(f.Judgments, f.Blank); got != "[{1 d 2 4} {2 y 0 6} {1 z 1 7}] 1" {
		t.Errorf("read: %s", got)
	}
	merged, err := f.Apply(q)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range merged.Judgments() {
		got = append(got, fmt.Sprintf("%s %s %d", j.Topic, j.Doc, j.Level))
	}
	if strings.Join(got, "; ") != "1 a 2; 1 b 1; 1 c 0; 1 d 2; 1 z 1; 2 a 1; 2 y 0" {
		t.Errorf("applied: %s", strings.Join(got, "; "))
	}
	if merged.Name != "qrels + filled.tsv" {
		t.Errorf("merged name %q", merged.Name)
	}
	// A later worklist overrides an earlier one.
	second, err := ReadTSV(strings.NewReader("topic\tdocument\tlabel\n1\td\t0\n"), "second.tsv")
	if err != nil {
		t.Fatal(err)
	}
	again, err := second.Apply(merged)
	if err != nil {
		t.Fatal(err)
	}
	if lv := fmt.Sprint(again.Levels("1")); lv != "[{0 2} {1 2} {2 1}]" {
		t.Errorf("after the second worklist, topic 1's levels: %s", lv)
	}
}

// Bad input: one line naming the file and line, and what was expected.
func TestReadTSVBadInput(t *testing.T) {
	t.Parallel()
	const h = "topic\tdocument\tlabel\tweight\n"
	for _, c := range []struct {
		text string
		line int
		want string
	}{
		{"", 0, "no header line"},
		{"# only comments\n\n", 2, "no header line"},
		{"301 0 FBIS-1 1\n", 1, "expected the worklist's header line"},
		{"topic\tdoc\tlabel\n", 1, "expected the worklist's header line"},
		{h + "1\td\tyes\t0.1\n", 2, `label "yes"; expected a relevance level, an integer from 0`},
		{h + "1\td\t1.5\n", 2, `label "1.5"`},
		{h + "1\td\t-1\n", 2, `label "-1"`},
		{h + "1\td\t99999999999\n", 2, `label "99999999999"`},
		{h + "1\td\t0x1\n", 2, `label "0x1"`},
		{h + "1\td\t1\t0.1\textra\n", 2, "5 tab-separated fields; the header has 4"},
		{h + "\td\t1\n", 2, "no topic"},
		{h + "1\t\t1\n", 2, "no document"},
		{h + "1\n", 2, "no document"},
		{h + "1\td\t1\n# c\n1\td\t\n", 4, `document "d" of topic "1" is also on line 2`},
		{h + "1\td\t\x1b[31mred\n", 2, "label \"\uFFFD[31mred\""}, // the escape made harmless
		{h + "1\td\t" + strings.Repeat("9", 2<<20) + "\n", 2, "line longer than 1 MB"},
	} {
		_, err := ReadTSV(strings.NewReader(c.text), "w.tsv")
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.File != "w.tsv" || ie.Line != c.line || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%.60q: %v; want one line at w.tsv:%d containing %q", c.text, err, c.line, c.want)
		}
	}
	q, _ := smallPool(t)
	f, err := ReadTSV(strings.NewReader(h+"1\td\t1\n7\td\t1\n"), "w.tsv")
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Apply(q)
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Line != 3 || !strings.Contains(err.Error(), `w.tsv:3: topic "7" is not in the qrels qrels`) {
		t.Errorf("a topic outside the qrels: %v", err)
	}
}

// FuzzReadTSV: any input reads without panicking; an error is one line at
// a line of the input, and what is read holds judgments of levels 0 to
// 2³¹ − 1 on lines of the input, each (topic, document) once.
func FuzzReadTSV(f *testing.F) {
	f.Add([]byte(Header + "\n1\td\t\t0.5\tA\t1\n"))
	f.Add([]byte("\uFEFF# c\r\nlabel\ttopic\tdocument\r\n2\t1\td\r\n"))
	f.Add([]byte("topic\tdocument\tlabel\n1\td\tx\n"))
	f.Add([]byte("topic\tdocument\tlabel\n1\td\t1\n1\td\t2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		r, err := ReadTSV(bytes.NewReader(data), "f.tsv")
		if err != nil {
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.Line < 0 || ie.Line > lines || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v: not one line at a line of the input (%d lines)", err, lines)
			}
			return
		}
		type key struct{ topic, doc string }
		seen := map[key]bool{}
		for _, j := range r.Judgments {
			if j.Level < 0 || j.Level > 1<<31-1 || j.Line < 1 || j.Line > lines || j.Topic == "" || j.Doc == "" || seen[key{j.Topic, j.Doc}] {
				t.Fatalf("judgment %+v of an input of %d lines", j, lines)
			}
			seen[key{j.Topic, j.Doc}] = true
		}
	})
}
