package bayes

import (
	"errors"
	"fmt"
	"math"
)

// Table is the system × topic table the hierarchical model is fitted to.
// Scores[s][t] is the score of Systems[s] on Topics[t]; NaN marks a missing
// cell. It mirrors the gate's score table so that package bayes needs no I/O
// types.
type Table struct {
	Systems []string
	Topics  []string
	Scores  [][]float64
}

// Validate reports why t cannot be fitted: fewer than two systems or topics,
// a ragged table, an infinite score, a system or topic with no score at all,
// or a table whose observed scores are all equal.
func (t *Table) Validate() error {
	if len(t.Systems) < 2 {
		return fmt.Errorf("the model needs at least 2 systems; the table has %d", len(t.Systems))
	}
	if len(t.Topics) < 2 {
		return fmt.Errorf("the model needs at least 2 topics; the table has %d", len(t.Topics))
	}
	if len(t.Scores) != len(t.Systems) {
		return fmt.Errorf("table has %d score rows for %d systems", len(t.Scores), len(t.Systems))
	}
	topicSeen := make([]bool, len(t.Topics))
	first, constant, n := math.NaN(), true, 0
	for s, row := range t.Scores {
		if len(row) != len(t.Topics) {
			return fmt.Errorf("system %q has %d scores for %d topics", t.Systems[s], len(row), len(t.Topics))
		}
		seen := false
		for j, v := range row {
			if math.IsNaN(v) {
				continue
			}
			if math.IsInf(v, 0) {
				return fmt.Errorf("score of system %q on topic %q is %v; expected a finite number", t.Systems[s], t.Topics[j], v)
			}
			seen, topicSeen[j] = true, true
			if n == 0 {
				first = v
			} else if v != first {
				constant = false
			}
			n++
		}
		if !seen {
			return fmt.Errorf("system %q has no score", t.Systems[s])
		}
	}
	for j, ok := range topicSeen {
		if !ok {
			return fmt.Errorf("topic %q has no score", t.Topics[j])
		}
	}
	if constant {
		return errors.New("every score in the table is the same; the model needs varying scores")
	}
	return nil
}

// Complete reports whether no cell is missing.
func (t *Table) Complete() bool {
	for _, row := range t.Scores {
		for _, v := range row {
			if math.IsNaN(v) {
				return false
			}
		}
	}
	return true
}

// observed returns the observed cells in row-major (system, topic) order.
func (t *Table) observed() (sys, top []int32, y []float64) {
	for s, row := range t.Scores {
		for j, v := range row {
			if !math.IsNaN(v) {
				sys = append(sys, int32(s))
				top = append(top, int32(j))
				y = append(y, v)
			}
		}
	}
	return sys, top, y
}

// meanSD returns the mean and the sample standard deviation (n − 1) of the
// observed scores, in two passes without copying them.
func (t *Table) meanSD() (mean, sd float64) {
	n, sum := 0, 0.0
	for _, row := range t.Scores {
		for _, v := range row {
			if !math.IsNaN(v) {
				sum += v
				n++
			}
		}
	}
	mean = sum / float64(n)
	ss := 0.0
	for _, row := range t.Scores {
		for _, v := range row {
			if !math.IsNaN(v) {
				ss += (v - mean) * (v - mean)
			}
		}
	}
	return mean, math.Sqrt(ss / float64(n-1))
}
