package gate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/urfave/cli/v3"
)

// The shared flags parse, "-" reads the command's stdin, and what alignment
// changed is noted on the error stream.
func TestInputOptionsFromCommandLine(t *testing.T) {
	t.Parallel()
	in := strings.NewReader("system,topic,score\nA,1,0.5\nA,2,0.6\nB,1,0.7\n")
	var errw bytes.Buffer
	s := &streams{In: in, Out: &bytes.Buffer{}, Err: &errw}
	o := newInputOptions(s)
	var tab *scores.Table
	var align scores.Alignment
	cmd := &cli.Command{
		Name:  "x",
		Flags: o.flags(),
		Action: func(_ context.Context, c *cli.Command) error {
			o.Paths = c.Args().Slice()
			var err error
			tab, align, err = o.load(s.Err)
			return err
		},
	}
	if err := cmd.Run(context.Background(), []string{"x", "--input-format", "csv-long", "--unnamed-measure", "map", "--topics", "zero", "-"}); err != nil {
		t.Fatal(err)
	}
	if tab.Measure != "map" || !slices.Equal(tab.Systems, []string{"A", "B"}) || tab.Scores[1][1] != 0 || len(align.FilledCells) != 1 {
		t.Errorf("got %+v %+v", tab, align)
	}
	if want := "riskgate: note: scored 1 missing cell(s) as 0 (--topics zero): \"B\" on \"2\"\n"; errw.String() != want {
		t.Errorf("note %q, want %q", errw.String(), want)
	}
}

func TestInputOptionsDefaultsAndErrors(t *testing.T) {
	t.Parallel()
	o := newInputOptions(&streams{In: strings.NewReader("")})
	cmd := &cli.Command{Name: "x", Flags: o.flags(), Action: func(context.Context, *cli.Command) error { return nil }}
	if err := cmd.Run(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if o.Format.Value != "auto" || o.Topics.Value != "intersect" || len(o.Measures.Value) != 0 || o.Qrels.Value != "" {
		t.Errorf("defaults %+v", o)
	}
	cases := []struct {
		o    inputOptions
		want string
	}{
		{inputOptions{}, "no INPUT given: name score files (CSV, JSON Lines, trec_eval -q output), TREC runs with --qrels, or - for standard input"},
		{inputOptions{Paths: []string{"-"}, Format: optional[string]{Value: "xml"}, Topics: optional[string]{Value: "intersect"}}, `--input-format "xml": expected one of auto, run, trec_eval, ir_measures, csv-long, csv-wide, csv-measures, jsonl, parquet`},
		{inputOptions{Paths: []string{"-"}, Format: optional[string]{Value: "auto"}, Topics: optional[string]{Value: "all"}}, `--topics "all": expected one of intersect, zero, error, keep`},
		{inputOptions{Paths: []string{"-"}, Topics: optional[string]{Value: "error"}, Stdin: strings.NewReader("topic,A,B\n1,0.5,\n")},
			`system "B" has no scores (--topics error)`},
		{inputOptions{Paths: []string{"-"}, Topics: optional[string]{Value: "intersect"}, Stdin: strings.NewReader("")},
			`<stdin>: the file is empty; expected a CSV header, a JSON object, trec_eval -q output (measure, topic, value separated by tabs) or a TREC run line (topic Q0 docno rank score run_id)`},
	}
	for _, c := range cases {
		_, _, err := c.o.load(nil)
		if err == nil || err.Error() != c.want {
			t.Errorf("%+v: error %v, want %s", c.o, err, c.want)
		}
	}
}

// The topics-file flag group reads and checks a topics file (issue 26 item 1).
func TestTopicsFileOptions(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "topics.csv")
	if err := os.WriteFile(path, []byte("topic,origin\n301,trec\n601,robust03\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := &topicsFileOptions{}
	cmd := &cli.Command{Name: "x", Flags: o.flags(), Action: func(context.Context, *cli.Command) error { return nil }}
	if err := cmd.Run(context.Background(), []string{"x", "--topics-file", path}); err != nil {
		t.Fatal(err)
	}
	a, warn, err := o.load([]string{"301"})
	if err != nil || a.Segment["origin"]["601"] != "robust03" || len(warn) != 1 {
		t.Errorf("%v %v %q", err, a, warn)
	}
	if _, _, err := o.load([]string{"301", "999"}); err == nil || !strings.Contains(err.Error(), `"999"`) {
		t.Errorf("missing topic: %v", err)
	}
	o.Unsegmented = true
	if a, _, err := o.load([]string{"999"}); err != nil || a.Segment["origin"]["999"] != "unsegmented" {
		t.Errorf("unsegmented: %v", err)
	}
}
