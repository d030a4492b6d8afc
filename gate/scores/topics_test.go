package scores

import (
	"slices"
	"strings"
	"testing"
)

// A topics file: a topic column, segment columns, a weight column; CSV or TSV.
// The rb04 origins are issue 26's: 301–450 TREC 6–8, 601–650 Robust 2003,
// 651–700 Robust 2004.
func TestLoadTopicAttributes(t *testing.T) {
	inDir(t, map[string]string{
		"topics.csv": "topic,origin,traffic,weight\n301,trec6-8,head,0.5\n601,robust03,tail,0.25\n651,robust04,tail,0.25\n",
		"topics.tsv": "qid\torigin\n301\ttrec6-8\n601\trobust03\n",
	})
	a, err := LoadTopicAttributes("topics.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Dimensions, []string{"origin", "traffic"}) || !slices.Equal(a.Topics, []string{"301", "601", "651"}) ||
		a.Segment["origin"]["601"] != "robust03" || a.Segment["traffic"]["301"] != "head" || a.Weights["651"] != 0.25 {
		t.Errorf("%+v", a)
	}
	warn, err := a.Cover([]string{"301", "601"}, false)
	if err != nil || len(warn) != 1 || warn[0] != `1 topic(s) of topics.csv have no scores: "651"` {
		t.Errorf("cover: %v %q", err, warn)
	}
	_, err = a.Cover([]string{"301", "602", "603"}, false)
	if want := `topics.csv: 2 topic(s) of the scores are not in the topics file: "602", "603"; expected a row for each (or --unsegmented to put them in segment "unsegmented")`; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
	warn, err = a.Cover([]string{"301", "602"}, true)
	if err != nil || a.Segment["origin"]["602"] != Unsegmented || a.Weights["602"] != 0 || !strings.Contains(warn[0], `in segment "unsegmented": "602" (weight 0)`) {
		t.Errorf("unsegmented: %v %q", err, warn)
	}
	b, err := LoadTopicAttributes("topics.tsv")
	if err != nil || b.Weights != nil || b.Segment["origin"]["601"] != "robust03" {
		t.Errorf("tsv: %v %+v", err, b)
	}
}

// Bad topics files: one line naming file:line and what was expected.
func TestLoadTopicAttributesErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"topic,origin\n301,a\n301,b\n", `t.csv:3: topic "301" is given twice (first at line 2); expected one row per topic`},
		{"topic,origin\n301,\n", `t.csv:2: empty segment of topic "301" in column 2 ("origin"); expected a segment name`},
		{"topic,origin,weight\n301,a,x\n", `t.csv:2: weight of topic "301": weight "x" is not a number; expected a finite number ≥ 0`},
		{"topic,origin,weight\n301,a,-0.5\n", `t.csv:2: weight of topic "301" is -0.5; expected a finite number ≥ 0`},
		{"topic,origin,weight\n301,a,0\n", `t.csv: the weights sum to 0; expected a positive finite total`},
		{"id,origin\n301,a\n", `t.csv:1: no topic column in the header ("id,origin"); expected ` + topicsHelp},
		{"topic,weight\n301,1\n", `t.csv:1: no segment column in the header ("topic,weight"); expected ` + topicsHelp},
		{"topic,origin\n301\n", `t.csv:2: the row has a different number of fields from the header's 2 (topic,origin); expected one per column`},
		{"topic,origin\n", `t.csv: no topics in the file; expected at least one row after the header`},
		{"", `t.csv: the file is empty; expected ` + topicsHelp},
	} {
		inDir(t, map[string]string{"t.csv": c.text})
		_, err := LoadTopicAttributes("t.csv")
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: %v\nwant %s", c.text, err, c.want)
		}
	}
	if _, err := LoadTopicAttributes("nope.csv"); err == nil || err.Error() != "nope.csv: cannot open: no such file or directory" {
		t.Errorf("absent: %v", err)
	}
}

func FuzzTopicAttributes(f *testing.F) {
	f.Add([]byte("topic,origin,weight\n301,a,0.5\n302,b,1\n"))
	f.Add([]byte("qid\tlocale\tband\n1\ten\thead\n"))
	f.Add([]byte("topic,origin\n301,a\n301,b\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := readTopicAttributes(strings.NewReader(string(data)), "t.csv")
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		for _, d := range a.Dimensions {
			if len(a.Segment[d]) != len(a.Topics) {
				t.Fatalf("dimension %s: %d segments for %d topics", d, len(a.Segment[d]), len(a.Topics))
			}
		}
	})
}
