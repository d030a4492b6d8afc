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
