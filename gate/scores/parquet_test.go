package scores

import (
	"bytes"
	"errors"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/riskgate/riskgate/internal/inputerr"
	pqt "github.com/riskgate/riskgate/internal/parquettest"
)

// writeParquet writes a Parquet file with parquettest.Write (an independent
// writer, parquet-go's), failing the test on error.
func writeParquet(t testing.TB, path string, cols []pqt.Column, rows [][]any, rowsPerGroup int) {
	t.Helper()
	var b bytes.Buffer
	if err := pqt.Write(&b, cols, rows, rowsPerGroup); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The long layout as DuckDB's COPY ... TO 'x.parquet' writes a per-query
// table (https://duckdb.org/docs/data/parquet/overview): integer topic ids
// (INT32), string systems and measures, DOUBLE scores; several row groups.
// It reads as the same Set as the long CSV of the same cells.
func TestLoadParquetLong(t *testing.T) {
	inDir(t, map[string]string{
		"long.csv": "system,topic,measure,score\n" +
			"bm25,301,map,0.5\nbm25,301,ndcg_cut_10,0.625\n" +
			"dense,301,map,0.25\ndense,301,ndcg_cut_10,0.75\n" +
			"bm25,302,map,0.125\nbm25,302,ndcg_cut_10,1\n" +
			"dense,302,map,0\ndense,302,ndcg_cut_10,0.375\n",
	})
	cols := []pqt.Column{{Name: "system", Node: pqt.String}, {Name: "topic", Node: pqt.Int32}, {Name: "measure", Node: pqt.String}, {Name: "score", Node: pqt.Double}}
	writeParquet(t, "long.parquet", cols, [][]any{
		{"bm25", int32(301), "map", 0.5}, {"bm25", int32(301), "nDCG@10", 0.625},
		{"dense", int32(301), "map", 0.25}, {"dense", int32(301), "ndcg_cut.10", 0.75},
		{"bm25", int32(302), "map", 0.125}, {"bm25", int32(302), "ndcg_cut_10", 1.0},
		{"dense", int32(302), "AP", 0.0}, {"dense", int32(302), "ndcg_cut_10", 0.375},
	}, 3)
	want, _, _, err := LoadSources([]string{"long.csv"}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []Format{Auto, Parquet} {
		got, _, src, err := LoadSources([]string{"long.parquet"}, LoadOptions{Format: format})
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if d := sameSet(got, want); d != "" {
			t.Error(d)
		}
		fi, _ := os.Stat("long.parquet")
		if src[0].Bytes != fi.Size() || src[0].SHA256 == "" {
			t.Errorf("source %+v: want the digest of its %d bytes", src[0], fi.Size())
		}
	}
	// Selecting a measure reads only it.
	tab, err := Load([]string{"long.parquet"}, LoadOptions{Measures: []string{"map"}})
	if err != nil || !slices.Equal(cells(tab), []string{"bm25/301=0.5", "bm25/302=0.125", "dense/301=0.25", "dense/302=0"}) {
		t.Errorf("map: %v %v", err, tab)
	}
}

// The wide layout as pandas' DataFrame.to_parquet and BigQuery's EXPORT
// DATA (format PARQUET) write a per-query table of one column per measure
// (https://pandas.pydata.org/docs/reference/api/pandas.DataFrame.to_parquet.html,
// https://cloud.google.com/bigquery/docs/exporting-data#parquet_export_details):
// nullable columns (a null is a missing cell), FLOAT, INT64, DECIMAL as
// scaled INT32 (DuckDB's DECIMAL(9,4)) and as big-endian bytes (BigQuery's
// NUMERIC, DECIMAL(38,9)), pandas' index column ignored.
func TestLoadParquetWide(t *testing.T) {
	inDir(t, map[string]string{
		"wide.csv": "query_id,system,nDCG@10,R@100,RR,latency_ms,cost\n" +
			"301,bm25,0.5,0.75,1,12,0.25\n" +
			"301,dense,0.625,0.5,0.5,30,-0.5\n" +
			"302,bm25,0.25,,0.25,11,1.5\n" +
			"302,dense,0.375,1,,29,2\n",
	})
	numeric := parquet.FixedLenByteArrayType(16)
	cols := []pqt.Column{
		{Name: "__index_level_0__", Node: pqt.Int64},
		{Name: "query_id", Node: pqt.String},
		{Name: "system", Node: parquet.Optional(pqt.String)},
		{Name: "nDCG@10", Node: parquet.Optional(pqt.Double)},
		{Name: "R@100", Node: parquet.Optional(pqt.Float)},
		{Name: "RR", Node: parquet.Optional(parquet.Decimal(4, 9, parquet.Int32Type))},
		{Name: "latency_ms", Node: pqt.Int64},
		{Name: "cost", Node: parquet.Decimal(9, 38, numeric)},
	}
	dec := func(unscaled int64) []byte { // 16-byte big-endian two's complement
		b := make([]byte, 16)
		for i := 15; i >= 0; i-- {
			b[i] = byte(unscaled)
			unscaled >>= 8
		}
		return b
	}
	writeParquet(t, "wide.parquet", cols, [][]any{
		{int64(0), "301", "bm25", 0.5, float32(0.75), int32(10000), int64(12), dec(250000000)},
		{int64(1), "301", "dense", 0.625, float32(0.5), int32(5000), int64(30), dec(-500000000)},
		{int64(2), "302", "bm25", 0.25, nil, int32(2500), int64(11), dec(1500000000)},
		{int64(3), "302", "dense", 0.375, float32(1), nil, int64(29), dec(2000000000)},
	}, 0)
	// parquet-go's writer orders a file's columns by name, so the measures
	// are named to fix the Set's order.
	order := LoadOptions{Measures: []string{"ndcg_cut_10", "recall_100", "recip_rank", "latency_ms", "cost"}}
	want, _, _, err := LoadSources([]string{"wide.csv"}, order)
	if err != nil {
		t.Fatal(err)
	}
	got, _, _, err := LoadSources([]string{"wide.parquet"}, order)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameSet(got, want); d != "" {
		t.Error(d)
	}
	// One file per system: no system column, --system-per-file names it.
	writeParquet(t, "bm25.parquet", []pqt.Column{{Name: "qid", Node: pqt.Int64}, {Name: "AP", Node: pqt.Double}},
		[][]any{{int64(301), 0.5}, {int64(302), 0.25}}, 0)
	tab, err := Load([]string{"bm25.parquet"}, LoadOptions{SystemPerFile: true})
	if err != nil || tab.Measure != "map" || !slices.Equal(cells(tab), []string{"bm25/301=0.5", "bm25/302=0.25"}) {
		t.Errorf("system per file: %v %v", err, tab)
	}
}

// Bad Parquet files: one line naming the file (and the row when there is
// one) and what was expected, as an *inputerr.Error (exit status 2).
func TestLoadParquetErrors(t *testing.T) {
	inDir(t, map[string]string{"scores.csv": "system,topic,score\nbm25,301,0.5\n"})
	long := []pqt.Column{{Name: "system", Node: pqt.String}, {Name: "topic", Node: pqt.String}, {Name: "score", Node: parquet.Optional(pqt.Double)}}
	writeParquet(t, "good.parquet", long, [][]any{{"bm25", "301", 0.5}, {"bm25", "302", 0.25}}, 0)
	good, _ := os.ReadFile("good.parquet")
	os.WriteFile("truncated.parquet", good[:len(good)-9], 0o644)
	os.WriteFile("magic.parquet", []byte("PAR1"), 0o644)
	writeParquet(t, "null.parquet", long, [][]any{{"bm25", "301", 0.5}, {"bm25", "302", nil}}, 0)
	writeParquet(t, "nan.parquet", long, [][]any{{"bm25", "301", 0.5}, {"dense", "301", 0.0 / zero()}}, 0)
	writeParquet(t, "notopic.parquet", []pqt.Column{{Name: "system", Node: pqt.String}, {Name: "score", Node: pqt.Double}}, [][]any{{"bm25", 0.5}}, 0)
	writeParquet(t, "text.parquet", []pqt.Column{{Name: "system", Node: pqt.String}, {Name: "topic", Node: pqt.String}, {Name: "score", Node: pqt.String}}, [][]any{{"bm25", "301", "0.5"}}, 0)
	writeParquet(t, "bool.parquet", []pqt.Column{{Name: "system", Node: pqt.String}, {Name: "topic", Node: pqt.String}, {Name: "ndcg", Node: pqt.Boolean}}, [][]any{{"bm25", "301", true}}, 0)
	writeParquet(t, "nullid.parquet", []pqt.Column{{Name: "system", Node: parquet.Optional(pqt.String)}, {Name: "topic", Node: pqt.String}, {Name: "score", Node: pqt.Double}}, [][]any{{"bm25", "301", 0.5}, {nil, "302", 0.5}}, 0)
	writeParquet(t, "dup.parquet", long, [][]any{{"bm25", "301", 0.5}, {"bm25", "301", 0.25}}, 0)
	for _, c := range []struct {
		path   string
		format Format
		want   string
	}{
		{"scores.csv", Parquet, "scores.csv: not a readable Parquet file"},
		{"truncated.parquet", Auto, "truncated.parquet: not a readable Parquet file"},
		{"magic.parquet", Auto, "magic.parquet: not a readable Parquet file"},
		{"null.parquet", Auto, `null.parquet:2: row 2: column "score" is null; expected a score`},
		{"nan.parquet", Auto, `nan.parquet:2: row 2: column "score": score is NaN; expected a finite number`},
		{"notopic.parquet", Auto, "notopic.parquet: no topic column"},
		{"text.parquet", Auto, `text.parquet: column "score" is of type`},
		{"bool.parquet", Auto, `bool.parquet: column "ndcg" is of type`},
		{"nullid.parquet", Auto, `nullid.parquet:2: row 2: column "system" is null`},
		{"dup.parquet", Auto, "dup.parquet:2:"},
	} {
		_, _, _, err := LoadSources([]string{c.path}, LoadOptions{Format: c.format})
		var ie *inputerr.Error
		if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want an input error starting %q", c.path, err, c.want)
		}
	}
}

func zero() float64 { return 0 }

// --max-memory charges a Parquet file's cells (rows × measure columns ×
// LoadCellBytes) before decoding any: 2,000 rows of 3 measures are 240 kB.
func TestLoadParquetCharged(t *testing.T) {
	inDir(t, nil)
	cols := []pqt.Column{{Name: "topic", Node: pqt.Int32}, {Name: "system", Node: pqt.String}, {Name: "a", Node: pqt.Double}, {Name: "b", Node: pqt.Double}, {Name: "c", Node: pqt.Double}}
	var rows [][]any
	for i := range 2000 {
		rows = append(rows, []any{int32(i), "s", 0.5, 0.5, 0.5})
	}
	writeParquet(t, "big.parquet", cols, rows, 0)
	_, _, _, err := LoadSources([]string{"big.parquet"}, LoadOptions{MaxMemory: 200e3})
	var me *MemoryError
	if !errors.As(err, &me) || me.Need < 240e3 {
		t.Fatalf("%v; want a MemoryError of at least 240 kB", err)
	}
	if _, _, _, err := LoadSources([]string{"big.parquet"}, LoadOptions{MaxMemory: 1e6}); err != nil {
		t.Fatal(err)
	}
}

// parquetSeed is a valid file for the fuzz corpus.
func parquetSeed(f *testing.F, cols []pqt.Column, rows [][]any, rowsPerGroup int) {
	var b bytes.Buffer
	if err := pqt.Write(&b, cols, rows, rowsPerGroup); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
}

// FuzzParquet feeds bytes to the Parquet loader under a 4 MB budget (a
// few bytes of run-length encoding can hold 100,000 cells): every
// outcome is a well-formed table or a one-line error naming the input, never
// a panic; a table loaded survives being written as Parquet again and read
// back.
func FuzzParquet(f *testing.F) {
	parquetSeed(f, []pqt.Column{{Name: "system", Node: pqt.String}, {Name: "topic", Node: pqt.Int32}, {Name: "measure", Node: pqt.String}, {Name: "score", Node: parquet.Optional(pqt.Double)}},
		[][]any{{"bm25", int32(301), "map", 0.5}, {"dense", int32(301), "map", 0.25}, {"bm25", int32(302), "map", nil}}, 2)
	parquetSeed(f, []pqt.Column{{Name: "query_id", Node: pqt.String}, {Name: "run", Node: pqt.String}, {Name: "nDCG@10", Node: parquet.Optional(pqt.Float)},
		{Name: "RR", Node: parquet.Decimal(4, 9, parquet.Int32Type)}},
		[][]any{{"q1", "a", float32(0.5), int32(10000)}, {"q1", "b", nil, int32(5000)}}, 0)
	parquetSeed(f, []pqt.Column{{Name: "topic", Node: pqt.Int64}, {Name: "system", Node: pqt.String}, {Name: "value", Node: pqt.Int64}},
		[][]any{{int64(1), "a", int64(3)}}, 0)
	f.Add([]byte("PAR1"))
	f.Add([]byte("PAR1\x00\x00\x00\x00PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		opt := LoadOptions{Format: Parquet, MaxMemory: 4 << 20}
		tab, err := loadBytes(data, opt)
		checkOutcome(t, tab, err)
		if err != nil || len(tab.Systems)*len(tab.Topics) > 10000 { // writing row by row is slow
			return
		}
		cols := []pqt.Column{{Name: "system", Node: pqt.String}, {Name: "topic", Node: pqt.String}, {Name: "score", Node: pqt.Double}}
		if tab.Measure != "" {
			cols = append(cols, pqt.Column{Name: "measure", Node: pqt.String})
		}
		var rows [][]any
		for s, row := range tab.Scores {
			for i, v := range row {
				if math.IsNaN(v) {
					continue
				}
				r := []any{tab.Systems[s], tab.Topics[i], v}
				if tab.Measure != "" {
					r = append(r, tab.Measure)
				}
				rows = append(rows, r)
			}
		}
		var b bytes.Buffer
		if err := pqt.Write(&b, cols, rows, 0); err != nil {
			t.Fatal(err)
		}
		again, err := loadBytes(b.Bytes(), opt)
		if err != nil {
			t.Fatalf("written back: %v", err)
		}
		sameTable(t, tab, again)
	})
}

// BenchmarkLoadParquet loads 100 systems × 1,000 topics in the long layout
// (DOUBLE scores, string ids) from standard input, beside
// BenchmarkLoadLongCSV's 100x1000 of the same cells.
func BenchmarkLoadParquet(b *testing.B) {
	cols := []pqt.Column{{Name: "system", Node: pqt.String}, {Name: "topic", Node: pqt.Int32}, {Name: "score", Node: pqt.Double}}
	var rows [][]any
	for s := range 100 {
		for t := range 1000 {
			rows = append(rows, []any{"system" + strconv.Itoa(s), int32(301 + t), float64((s*7919+t*104729)%10000) / 1e4})
		}
	}
	var buf bytes.Buffer
	if err := pqt.Write(&buf, cols, rows, 0); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Load([]string{"-"}, LoadOptions{Stdin: bytes.NewReader(data)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(1e5*float64(b.N)/b.Elapsed().Seconds(), "cells/s")
}
