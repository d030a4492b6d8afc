package scores

import (
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// inDir writes files into a temporary directory and makes it the working
// directory, so that messages name the files as given.
func inDir(t *testing.T, files map[string]string) {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	for name, content := range files {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// cells flattens a table into "system/topic=value" strings in table order.
func cells(tab *Table) []string {
	var out []string
	for s, row := range tab.Scores {
		for i, v := range row {
			if v == v {
				out = append(out, tab.Systems[s]+"/"+tab.Topics[i]+"="+strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
	}
	return out
}

func TestLoadFormats(t *testing.T) {
	cases := []struct {
		name    string
		content string
		opt     LoadOptions
		measure string
		want    []string
	}{
		{"long.csv", "system,topic,score\nA,301,0.5\nA,302,0.25\nB,301,1\n", LoadOptions{}, "",
			[]string{"A/301=0.5", "A/302=0.25", "B/301=1"}},
		{"long_any_order.csv", "Score , QID,Run\n0.5,301,A\n", LoadOptions{}, "", []string{"A/301=0.5"}},
		{"long_synonyms.csv", "runid,query,score,extra\nA,q1,0.5,ignored\n", LoadOptions{}, "", []string{"A/q1=0.5"}},
		{"long_quoted.csv", "system,topic,score\n\"Run, with comma\",\"301\",\" 0.5 \"\n", LoadOptions{}, "", []string{"Run, with comma/301=0.5"}},
		{"long_crlf_bom.csv", "\ufeffsystem,topic,score\r\nA,301,0.5\r\n\r\nA,302,-1.5e-1\r\n", LoadOptions{}, "",
			[]string{"A/301=0.5", "A/302=-0.15"}},
		{"long_measure.csv", "system,topic,measure,score\nA,1,map,0.5\nA,1,P_10,0.3\nB,1,map,0.7\n", LoadOptions{Measures: []string{"P_10"}}, "P_10",
			[]string{"A/1=0.3"}},
		{"long_one_measure.csv", "measure,system,topic,score\nndcg,A,1,0.5\n", LoadOptions{}, "ndcg", []string{"A/1=0.5"}},
		{"long_unnamed_measure.csv", "system,topic,score\nA,1,0.5\n", LoadOptions{UnnamedMeasure: "ndcg"}, "ndcg", []string{"A/1=0.5"}},
		{"long_unnamed_measure_wanted.csv", "system,topic,score\nA,1,0.5\n", LoadOptions{UnnamedMeasure: "nDCG", Measures: []string{"ndcg"}}, "ndcg", []string{"A/1=0.5"}},
		{"wide.csv", "topic,bm25,dpr\n301,0.5,0.6\n302,,0.7\n303,NA,0.8\n", LoadOptions{}, "",
			[]string{"bm25/301=0.5", "dpr/301=0.6", "dpr/302=0.7", "dpr/303=0.8"}},
		{"wide_blank_column.csv", "topic,A,B\n1,0.5,\n2,0.6,NA\n", LoadOptions{}, "", []string{"A/1=0.5", "A/2=0.6"}}, // B listed, no cells
		{"wide_forced.csv", "qid,system,run2\nq1,0.1,0.2\n", LoadOptions{Format: CSVWide}, "",
			[]string{"system/q1=0.1", "run2/q1=0.2"}},
		{"wide_any_first_column.csv", ",A\n1,0.5\n", LoadOptions{}, "", []string{"A/1=0.5"}},
		{"rows.jsonl", "{\"system\":\"A\",\"topic\":301,\"score\":0.5}\n\n   \n{\"topic\":\"302\",\"system\":\"A\",\"score\":1e-1,\"note\":1}\r\n", LoadOptions{}, "",
			[]string{"A/301=0.5", "A/302=0.1"}},
		{"measures.jsonl", `{"system":"A","topic":"1","measure":"map","score":0.5}` + "\n" + `{"system":"A","topic":"1","measure":"P_5","score":0.2}`,
			LoadOptions{Measures: []string{"map"}}, "map", []string{"A/1=0.5"}},
		// Rows of another measure between the wanted ones are skipped, not the end of the file.
		{"interleaved.jsonl", `{"system":"A","topic":"1","measure":"map","score":0.5}` + "\n" + `{"system":"A","topic":"1","measure":"P_5","score":0.2}` + "\n" +
			`{"system":"A","topic":"2","measure":"map","score":0.7}` + "\n" + `{"system":"B","topic":"1","measure":"map","score":0.1}`,
			LoadOptions{Measures: []string{"map"}}, "map", []string{"A/1=0.5", "A/2=0.7", "B/1=0.1"}},
		{"numeric_system.jsonl", `{"system":7,"topic":-1.5,"score":-0}`, LoadOptions{}, "", []string{"7/-1.5=-0"}},
		{"null_measure.jsonl", `{"system":"A","topic":"1","measure":null,"score":1}`, LoadOptions{}, "", []string{"A/1=1"}},
		{"te.txt", "map                   \t301\t0.5000\nP_10                  \t301\t0.3000\nrelstring             \t301\t'10'\n" +
			"map                   \t302\t0.2500\nrunid                 \tall\tmyrun\nmap                   \tall\t0.3750\n",
			LoadOptions{Measures: []string{"map"}}, "map", []string{"myrun/301=0.5", "myrun/302=0.25"}},
		{"te_counts.txt", "num_ret               \t301\t1000\nnum_ret               \t302\t17\n", LoadOptions{}, "num_ret",
			[]string{"te_counts/301=1000", "te_counts/302=17"}},
		{"te_spaces.txt", "map 301 0.5\n", LoadOptions{Format: TrecEval}, "map", []string{"te_spaces/301=0.5"}},
		// Two runs' outputs concatenated: each runid names the lines before it.
		{"te_cat.txt", "map\t1\t0.1\nrunid\tall\tr1\nmap\tall\t0.1\nmap\t1\t0.2\nrunid\tall\tr2\nmap\tall\t0.2\n", LoadOptions{}, "map",
			[]string{"r1/1=0.1", "r2/1=0.2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inDir(t, map[string]string{c.name: c.content})
			tab, err := Load([]string{c.name}, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := cells(tab); !slices.Equal(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
			if tab.Measure != c.measure {
				t.Errorf("measure %q, want %q", tab.Measure, c.measure)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		line string
		want Format
	}{
		{`{"system":"a"}`, JSONL},
		{`  {`, JSONL},
		{"301 Q0 doc1 1 12.5 run", Run},
		{"301\tQ0\tdoc1\t0\t-3e-2\trun\textra", Run},
		{"301 Q0 doc1 x 12.5 run", Auto},
		{"map                   \t301\t0.1234", TrecEval},
		{"runid                 \tall\tmyrun", TrecEval},
		{"relstring             \t301\t'10-'", TrecEval},
		{"num_ret\t301\t1000", TrecEval},
		{"map 301 0.1234", Auto}, // trec_eval always prints tabs
		{"system,topic,score", csvAny},
		{"topic,a b,c 1", csvAny},
		{`"topic","a"`, csvAny},
		{"system\ttopic\tscore", csvAny}, // a TSV header
		{"hello", Auto},
		{`"unterminated,quote`, Auto},
	}
	for _, c := range cases {
		if got := classify(c.line); got != c.want {
			t.Errorf("classify(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

func TestIsDecimal(t *testing.T) {
	for _, s := range []string{"0", "-1", "+2.5", ".5", "5.", "1e3", "1E-3", "-0.0e+0", "007"} {
		if !isDecimal(s) {
			t.Errorf("isDecimal(%q) = false", s)
		}
	}
	for _, s := range []string{"", "-", ".", "e3", "1e", "1e+", "0x10", "0x1p4", "1_0", "NaN", "inf", "1.2.3", "1 2", "--1", "1e3.5"} {
		if isDecimal(s) {
			t.Errorf("isDecimal(%q) = true", s)
		}
	}
}

// Each bad input gets one line: file:line (or file: for a whole-file
// problem) and what was expected.
func TestLoadErrors(t *testing.T) {
	const long = "system,topic,score\n"
	const anyFormat = "expected a CSV header, a JSON object, trec_eval -q output (measure, topic, value separated by tabs) or a TREC run line (topic Q0 docno rank score run_id)"
	const jsonHelp = `expected one object {"system": …, "topic": …, "score": …} per line, with an optional "measure"`
	cases := []struct {
		name    string
		files   map[string]string
		paths   []string
		opt     LoadOptions
		want    string
		notLine bool // the error is not an *inputerr.Error
	}{
		// Scores.
		{name: "non-numeric", files: map[string]string{"a.csv": long + "A,1,0.5\nA,2,abc\n"},
			want: `a.csv:3: score "abc" is not a number; expected a finite number`},
		{name: "hexadecimal", files: map[string]string{"a.csv": long + "A,1,0x1p4\n"},
			want: `a.csv:2: score "0x1p4" is not a number; expected a finite number`},
		{name: "NaN", files: map[string]string{"a.csv": long + "A,1,NaN\n"},
			want: `a.csv:2: score "NaN" is NaN; expected a finite number`},
		{name: "-nan as printed by C", files: map[string]string{"t.txt": "map\t1\t-nan\n"},
			want: `t.txt:1: score "-nan" is NaN; expected a finite number`},
		{name: "infinite", files: map[string]string{"a.csv": long + "A,1,-Inf\n"},
			want: `a.csv:2: score "-Inf" is infinite; expected a finite number`},
		{name: "out of range", files: map[string]string{"a.csv": long + "A,1,1e400\n"},
			want: `a.csv:2: score "1e400" is out of range; expected a finite number`},
		{name: "empty score", files: map[string]string{"a.csv": long + "A,1, \n"},
			want: `a.csv:2: empty score; expected a finite number`},
		{name: "wide non-numeric", files: map[string]string{"w.csv": "topic,bm25\n1,0.5\n2,x\n"},
			want: `w.csv:3: system "bm25": score "x" is not a number; expected a finite number`},
		{name: "json NaN-like", files: map[string]string{"j.jsonl": `{"system":"A","topic":1,"score":"NaN"}`},
			want: `j.jsonl:1: "score" is "NaN"; expected a JSON number`},
		{name: "json null score", files: map[string]string{"j.jsonl": `{"system":"A","topic":1,"score":null}`},
			want: `j.jsonl:1: "score" is null; expected a JSON number`},
		{name: "json out of range", files: map[string]string{"j.jsonl": `{"system":"A","topic":1,"score":1e999}`},
			want: `j.jsonl:1: score "1e999" is out of range; expected a finite number`},
		{name: "trec_eval non-numeric", files: map[string]string{"t.txt": "map\t1\t0.5\nmap\t2\tx\n"},
			want: `t.txt:2: score "x" is not a number; expected a finite number`},

		// Duplicate cells.
		{name: "duplicate long", files: map[string]string{"a.csv": long + "A,1,0.5\nB,1,0.5\nA,1,0.7\n"},
			want: `a.csv:4: duplicate score for system "A" on topic "1"; expected one per (system, topic) (first given at a.csv:2)`},
		{name: "duplicate across files", files: map[string]string{"a.csv": long + "A,1,0.5\n", "b.jsonl": `{"system":"A","topic":"1","score":0.5}`},
			paths: []string{"a.csv", "b.jsonl"},
			want:  `b.jsonl:1: duplicate score for system "A" on topic "1"; expected one per (system, topic) (first given at a.csv:2)`},
		{name: "duplicate wide row", files: map[string]string{"w.csv": "topic,A\n1,0.5\n1,0.6\n"},
			want: `w.csv:3: duplicate score for system "A" on topic "1"; expected one per (system, topic) (first given at w.csv:2)`},
		{name: "duplicate trec_eval", files: map[string]string{"t.txt": "map\t1\t0.5\nmap\t1\t0.5\n"},
			want: `t.txt:2: duplicate score for system "t" on topic "1"; expected one per (system, topic) (first given at t.txt:1)`},
		{name: "same file twice", files: map[string]string{"a.csv": long + "A,1,0.5\n"}, paths: []string{"a.csv", "a.csv"},
			want: `a.csv:2: duplicate score for system "A" on topic "1"; expected one per (system, topic) (first given at a.csv:2)`},

		// Missing columns, keys, names.
		{name: "missing topic column", files: map[string]string{"a.csv": "system,score\nA,1\n"},
			want: `a.csv:1: no topic column in the header ("system,score"); expected a header naming system (or run, runid, name), topic (or query, qid) and score (or value) columns, and optionally measure`},
		{name: "missing score column", files: map[string]string{"a.csv": "run,qid\nA,1\n"},
			want: `a.csv:1: no score column in the header ("run,qid"); expected a header naming system (or run, runid, name), topic (or query, qid) and score (or value) columns, and optionally measure`},
		{name: "missing system column forced", files: map[string]string{"a.csv": "topic,x\n1,0.5\n"}, opt: LoadOptions{Format: CSVLong},
			want: `a.csv:1: no system column in the header ("topic,x"); expected a header naming system (or run, runid, name), topic (or query, qid) and score (or value) columns, and optionally measure`},
		{name: "column given twice", files: map[string]string{"a.csv": "run,System,topic,score\n"},
			want: `a.csv:1: columns 1 ("run") and 2 ("System") both give the system; expected one`},
		{name: "wide duplicate system", files: map[string]string{"w.csv": "topic,A,B,A\n"},
			want: `w.csv:1: columns 2 and 4 both name system "A"; expected one column per system`},
		{name: "wide empty system", files: map[string]string{"w.csv": "topic,A,,B\n1,1,2,3\n"},
			want: `w.csv:1: column 3 has no system name in the header; expected a topic column, then one column per system`},
		{name: "wide one column", files: map[string]string{"w.csv": "topic\n1\n"}, opt: LoadOptions{Format: CSVWide},
			want: `w.csv:1: the header has 1 column(s); expected a topic column, then one column per system`},
		{name: "empty system", files: map[string]string{"a.csv": long + " ,1,0.5\n"},
			want: `a.csv:2: empty system name; expected a name`},
		{name: "empty topic", files: map[string]string{"w.csv": "topic,A\n,0.5\n"},
			want: `w.csv:2: empty topic for system "A"; expected a topic id`},
		{name: "json missing score", files: map[string]string{"j.jsonl": `{"system":"A","topic":1}`},
			want: `j.jsonl:1: no "score" key; ` + jsonHelp},
		{name: "json missing system", files: map[string]string{"j.jsonl": `{"sytem":"A","topic":1,"score":1}`},
			want: `j.jsonl:1: "system" key is missing; ` + jsonHelp},
		{name: "json topic object", files: map[string]string{"j.jsonl": `{"system":"A","topic":{"id":1},"score":1}`},
			want: `j.jsonl:1: "topic" is {"id":1}, not a string or number; ` + jsonHelp},
		{name: "json measure number", files: map[string]string{"j.jsonl": `{"system":"A","topic":1,"measure":5,"score":1}`},
			want: `j.jsonl:1: "measure" is 5; expected a non-empty string`},
		{name: "empty measure cell", files: map[string]string{"a.csv": "system,topic,measure,score\nA,1,,0.5\n"},
			want: `a.csv:2: empty measure; expected a measure name in column 3`},
		{name: "json measure then none", files: map[string]string{"j.jsonl": `{"system":"A","topic":1,"measure":"map","score":1}` + "\n" + `{"system":"A","topic":2,"score":1}`},
			want: `j.jsonl:2: no measure given; expected one, as line 1 gives`},
		{name: "json none then measure", files: map[string]string{"j.jsonl": `{"system":"A","topic":1,"score":1}` + "\n\n" + `{"system":"A","topic":2,"measure":"map","score":1}`},
			want: `j.jsonl:3: measure "map" given; expected none, as line 1 gives none`},

		// Ragged and malformed rows.
		{name: "ragged long", files: map[string]string{"a.csv": long + "A,1,0.5\nA,2,0.5,9\n"},
			want: `a.csv:3: the row has a different number of fields from the header's 3 (system,topic,score); expected one per column`},
		{name: "short wide row", files: map[string]string{"w.csv": "topic,A,B\n1,0.5\n"},
			want: `w.csv:2: the row has a different number of fields from the header's 3 (topic,A,B); expected one per column`},
		{name: "bad quote", files: map[string]string{"a.csv": long + "A,\"1,0.5\n"},
			want: `a.csv:2:10: invalid CSV: extraneous or missing " in quoted-field`}, // where encoding/csv notices
		{name: "bare quote", files: map[string]string{"a.csv": long + "A,1\"x,0.5\n"},
			want: `a.csv:2:4: invalid CSV: bare " in non-quoted-field`},
		{name: "trec_eval fields", files: map[string]string{"t.txt": "map\t1\t0.5\nmap\t2\t0.5\textra\n"},
			want: `t.txt:2: 4 fields; expected 3 (measure, topic, value) as trec_eval -q prints`},
		{name: "invalid JSON", files: map[string]string{"j.jsonl": `{"system":"A","topic":1,"score":1}` + "\n" + `{"system":"A",`},
			want: `j.jsonl:2: invalid JSON: unexpected end of JSON input; ` + jsonHelp},
		{name: "JSON trailing garbage", files: map[string]string{"j.jsonl": `{"system":"A","topic":1,"score":1} x`},
			want: `j.jsonl:1: invalid JSON: invalid character 'x' after top-level value; ` + jsonHelp},
		{name: "JSON not an object", files: map[string]string{"j.jsonl": `{"system":"A","topic":1,"score":1}` + "\n[1]"},
			want: `j.jsonl:2: line starts with "[1]"; ` + jsonHelp},

		// Empty files and no data.
		{name: "empty file", files: map[string]string{"e.csv": ""},
			want: `e.csv: the file is empty; ` + anyFormat},
		{name: "blank file", files: map[string]string{"e.csv": "\n  \r\n\t\n"},
			want: `e.csv: the file is empty; ` + anyFormat},
		{name: "empty forced", files: map[string]string{"e.csv": ""}, opt: LoadOptions{Format: CSVLong},
			want: `e.csv: the file is empty; expected a CSV header`},
		{name: "empty forced jsonl", files: map[string]string{"e.jsonl": "\n"}, opt: LoadOptions{Format: JSONL},
			want: `e.jsonl: no scores in the file; expected at least one row of data`},
		{name: "empty forced trec_eval", files: map[string]string{"e.txt": "\n"}, opt: LoadOptions{Format: TrecEval},
			want: `e.txt: the file is empty; expected trec_eval -q output`},
		{name: "header only", files: map[string]string{"a.csv": long},
			want: `a.csv: no scores in the file; expected at least one row of data`},
		{name: "wide all missing", files: map[string]string{"w.csv": "topic,A\n1,NA\n"},
			want: `w.csv: no scores in the file; expected at least one row of data`},
		{name: "trec_eval without -q", files: map[string]string{"t.txt": "runid\tall\tr\nmap\tall\t0.5\n"},
			want: `t.txt: no per-topic lines, only the summary (topic "all"); expected trec_eval output with per-topic values: rerun trec_eval with -q`},
		{name: "trec_eval only relstring", files: map[string]string{"t.txt": "relstring\t1\t'10'\n"},
			want: `t.txt: no scores in the file; expected at least one row of data`},

		// Formats.
		{name: "unknown format", files: map[string]string{"x.txt": "\n# note\nhello world\n"},
			want: `x.txt:3: cannot tell the format of "hello world" (tried jsonl, run, trec_eval, ir_measures, csv-long, csv-wide, csv-measures, parquet); ` + anyFormat + `, or name the format with --input-format`},
		{name: "tab-separated, header only", files: map[string]string{"x.tsv": "system\ttopic\tscore\n"},
			want: `x.tsv: no scores in the file; expected at least one row of data`},
		{name: "long line cut", files: map[string]string{"x.txt": strings.Repeat("ab", 40)},
			want: `x.txt:1: cannot tell the format of "abababababababababababababababababababab"… (tried jsonl, run, trec_eval, ir_measures, csv-long, csv-wide, csv-measures, parquet); ` + anyFormat + `, or name the format with --input-format`},
		{name: "bad --input-format", files: map[string]string{}, paths: []string{"a"}, opt: LoadOptions{Format: "csv"}, notLine: true,
			want: `--input-format "csv": expected one of auto, run, trec_eval, ir_measures, csv-long, csv-wide, csv-measures, jsonl, parquet`},
		{name: "no such file", files: map[string]string{}, paths: []string{"nope.csv"},
			want: `nope.csv: cannot open: no such file or directory`},
		{name: "run without qrels", files: map[string]string{"r.run": "# comment\n301 Q0 d1 1 2.5 myrun\n"},
			want: `r.run:2: a TREC run line (topic Q0 docno rank score run_id), and no qrels file; expected --qrels FILE to score the runs against, or another format named with --input-format`},
		{name: "qrels missing", files: map[string]string{"r.run": "301 Q0 d1 1 2.5 myrun\n"}, opt: LoadOptions{Qrels: "nope.txt"},
			want: `nope.txt: cannot open the qrels file named by --qrels: no such file or directory; expected a readable qrels file`},
		{name: "qrels missing, from a policy", files: map[string]string{"r.run": "301 Q0 d1 1 2.5 myrun\n"}, opt: LoadOptions{Qrels: "nope.txt", QrelsFrom: "gate.yaml:4:10 inputs.qrels"},
			want: `nope.txt: cannot open the qrels file named by gate.yaml:4:10 inputs.qrels: no such file or directory; expected a readable qrels file`},
		{name: "directory", files: map[string]string{}, paths: []string{"."},
			want: `.:1: read error: read .: is a directory`},
		{name: "no paths", files: map[string]string{}, paths: []string{}, notLine: true, want: `no input files given`},

		// Measures.
		{name: "measure absent", files: map[string]string{"t.txt": "map\t1\t0.5\nP_10\t1\t0.5\n"}, opt: LoadOptions{Measures: []string{"ndcg"}},
			want: `t.txt: no scores of measure "ndcg" (--measure); the file holds "P_10", "map"`},
		{name: "measure of an unnamed file", files: map[string]string{"a.csv": "system,topic,score\nA,1,0.5\n"}, opt: LoadOptions{Measures: []string{"ndcg"}},
			want: `a.csv:2: the file names no measure (a system,topic,score CSV or JSON Lines without a measure, or a CSV of one column per system), so it cannot be checked to hold --measure "ndcg"; expected a measure column, or its measure named with --unnamed-measure NAME`},
		{name: "unnamed measure not wanted", files: map[string]string{"a.csv": "system,topic,score\nA,1,0.5\n"}, opt: LoadOptions{Measures: []string{"ndcg"}, UnnamedMeasure: "map"},
			want: `a.csv: no scores of measure "ndcg" (--measure); the file holds "map"`},

		// Standard input.
		{name: "stdin twice", files: map[string]string{}, paths: []string{"-", "-"}, notLine: true,
			want: `standard input (-) is named 2 times; it can be read only once`},
		{name: "no stdin", files: map[string]string{}, paths: []string{"-"},
			want: `<stdin>: standard input is not available here; expected a file path`},
		{name: "stdin read error", files: map[string]string{}, paths: []string{"-"}, opt: LoadOptions{Stdin: iotest.ErrReader(errors.New("boom"))},
			want: `<stdin>:1: read error: boom`},
		{name: "run on stdin", files: map[string]string{}, paths: []string{"-"}, opt: LoadOptions{Stdin: strings.NewReader("1 Q0 d 1 1 r\n"), Qrels: "q"},
			want: `<stdin>: a TREC run is read from a regular file, not standard input or a pipe; expected the run file's path`},
		{name: "stdin bad row", files: map[string]string{}, paths: []string{"-"}, opt: LoadOptions{Stdin: strings.NewReader(long + "A,1,x\n")},
			want: `<stdin>:2: score "x" is not a number; expected a finite number`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inDir(t, c.files)
			paths := c.paths
			if paths == nil {
				for name := range c.files {
					paths = append(paths, name)
				}
			}
			tab, err := Load(paths, c.opt)
			if err == nil {
				t.Fatalf("no error; got %v", cells(tab))
			}
			if err.Error() != c.want {
				t.Errorf("error\n%s\nwant\n%s", err, c.want)
			}
			var ie *inputerr.Error
			if isLine := errors.As(err, &ie); isLine == c.notLine {
				t.Errorf("error is *inputerr.Error: %v, want %v", isLine, !c.notLine)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Error("the message is not one line")
			}
		})
	}
}

func TestLoadStdin(t *testing.T) {
	inDir(t, map[string]string{"t.txt": "map\t1\t0.5\nrunid\tall\tr1\n"})
	tab, err := Load([]string{"t.txt", "-"}, LoadOptions{Stdin: strings.NewReader("map\t1\t0.25\n")})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cells(tab), []string{"r1/1=0.5", "stdin/1=0.25"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// A long header is detected from the buffered window, and nothing is lost.
	var b strings.Builder
	b.WriteString("topic")
	for i := range 5000 {
		b.WriteString(",system" + strconv.Itoa(i))
	}
	b.WriteString("\n1")
	for range 5000 {
		b.WriteString(",0.5")
	}
	tab, err = Load([]string{"-"}, LoadOptions{Stdin: iotest.OneByteReader(strings.NewReader(b.String()))})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Systems) != 5000 || tab.Systems[4999] != "system4999" || tab.Missing() != 0 {
		t.Errorf("got %d systems, last %q", len(tab.Systems), tab.Systems[len(tab.Systems)-1])
	}
}

// Files of different formats mix, and the measure follows the labelled ones.
func TestLoadMixed(t *testing.T) {
	inDir(t, map[string]string{
		"a.csv":   "system,topic,score\nA,1,0.5\nA,2,0.6\n",
		"b.jsonl": `{"system":"B","topic":"1","measure":"map","score":0.1}`,
		"c.txt":   "map\t2\t0.2\nrelstring\t2\t'1'\nrunid\tall\tC\n",
		"d.csv":   "qid,D,E\n1,0.7,0.8\n",
	})
	// The unnamed measure of the CSV files is named to join the labelled ones.
	tab, err := Load([]string{"a.csv", "b.jsonl", "c.txt", "d.csv"}, LoadOptions{UnnamedMeasure: "map"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"A/1=0.5", "A/2=0.6", "B/1=0.1", "C/2=0.2", "D/1=0.7", "E/1=0.8"}
	if got := cells(tab); !slices.Equal(got, want) || tab.Measure != "map" {
		t.Errorf("got %q measure %q, want %q measure map", got, tab.Measure, want)
	}
}

// Runs go to loadRuns in one call, at the position of the first run, with
// --measure or map.
func TestLoadRuns(t *testing.T) {
	type call struct {
		paths          []string
		qrels, measure string
		systemsBefore  int
	}
	var calls []call
	scoreRuns := func(c *collector, job runJob) ([]Source, error) {
		calls = append(calls, call{job.paths, job.qrels, strings.Join(job.measures, ","), c.systemCount()})
		var sources []Source
		for _, p := range job.paths {
			for _, m := range job.measures {
				if err := c.add(m, "run:"+p, "1", 0.5, p, 1); err != nil {
					return nil, err
				}
			}
			sources = append(sources, Source{Role: RoleScores, Path: p})
		}
		return append(sources, Source{Role: RoleQrels, Path: job.qrels}), nil
	}
	inDir(t, map[string]string{
		"a.csv": "system,topic,score\nA,1,0.5\n",
		"r1":    "1 Q0 d 1 1 r1\n",
		"b.csv": "system,topic,score\nB,1,0.5\n",
		"r2":    "1 Q0 d 1 1 r2\n",
		"m.txt": "ndcg\t1\t0.5\n",
	})
	// The CSV files name no measure: --unnamed-measure names theirs.
	tab, err := Load([]string{"a.csv", "r1", "b.csv", "r2"}, LoadOptions{Qrels: "q", UnnamedMeasure: "map", scoreRuns: scoreRuns})
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || !slices.Equal(calls[0].paths, []string{"r1", "r2"}) || calls[0].qrels != "q" || calls[0].measure != "map" || calls[0].systemsBefore != 1 {
		t.Errorf("calls %+v", calls)
	}
	if !slices.Equal(tab.Systems, []string{"A", "run:r1", "run:r2", "B"}) || tab.Measure != "map" {
		t.Errorf("systems %q measure %q", tab.Systems, tab.Measure)
	}
	// Unnamed CSV measures and the runs' map are two measures.
	_, err = Load([]string{"a.csv", "r1"}, LoadOptions{Qrels: "q", scoreRuns: scoreRuns})
	if want := `the inputs hold 2 measures ("", "map"); name one with --measure`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	// Forced: every path is a run, scored with every measure wanted in one call.
	calls = nil
	set, _, _, err := LoadSources([]string{"a.csv"}, LoadOptions{Qrels: "q", Format: Run, Measures: []string{"P.10", "ndcg_cut_10"}, scoreRuns: scoreRuns})
	if err != nil || len(calls) != 1 || calls[0].measure != "P_10,ndcg_cut_10" || !slices.Equal(set.Measures(), []string{"P_10", "ndcg_cut_10"}) {
		t.Errorf("forced run: %v %+v", err, calls)
	}
	// A labelled file of another measure than the runs' default: two
	// measures, which the Set's alignment refuses as no system has both.
	_, _, _, err = LoadSources([]string{"m.txt", "r1"}, LoadOptions{Qrels: "q", Topics: Intersect, scoreRuns: scoreRuns})
	if want := `system "m" has no score of measure "map" but has scores of "ndcg"; expected every system scored on every measure (select measures with --measure)`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if _, err := Load([]string{"m.txt", "r1"}, LoadOptions{Qrels: "q", Measures: []string{"ndcg"}, scoreRuns: scoreRuns}); err != nil {
		t.Error(err)
	}
	// The real scorer's error (no qrels file q) comes through.
	if _, err := Load([]string{"r1"}, LoadOptions{Qrels: "q"}); err == nil {
		t.Error("the run placeholder succeeded")
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range Formats {
		if got, err := ParseFormat(string(f)); err != nil || got != f {
			t.Errorf("%s: %v %v", f, got, err)
		}
	}
	if got, err := ParseFormat(""); err != nil || got != Auto {
		t.Errorf("empty: %v %v", got, err)
	}
}

func TestSystemFromFile(t *testing.T) {
	for in, want := range map[string]string{"runs/bm25.txt": "bm25", "a.core.txt": "a.core", "noext": "noext", ".hidden": ".hidden", "-": "stdin"} {
		if got := systemFromFile(in); got != want {
			t.Errorf("systemFromFile(%q) = %q, want %q", in, got, want)
		}
	}
}
