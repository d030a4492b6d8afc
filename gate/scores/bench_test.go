package scores

import (
	"bytes"
	"io"
	"runtime"
	"strconv"
	"testing"
)

// longCSV generates a long-layout CSV of systems × topics on the fly, so
// that neither the test nor the benchmark holds the file text: memory
// measured is the loader's own.
type longCSV struct {
	systems, topics int
	s, t            int
	header          bool
	line, buf       []byte // buf is the unread rest of line
}

func newLongCSV(systems, topics int) *longCSV {
	return &longCSV{systems: systems, topics: topics}
}

func (g *longCSV) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(g.buf) == 0 {
			if !g.header {
				g.header = true
				g.buf = append(g.buf, "system,topic,score\n"...)
			} else if g.s == g.systems {
				break
			} else {
				// "system0042,301,0.1234\n", written without fmt to keep the generator cheap.
				b := append(g.line[:0], "system"...)
				b = appendPadded(b, g.s)
				b = append(b, ',')
				b = strconv.AppendInt(b, int64(301+g.t), 10)
				b = append(b, ",0."...)
				b = appendPadded(b, (g.s*7919+g.t*104729)%10000)
				g.line = append(b, '\n')
				g.buf = g.line
				if g.t++; g.t == g.topics {
					g.s, g.t = g.s+1, 0
				}
			}
		}
		c := copy(p[n:], g.buf)
		n += c
		g.buf = g.buf[c:]
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// appendPadded appends v (0 ≤ v < 10000) as four digits.
func appendPadded(b []byte, v int) []byte {
	return append(b, byte('0'+v/1000%10), byte('0'+v/100%10), byte('0'+v/10%10), byte('0'+v%10))
}

func TestLongCSVGenerator(t *testing.T) {
	tab, err := Load([]string{"-"}, LoadOptions{Stdin: newLongCSV(3, 4)})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Systems) != 3 || len(tab.Topics) != 4 || !tab.Complete() || tab.Topics[3] != "304" {
		t.Fatalf("got %q × %q", tab.Systems, tab.Topics)
	}
	if got, want := tab.Scores[2][3], float64((2*7919+3*104729)%10000)/1e4; got != want {
		t.Errorf("cell = %v, want %v", got, want)
	}
}

// BenchmarkLoadLongCSV loads a generated long CSV. Metrics: lines/s, and
// heap-MB, the live heap once the table is built (after a GC) next to
// table-MB, the size of its scores (8 bytes a cell).
func BenchmarkLoadLongCSV(b *testing.B) {
	for _, size := range []struct{ systems, topics int }{{100, 1000}, {1000, 10000}} {
		b.Run(strconv.Itoa(size.systems)+"x"+strconv.Itoa(size.topics), func(b *testing.B) {
			b.ReportAllocs()
			var tab *Table
			for b.Loop() {
				var err error
				tab, err = Load([]string{"-"}, LoadOptions{Stdin: newLongCSV(size.systems, size.topics)})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			lines := float64(size.systems * size.topics)
			b.ReportMetric(lines*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/1e6, "heap-MB")
			b.ReportMetric(lines*8/1e6, "table-MB")
			runtime.KeepAlive(tab)
		})
	}
}

// jsonLines returns systems × topics JSON Lines records, as the JSONL
// generator of a typical pipeline writes them.
func jsonLines(systems, topics int) []byte {
	var b []byte
	for s := range systems {
		for t := range topics {
			b = append(b, `{"system":"system`...)
			b = appendPadded(b, s)
			b = append(b, `","topic":"`...)
			b = strconv.AppendInt(b, int64(301+t), 10)
			b = append(b, `","measure":"ndcg_cut_10","score":0.`...)
			b = appendPadded(b, (s*7919+t*104729)%10000)
			b = append(b, "}\n"...)
		}
	}
	return b
}

// BenchmarkLoadJSONL loads 100 systems × 1000 topics of JSON Lines from
// memory. Metric: lines/s.
func BenchmarkLoadJSONL(b *testing.B) {
	data := jsonLines(100, 1000)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Load([]string{"-"}, LoadOptions{Stdin: bytes.NewReader(data)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(100*1000*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkLoadRunsMeasures scores robust03's three runs (3 × 100,000
// lines) for one measure and for three in one pass: the three cost the
// reading and ranking once, and only the measures' own arithmetic more.
func BenchmarkLoadRunsMeasures(b *testing.B) {
	for _, measures := range [][]string{robust03Measures[:1], robust03Measures} {
		b.Run(strconv.Itoa(len(measures)), func(b *testing.B) {
			for b.Loop() {
				loadRobust03Runs(b, measures)
			}
		})
	}
}
