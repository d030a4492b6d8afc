package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/golden"
)

// testdata/stream.json is go test -json of testdata/stream (how to
// regenerate it: testdata/stream/stream_test.go): tests that pass, fail and
// skip, subtests, parallel tests, a TestMain's line, a failing and a passing
// package. The summary is checked whole against testdata/stream.golden.
func TestSummaryGolden(t *testing.T) {
	in, err := os.Open(filepath.Join("testdata", "stream.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	if err := summarize(in, &out); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "stream.golden"), out.Bytes())
}

// A line that is not an event passes through; a stream without tests ends
// without a summary.
func TestSummaryPassesOtherLines(t *testing.T) {
	var out bytes.Buffer
	in := "go: downloading example.com/x v1.0.0\n" +
		`{"Action":"output","Package":"p","Output":"?   \tp\t[no test files]\n"}` + "\n" +
		`{"Action":"skip","Package":"p"}` + "\n"
	if err := summarize(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	if want := "go: downloading example.com/x v1.0.0\n?   \tp\t[no test files]\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

func TestSkipReason(t *testing.T) {
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{"=== RUN   TestA\n", "    a_test.go:5: why\n", "--- SKIP: TestA (0.00s)\n"}, "a_test.go:5: why"},
		{[]string{"=== RUN   TestA\n", "    a_test.go:5: why\n", "        and more\n", "--- SKIP: TestA (0.00s)\n"}, "a_test.go:5: why / and more"},
		{[]string{"=== RUN   TestA\n", "--- SKIP: TestA (0.00s)\n"}, "(no reason given)"},
		{nil, "(no reason given)"},
	} {
		if got := skipReason(c.lines); got != c.want {
			t.Errorf("skipReason(%q) = %q, want %q", c.lines, got, c.want)
		}
	}
}

// FuzzSummarize: any input, event or not, is summarized without a panic or
// an error, and a line that is not an event is passed through.
func FuzzSummarize(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "stream.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data))
	f.Add(`{"Action":"skip","Package":"p","Test":"T"}` + "\n")
	f.Add(`{"Action":"output","Package":"p","Test":"T/a/b","Output":"        x\n"}` + "\nnot json\n")
	f.Fuzz(func(t *testing.T, in string) {
		var out bytes.Buffer
		if err := summarize(strings.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(in, "\n") {
			if line != "" && line[0] != '{' && !strings.Contains(out.String(), line) {
				t.Fatalf("line %q not passed through", line)
			}
		}
	})
}
