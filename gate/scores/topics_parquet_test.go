package scores

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	pqt "github.com/riskgate/riskgate/internal/parquettest"
)

// The same topics file as CSV and as Parquet (integer topics, string and
// nullable-string segments, DOUBLE or DECIMAL weights, in several row groups)
// gives the same attributes; a Parquet file is known by its bytes whatever
// its name.
func TestTopicAttributesParquetSameAsCSV(t *testing.T) {
	inDir(t, map[string]string{
		"topics.csv": "topic,band,origin,weight\n301,head,trec6-8,0.5\n601,tail,robust03,0.25\n651,tail,robust04,0.125\n302,torso,trec6-8,0\n",
	})
	want, err := LoadTopicAttributes("topics.csv")
	if err != nil {
		t.Fatal(err)
	}
	type row = []any
	for _, c := range []struct {
		name string
		cols []pqt.Column
		rows [][]any
	}{
		{"double.parquet", []pqt.Column{{Name: "topic", Node: pqt.Int32}, {Name: "band", Node: pqt.String}, {Name: "origin", Node: pqt.String}, {Name: "weight", Node: pqt.Double}},
			[][]any{row{int32(301), "head", "trec6-8", 0.5}, row{int32(601), "tail", "robust03", 0.25}, row{int32(651), "tail", "robust04", 0.125}, row{int32(302), "torso", "trec6-8", 0.0}}},
		{"decimal.data", []pqt.Column{{Name: "qid", Node: pqt.String}, {Name: "band", Node: parquet.Optional(pqt.String)}, {Name: "origin", Node: pqt.String},
			{Name: "Weight", Node: parquet.Decimal(3, 18, parquet.Int64Type)}},
			[][]any{row{"301", "head", "trec6-8", int64(500)}, row{"601", "tail", "robust03", int64(250)}, row{"651", "tail", "robust04", int64(125)}, row{"302", "torso", "trec6-8", int64(0)}}},
	} {
		writeParquet(t, c.name, c.cols, c.rows, 3)
		got, err := LoadTopicAttributes(c.name)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got.File = want.File
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n%+v\nCSV:\n%+v", c.name, got, want)
		}
	}
}

// Bad Parquet topics files: the CSV form's errors, at file:row with the row
// named; a column of the wrong type or a file that is no Parquet file,
// one line naming the file.
func TestTopicAttributesParquetErrors(t *testing.T) {
	inDir(t, map[string]string{"csv.parquet": "topic,origin\n301,a\n"})
	str, optStr, dbl := pqt.String, parquet.Optional(pqt.String), parquet.Optional(pqt.Double)
	type row = []any
	for _, c := range []struct {
		cols []pqt.Column
		rows [][]any
		want string
	}{
		{[]pqt.Column{{Name: "topic", Node: str}, {Name: "origin", Node: str}}, [][]any{row{"301", "a"}, row{"302", "a"}, row{"301", "b"}},
			`t.parquet:3: row 3: topic "301" is given twice (first at row 1); expected one row per topic`},
		{[]pqt.Column{{Name: "topic", Node: str}, {Name: "origin", Node: optStr}}, [][]any{row{"301", "a"}, row{"302", nil}},
			`t.parquet:2: row 2: empty segment of topic "302" in column 1 ("origin"); expected a segment name`},
		{[]pqt.Column{{Name: "topic", Node: optStr}, {Name: "origin", Node: str}}, [][]any{row{nil, "a"}},
			`t.parquet:1: row 1: empty topic; expected a topic id in column 2`},
		{[]pqt.Column{{Name: "topic", Node: str}, {Name: "origin", Node: str}, {Name: "weight", Node: dbl}}, [][]any{row{"301", "a", -0.5}},
			`t.parquet:1: row 1: weight of topic "301" is -0.5; expected a finite number ≥ 0`},
		{[]pqt.Column{{Name: "topic", Node: str}, {Name: "origin", Node: str}, {Name: "weight", Node: dbl}}, [][]any{row{"301", "a", 1.0}, row{"302", "a", nil}},
			`t.parquet:2: row 2: weight of topic "302": empty weight; expected a finite number ≥ 0`},
		{[]pqt.Column{{Name: "topic", Node: str}, {Name: "origin", Node: str}, {Name: "weight", Node: str}}, [][]any{row{"301", "a", "x"}},
			`t.parquet:1: row 1: weight of topic "301": weight "x" is not a number; expected a finite number ≥ 0`},
		{[]pqt.Column{{Name: "topic", Node: str}, {Name: "origin", Node: str}, {Name: "weight", Node: pqt.Double}}, [][]any{row{"301", "a", 0.0}},
			`t.parquet: the weights sum to 0; expected a positive finite total`},
		{[]pqt.Column{{Name: "topic", Node: str}, {Name: "origin", Node: pqt.Double}}, [][]any{row{"301", 1.5}},
			`t.parquet: column "origin" is of type DOUBLE; expected strings or integers`},
		{[]pqt.Column{{Name: "topic", Node: str}, {Name: "origin", Node: str}, {Name: "weight", Node: pqt.Boolean}}, [][]any{row{"301", "a", true}},
			`t.parquet: column "weight" is of type BOOLEAN; expected numbers (DOUBLE, FLOAT, integers or DECIMAL)`},
		{[]pqt.Column{{Name: "id", Node: str}, {Name: "origin", Node: str}}, [][]any{row{"301", "a"}},
			`t.parquet: no topic column (columns "id,origin"); expected ` + topicsHelp},
		{[]pqt.Column{{Name: "topic", Node: str}, {Name: "weight", Node: pqt.Double}}, [][]any{row{"301", 1.0}},
			`t.parquet: no segment column (columns "topic,weight"); expected ` + topicsHelp},
		{[]pqt.Column{{Name: "topic", Node: str}, {Name: "origin", Node: str}}, nil,
			`t.parquet: no topics in the file; expected at least one row after the header`},
	} {
		writeParquet(t, "t.parquet", c.cols, c.rows, 2)
		_, err := LoadTopicAttributes("t.parquet")
		if err == nil || err.Error() != c.want {
			t.Errorf("%v %v: %v\nwant %s", c.cols, c.rows, err, c.want)
		}
	}
	_, err := LoadTopicAttributes("csv.parquet")
	if err == nil || !strings.HasPrefix(err.Error(), "csv.parquet: not a readable Parquet file (") {
		t.Errorf("a CSV file named .parquet: %v", err)
	}
}

// FuzzTopicAttributesParquet feeds bytes to the Parquet topics reader:
// every outcome is attributes whose dimensions give every topic a segment,
// or a one-line error naming the file, never a panic.
func FuzzTopicAttributesParquet(f *testing.F) {
	type row = []any
	parquetSeed(f, []pqt.Column{{Name: "topic", Node: pqt.Int32}, {Name: "origin", Node: pqt.String}, {Name: "weight", Node: parquet.Optional(pqt.Double)}},
		[][]any{row{int32(301), "trec6-8", 0.5}, row{int32(601), "robust03", nil}, row{int32(651), "robust04", 0.25}}, 2)
	parquetSeed(f, []pqt.Column{{Name: "query_id", Node: pqt.String}, {Name: "band", Node: parquet.Optional(pqt.String)}, {Name: "locale", Node: pqt.Int64},
		{Name: "weight", Node: parquet.Decimal(2, 9, parquet.Int32Type)}},
		[][]any{row{"q1", "head", int64(1), int32(50)}, row{"q2", nil, int64(2), int32(25)}}, 0)
	parquetSeed(f, []pqt.Column{{Name: "topic", Node: pqt.String}, {Name: "origin", Node: pqt.String}}, [][]any{row{"301", "a"}, row{"301", "b"}}, 0)
	f.Add([]byte("PAR1"))
	f.Add([]byte("PAR1\x00\x00\x00\x00PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := readTopicAttributesParquet(bytes.NewReader(data), "t.parquet")
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "t.parquet") {
				t.Fatalf("error is not one line naming the file: %q", msg)
			}
			return
		}
		for _, d := range a.Dimensions {
			if len(a.Segment[d]) != len(a.Topics) {
				t.Fatalf("dimension %s: %d segments for %d topics", d, len(a.Segment[d]), len(a.Topics))
			}
		}
		if a.Weights != nil && len(a.Weights) != len(a.Topics) {
			t.Fatalf("%d weights for %d topics", len(a.Weights), len(a.Topics))
		}
	})
}

// BenchmarkTopicAttributes reads a topics file of 100,000 topics with two
// dimensions and a weight, as CSV and as Parquet (DOUBLE weights, string
// ids), from memory.
func BenchmarkTopicAttributes(b *testing.B) {
	const n = 100_000
	var csvText bytes.Buffer
	csvText.WriteString("topic,band,locale,weight\n")
	cols := []pqt.Column{{Name: "topic", Node: pqt.String}, {Name: "band", Node: pqt.String}, {Name: "locale", Node: pqt.String}, {Name: "weight", Node: pqt.Double}}
	var rows [][]any
	bands, locales := []string{"head", "torso", "tail"}, []string{"en", "de", "fr", "ja"}
	for i := range n {
		topic, w := "q"+strconv.Itoa(i), 1/float64(i+1)
		band, locale := bands[i%3], locales[i%4]
		csvText.WriteString(topic + "," + band + "," + locale + "," + strconv.FormatFloat(w, 'g', -1, 64) + "\n")
		rows = append(rows, []any{topic, band, locale, w})
	}
	var pq bytes.Buffer
	if err := pqt.Write(&pq, cols, rows, 0); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		file string
	}{{"csv", csvText.Bytes(), "t.csv"}, {"parquet", pq.Bytes(), "t.parquet"}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				if _, err := readTopicAttributes(bytes.NewReader(c.data), c.file); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(n*float64(b.N)/b.Elapsed().Seconds(), "topics/s")
		})
	}
}
