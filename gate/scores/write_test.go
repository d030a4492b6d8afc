package scores

import (
	"bytes"
	"math"
	"slices"
	"testing"
)

// What WriteLong writes, Load reads back: names that need CSV quoting,
// missing cells left out, numbers exact.
func TestWriteLongRoundTrip(t *testing.T) {
	systems := []string{"plain", `comma, "quoted"`, `in"side`}
	topics := []string{"t1", "t\n2"}
	scores := [][]float64{{0.1, 1.0 / 3}, {math.NaN(), 0.5}, {0, 1e-17}}
	var b bytes.Buffer
	if err := WriteLong(&b, systems, topics, scores); err != nil {
		t.Fatal(err)
	}
	want := "system,topic,score\nplain,t1,0.1\nplain,\"t\n2\",0.3333333333333333\n\"comma, \"\"quoted\"\"\",\"t\n2\",0.5\n\"in\"\"side\",t1,0\n\"in\"\"side\",\"t\n2\",1e-17\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	back, err := Load([]string{"-"}, LoadOptions{Stdin: &b})
	if err != nil {
		t.Fatal(err)
	}
	for s, name := range systems {
		for j, topic := range topics {
			got, want := back.Scores[back.SystemIndex(name)][slices.Index(back.Topics, topic)], scores[s][j]
			if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Errorf("%q on %q reads back as %v, want %v", name, topic, got, want)
			}
		}
	}
}
