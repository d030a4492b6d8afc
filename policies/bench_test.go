package policies

import (
	"os"
	"testing"
)

func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("examples/research.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("research.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluate judges 4 challengers on the research policy's 9 rules.
func BenchmarkEvaluate(b *testing.B) {
	p, err := Load("examples/research.yaml")
	if err != nil {
		b.Fatal(err)
	}
	chals := []string{"Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"}
	v := NewValues()
	for i, c := range chals {
		for _, q := range p.Queries() {
			if q.Quantity == "rope.decision" {
				v.Set(c, q, Category("better"))
			} else {
				v.Set(c, q, Number(0.01*float64(i+1)))
			}
		}
	}
	ev := Evidence{Challengers: chals, Values: v, Facts: goodFacts, Now: evalNow}
	for b.Loop() {
		p.Evaluate(ev)
	}
}

// BenchmarkEvaluateSegments judges 4 challengers on the segments example's
// 2 rules, 1 of them by: origin in 5 segments (a Holm family of 20).
func BenchmarkEvaluateSegments(b *testing.B) {
	p, err := Load("examples/segments.yaml")
	if err != nil {
		b.Fatal(err)
	}
	chals := []string{"candidate-1", "candidate-2", "candidate-3", "candidate-4"}
	segs := []Segment{{"trec6", 10}, {"trec7", 10}, {"trec8", 10}, {"robust03", 10}, {"robust04", 10}}
	v := NewValues()
	for i, c := range chals {
		for _, q := range p.Queries() {
			v.Set(c, q, Number(0.01*float64(i+1)))
			for gi, g := range segs {
				v.Set(c, q.InSegment(g.Name), Number(0.01*float64(i+gi+1)))
			}
		}
	}
	ev := Evidence{Challengers: chals, Values: v, Facts: goodFacts, Now: evalNow, Segments: map[string][]Segment{"origin": segs}}
	for b.Loop() {
		p.Evaluate(ev)
	}
}
