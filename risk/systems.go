package risk

import (
	"fmt"

	"github.com/riskgate/riskgate/internal/stats"
)

// Systems is a set of systems' per-topic scores, Systems[s][t] the score of
// system s on topic t; every system has the same topics in the same order.
type Systems [][]float64

func (s Systems) check() error {
	if len(s) < 2 {
		return fmt.Errorf("risk: need at least 2 systems, have %d", len(s))
	}
	n := len(s[0])
	if n < 2 {
		return fmt.Errorf("risk: need at least 2 common topics, have %d", n)
	}
	for i, row := range s {
		if len(row) != n {
			return fmt.Errorf("risk: system %d has %d topics, system 0 has %d; scores must be complete and aligned", i, len(row), n)
		}
		for j, v := range row {
			if !finite(v) {
				return fmt.Errorf("risk: system %d has a non-finite score %v on topic %d", i, v, j)
			}
		}
	}
	return nil
}

// means returns each system's mean score.
func (s Systems) means() []float64 {
	m := make([]float64, len(s))
	for i, row := range s {
		m[i] = stats.Mean(row)
	}
	return m
}
