package ntcir

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The reference: NTCIREVAL's own outputs on pyNTCIREVAL's published test
// data (testdata/pyntcireval/README.md names the source and the commands).

func refPath(name string) string { return filepath.Join("testdata", "pyntcireval", name) }

func readLines(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(refPath(name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// parseLevel reads NTCIREVAL's "L2".
func parseLevel(t *testing.T, s string) int32 {
	t.Helper()
	v, err := strconv.Atoi(strings.TrimPrefix(s, "L"))
	if err != nil || !strings.HasPrefix(s, "L") {
		t.Fatalf("bad level %q", s)
	}
	return int32(v)
}

// sampleRel returns the judgments of sample.rel: document → level, and
// the count per level.
func sampleRel(t *testing.T) (map[string]int32, []int64) {
	levels := map[string]int32{}
	var judged []int64
	for _, line := range readLines(t, "sample.rel") {
		doc, lv, _ := strings.Cut(line, " ")
		l := parseLevel(t, lv)
		levels[doc] = l
		for int(l) >= len(judged) {
			judged = append(judged, 0)
		}
		judged[l]++
	}
	return levels, judged
}

// readLab reads a .lab file: each document and its level (-1 when the
// line has none, an unjudged document).
func readLab(t *testing.T, name string) []int32 {
	var ranked []int32
	for _, line := range readLines(t, name) {
		_, lv, ok := strings.Cut(line, " ")
		if !ok {
			ranked = append(ranked, -1)
			continue
		}
		ranked = append(ranked, parseLevel(t, lv))
	}
	return ranked
}

// readNev reads ntcir_eval compute's output: name → printed value, in order.
func readNev(t *testing.T, name string) (names, values []string) {
	for _, line := range readLines(t, name) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("%s: bad line %q", name, line)
		}
		names, values = append(names, n), append(values, strings.TrimSpace(v))
	}
	return names, values
}

// Labelling sample.res against sample.rel gives NTCIREVAL's label output,
// and dropping the unjudged document gives its label -j output.
func TestNTCIREVALLabels(t *testing.T) {
	levels, _ := sampleRel(t)
	var got, condensed []int32
	for _, doc := range readLines(t, "sample.res") {
		l, ok := levels[doc]
		if !ok {
			l = -1
		}
		got = append(got, l)
		if ok {
			condensed = append(condensed, l)
		}
	}
	if want := readLab(t, "sample.lab"); !slices.Equal(got, want) {
		t.Errorf("labels %v, NTCIREVAL's %v", got, want)
	}
	if want := readLab(t, "sample-j.lab"); !slices.Equal(condensed, want) {
		t.Errorf("condensed labels %v, NTCIREVAL's %v", condensed, want)
	}
}

// Every value ntcir_eval compute prints equals ours printed with %.4f, for
// the plain list with two gain vectors and two cutoffs, and for the
// condensed list (our Condensed on sample.lab against NTCIREVAL's compute
// of its label -j output).
func TestNTCIREVALReference(t *testing.T) {
	_, judged := sampleRel(t)
	ranked := readLab(t, "sample.lab")
	cases := []struct {
		out       string
		gains     []float64
		condensed bool
	}{
		{"res_test_compute.txt", []float64{1, 2, 3}, false},
		{"res_test_compute_grade.txt", []float64{1, 4, 9}, false},
		{"res_test_compute_cutoff.txt", []float64{1, 2, 3}, false},
		{"res_test_compute_label_j.txt", []float64{1, 2, 3}, true},
	}
	var s Scorer
	covered := map[Kind]int{}
	for _, c := range cases {
		s.Reset(ranked, judged, c.gains)
		names, values := readNev(t, c.out)
		if len(names) != int(numKinds) {
			t.Errorf("%s: %d values, expected one per measure (%d)", c.out, len(names), numKinds)
		}
		for i, name := range names {
			m, err := Parse(name)
			if err != nil {
				t.Errorf("%s: NTCIREVAL's name %q: %v", c.out, name, err)
				continue
			}
			m.Condensed = c.condensed
			got := strconv.FormatFloat(s.Value(m), 'f', 4, 64)
			if got != values[i] {
				t.Errorf("%s: %s = %s, NTCIREVAL prints %s", c.out, m, got, values[i])
			}
			covered[m.Kind]++
		}
	}
	for k := range numKinds {
		if covered[k] < len(cases) {
			t.Errorf("%s checked in %d of %d outputs", New(k, 10), covered[k], len(cases))
		}
	}
}
