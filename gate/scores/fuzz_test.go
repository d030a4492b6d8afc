package scores

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// The fuzz targets feed bytes to Load through standard input. Every outcome
// must be a well-formed table or a one-line error located in the input;
// where the layout can say everything a table holds, a loaded table must
// also survive being written back and read again. Seeds are in
// testdata/fuzz/<target>/ as well as below.

func loadBytes(data []byte, opt LoadOptions) (*Table, error) {
	opt.Stdin = bytes.NewReader(data)
	return Load([]string{"-"}, opt)
}

// checkOutcome asserts the invariants of any Load result.
func checkOutcome(t *testing.T, tab *Table, err error) {
	t.Helper()
	if err != nil {
		msg := err.Error()
		if strings.ContainsAny(msg, "\n") {
			t.Fatalf("error is not one line: %q", msg)
		}
		var ie *inputerr.Error
		if errors.As(err, &ie) && ie.File != StdinName {
			t.Fatalf("error names %q, not %s: %s", ie.File, StdinName, msg)
		}
		return
	}
	if len(tab.Scores) != len(tab.Systems) || len(tab.Systems) == 0 || len(tab.Topics) == 0 {
		t.Fatalf("shape: %d rows, %d systems, %d topics", len(tab.Scores), len(tab.Systems), len(tab.Topics))
	}
	seen := map[string]bool{}
	for _, s := range tab.Systems {
		if strings.TrimSpace(s) == "" || seen[s] {
			t.Fatalf("system name %q empty or repeated", s)
		}
		seen[s] = true
	}
	seen = map[string]bool{}
	for _, s := range tab.Topics {
		if strings.TrimSpace(s) == "" || seen[s] {
			t.Fatalf("topic %q empty or repeated", s)
		}
		seen[s] = true
	}
	if tab.Missing() == len(tab.Systems)*len(tab.Topics) {
		t.Fatal("a table without a score")
	}
	for _, row := range tab.Scores {
		if len(row) != len(tab.Topics) {
			t.Fatalf("row of %d cells for %d topics", len(row), len(tab.Topics))
		}
		for _, v := range row {
			if math.IsInf(v, 0) {
				t.Fatalf("infinite score")
			}
		}
	}
}

// sameTable compares tables cell by cell, whatever the order.
func sameTable(t *testing.T, a, b *Table) {
	t.Helper()
	if len(a.Systems) != len(b.Systems) || len(a.Topics) != len(b.Topics) || a.Measure != b.Measure {
		t.Fatalf("round trip changed the shape: %q×%q %q, then %q×%q %q", a.Systems, a.Topics, a.Measure, b.Systems, b.Topics, b.Measure)
	}
	for s, name := range a.Systems {
		bs := b.SystemIndex(name)
		if bs < 0 {
			t.Fatalf("round trip lost system %q", name)
		}
		for i, topic := range a.Topics {
			bi := b.TopicIndex(topic)
			if bi < 0 {
				t.Fatalf("round trip lost topic %q", topic)
			}
			x, y := a.Scores[s][i], b.Scores[bs][bi]
			if x != y && !(math.IsNaN(x) && math.IsNaN(y)) || math.Signbit(x) != math.Signbit(y) {
				t.Fatalf("%s/%s: %v, then %v", name, topic, x, y)
			}
		}
	}
}

func g(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// encoding/csv reads \r\n inside a quoted field as \n, so such names cannot
// round-trip through CSV; the same goes for a name that starts with a BOM.
func csvSafe(tab *Table) bool {
	for _, names := range [][]string{tab.Systems, tab.Topics, {tab.Measure}} {
		for _, n := range names {
			if strings.ContainsRune(n, '\r') || strings.HasPrefix(n, "\ufeff") {
				return false
			}
		}
	}
	return true
}

func FuzzCSVLong(f *testing.F) {
	f.Add([]byte("system,topic,score\nA,301,0.5\nB,301,1e-3\n"))
	f.Add([]byte("Run,QID,Score,measure\n\"a,b\",1,-0.25,map\n"))
	f.Add([]byte("system,topic,score\nA,1,x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := loadBytes(data, LoadOptions{Format: CSVLong})
		checkOutcome(t, tab, err)
		if err != nil || !csvSafe(tab) {
			return
		}
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		labelled := tab.Measure != ""
		header := []string{"system", "topic", "score"}
		if labelled {
			header = append(header, "measure")
		}
		w.Write(header)
		for s, row := range tab.Scores {
			for i, v := range row {
				if math.IsNaN(v) {
					continue
				}
				rec := []string{tab.Systems[s], tab.Topics[i], g(v)}
				if labelled {
					rec = append(rec, tab.Measure)
				}
				w.Write(rec)
			}
		}
		w.Flush()
		out := buf.Bytes()
		again, err := loadBytes(out, LoadOptions{Format: CSVLong})
		if err != nil {
			t.Fatalf("reading back %q: %v", out, err)
		}
		sameTable(t, tab, again)
	})
}

func FuzzCSVWide(f *testing.F) {
	f.Add([]byte("topic,bm25,dpr\n301,0.5,0.6\n302,,NA\n"))
	f.Add([]byte("\ufeff\"q\",\"a,b\"\r\n1,2\r\n"))
	f.Add([]byte("topic,A,A\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := loadBytes(data, LoadOptions{Format: CSVWide})
		checkOutcome(t, tab, err)
		if err != nil || !csvSafe(tab) {
			return
		}
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.Write(append([]string{"topic"}, tab.Systems...))
		for i, topic := range tab.Topics {
			rec := []string{topic}
			for s := range tab.Systems {
				cell := ""
				if v := tab.Scores[s][i]; !math.IsNaN(v) {
					cell = g(v)
				}
				rec = append(rec, cell)
			}
			w.Write(rec)
		}
		w.Flush()
		again, err := loadBytes(buf.Bytes(), LoadOptions{Format: CSVWide})
		if err != nil {
			t.Fatalf("reading back %q: %v", buf.Bytes(), err)
		}
		sameTable(t, tab, again)
	})
}

func FuzzJSONL(f *testing.F) {
	f.Add([]byte(`{"system":"A","topic":301,"score":0.5}` + "\n\n" + `{"system":"B","topic":"301","measure":"map","score":-1e-2}`))
	f.Add([]byte(`{"system":"A","topic":1,"measure":"map","score":1}` + "\n" + `{"system":"A","topic":1,"measure":"P_5","score":1}`))
	f.Add([]byte(`{"system":"A",`))
	f.Add([]byte(`{"system":"A","topic":1,"score":1,"Score":2}`))
	f.Add([]byte(`{"system":"\ud83d\ude00","topic":"\u00e9","score":1,"x":{"a":1,"a":[2]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := loadBytes(data, LoadOptions{Format: JSONL})
		checkOutcome(t, tab, err)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		for s, row := range tab.Scores {
			for i, v := range row {
				if math.IsNaN(v) {
					continue
				}
				rec := map[string]any{"system": tab.Systems[s], "topic": tab.Topics[i], "score": json.Number(g(v))}
				if tab.Measure != "" {
					rec["measure"] = tab.Measure
				}
				line, err := json.Marshal(rec)
				if err != nil {
					t.Fatal(err)
				}
				buf.Write(append(line, '\n'))
			}
		}
		again, err := loadBytes(buf.Bytes(), LoadOptions{Format: JSONL})
		if err != nil {
			t.Fatalf("reading back %q: %v", buf.Bytes(), err)
		}
		sameTable(t, tab, again)
	})
}

// FuzzTrecEval loads trec_eval -q output, then writes the table back as a
// multi-run file in one of the layouts the parser reads (picked by the
// input's length): each run followed by its runid line (trec_eval's), or
// preceded by it, with or without a summary line after the run.
func FuzzTrecEval(f *testing.F) {
	f.Add([]byte("num_ret               \t301\t1000\nmap                   \t301\t0.1234\nrelstring             \t301\t'10-'\nrunid                 \tall\tsys\nmap                   \tall\t0.1234\n"), "map")
	f.Add([]byte("map\t1\t0.1\nrunid\tall\tr1\nmap\t1\t0.2\n"), "")
	f.Add([]byte("map\t1\t-nan\n"), "map")
	f.Add([]byte("runid\tall\ta\nmap\t1\t0.1\nmap\tall\t0.1\nrunid\tall\tb\nmap\t1\t0.2\n"), "map")
	f.Add([]byte("runid\tall\ta\nmap\t1\t0.1\nrunid\tall\tb\nmap\t1\t0.2\nrunid\tall\tb\n"), "")
	f.Add([]byte("map\t1\t0.1\nmap\tall\t0.1\nmap\t1\t0.2\nrunid\tall\tr\n"), "")
	f.Fuzz(func(t *testing.T, data []byte, measure string) {
		tab, err := loadBytes(data, LoadOptions{Format: TrecEval, Measures: []string{measure}})
		checkOutcome(t, tab, err)
		if err != nil || tab.Measure == "" || strings.ContainsFunc(tab.Measure, unicode.IsSpace) {
			return
		}
		layout := len(data) % 3
		var buf bytes.Buffer
		for s, row := range tab.Scores {
			if layout > 0 {
				fmt.Fprintf(&buf, "%-22s\tall\t%s\n", "runid", tab.Systems[s])
			}
			for i, v := range row {
				if !math.IsNaN(v) {
					fmt.Fprintf(&buf, "%-22s\t%s\t%s\n", tab.Measure, tab.Topics[i], g(v))
				}
			}
			switch layout {
			case 0:
				fmt.Fprintf(&buf, "%-22s\tall\t%s\n", "runid", tab.Systems[s])
			case 1:
				fmt.Fprintf(&buf, "%-22s\tall\t0\n", "num_q")
			}
		}
		again, err := loadBytes(buf.Bytes(), LoadOptions{Format: TrecEval, Measures: []string{measure}})
		if err != nil {
			t.Fatalf("reading back %q: %v", buf.Bytes(), err)
		}
		sameTable(t, tab, again)
	})
}

// FuzzJSONObject checks decodeJSONRow against encoding/json on any line
// that starts with '{': it accepts only valid JSON; when it accepts, each of
// the four fields holds the raw value encoding/json gives it, and no two
// top-level keys are alike (case-insensitively for the fields); when it
// refuses valid JSON, the reason is a repeated key or a key, or a string,
// that is not valid UTF-8.
func FuzzJSONObject(f *testing.F) {
	f.Add([]byte(`{"system":"A","topic":301,"score":0.5}`))
	f.Add([]byte(`{"system":"A","SYSTEM":"B","topic":1,"score":1}`))
	f.Add([]byte(`{"a":{"b":"}\"","c":[1,{"d":null}]},"score":-1e-9 , "topic" : "\ud800" }`))
	f.Add([]byte(`{"k\u0065y":1,"key":2}`))
	f.Add([]byte("{\"\xff\":1}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		text := bytes.TrimSpace(data)
		if len(text) == 0 || text[0] != '{' {
			return
		}
		var seen []string
		row, err := decodeJSONRow(text, &seen)
		if !json.Valid(text) {
			if err == nil {
				t.Fatalf("accepted invalid JSON %q", text)
			}
			return
		}
		// The top-level keys, as encoding/json decodes them.
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.Token() // '{'
		var keys []string
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			keys = append(keys, k.(string))
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				t.Fatal(err)
			}
		}
		alike := false
		for i, a := range keys {
			for _, b := range keys[:i] {
				folded := false
				for _, name := range jsonKeys {
					folded = folded || strings.EqualFold(a, name) && strings.EqualFold(b, name)
				}
				alike = alike || a == b || folded
			}
		}
		if err != nil {
			msg := err.Error()
			if !(alike && (strings.Contains(msg, "is given twice") || strings.Contains(msg, "both give")) ||
				strings.Contains(msg, "UTF-8") || strings.Contains(msg, "surrogate")) {
				t.Fatalf("refused %q: %v", text, err)
			}
			return
		}
		if alike {
			t.Fatalf("accepted %q with keys %q alike", text, keys)
		}
		var ref struct {
			System, Topic, Measure, Score json.RawMessage
		}
		if err := json.Unmarshal(text, &ref); err != nil {
			t.Fatal(err)
		}
		for i, want := range [][]byte{ref.System, ref.Topic, ref.Measure, ref.Score} {
			if !bytes.Equal(row[i], want) {
				t.Fatalf("%q: %s is %q, encoding/json says %q", text, jsonKeys[i], row[i], want)
			}
		}
	})
}

// FuzzDetect loads arbitrary bytes with the format detected: whatever is
// chosen, the outcome is a table or a located one-line error.
func FuzzDetect(f *testing.F) {
	f.Add([]byte("system,topic,score\nA,1,0.5\n"))
	f.Add([]byte("topic,A\n1,0.5\n"))
	f.Add([]byte(`{"system":"A","topic":1,"score":0.5}`))
	f.Add([]byte("map                   \t1\t0.5000\n"))
	f.Add([]byte("# c\n1 Q0 d1 1 0.5 run\n"))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := loadBytes(data, LoadOptions{Qrels: "/nonexistent/qrels"})
		checkOutcome(t, tab, err)
		// Detection itself is a pure function of the first significant line.
		line, _, _ := strings.Cut(string(data), "\n")
		_ = classify(line)
	})
}

// checkSet asserts the invariants of any LoadSources result: one-line
// errors naming standard input; tables that line up, measures distinct.
func checkSet(t *testing.T, set *Set, err error) {
	t.Helper()
	if err != nil {
		checkOutcome(t, nil, err)
		return
	}
	seen := map[string]bool{}
	for _, tab := range set.Tables {
		if seen[tab.Measure] {
			t.Fatalf("measure %q twice", tab.Measure)
		}
		seen[tab.Measure] = true
		if !slices.Equal(tab.Systems, set.Tables[0].Systems) || !slices.Equal(tab.Topics, set.Tables[0].Topics) {
			t.Fatalf("%s: tables do not line up", tab.Measure)
		}
		checkOutcome(t, tab, nil)
	}
}

func loadSetBytes(data []byte, opt LoadOptions) (*Set, error) {
	opt.Stdin = bytes.NewReader(data)
	set, _, _, err := LoadSources([]string{"-"}, opt)
	return set, err
}

func FuzzCSVMeasures(f *testing.F) {
	f.Add([]byte(",query_id,system,nDCG@10,R@100,latency_ms\n0,301,bm25,0.5,0.75,12\n1,301,dense,0.625,NA,30\n"), false)
	f.Add([]byte("qid\trun\tndcg_cut.10\trecall_100\n301\tbm25\t0.5\t0.75\n"), false)
	f.Add([]byte("query_id,AP,RR\n1,0.5,1\n2,,0.5\n"), true)
	f.Add([]byte("qid,system,ndcg_cut.10,nDCG@10\n1,a,0.5,0.5\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, perFile bool) {
		set, err := loadSetBytes(data, LoadOptions{Format: CSVMeasures, SystemPerFile: perFile})
		checkSet(t, set, err)
		set, err = loadSetBytes(data, LoadOptions{SystemPerFile: perFile, Topics: Keep})
		checkSet(t, set, err)
	})
}

func FuzzIRMeasures(f *testing.F) {
	f.Add([]byte("1\tP@5\t0.6000\n1\tnDCG@10\t0.5134\n2\tP@5\t1.0000\nall\tP@5\t0.8\n"), "")
	f.Add([]byte("1 P(rel=2)@5 0.2\n2 RR nan\n"), "RR")
	f.Add([]byte("q1\tAP\t0.5\nq1\tAP\t0.5\n"), "AP")
	f.Fuzz(func(t *testing.T, data []byte, measure string) {
		set, err := loadSetBytes(data, LoadOptions{Format: IRMeasures, SystemPerFile: true, Measures: []string{measure}})
		checkSet(t, set, err)
		set, err = loadSetBytes(data, LoadOptions{SystemPerFile: true, Topics: Intersect})
		checkSet(t, set, err)
	})
}
