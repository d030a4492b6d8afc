package risk

import (
	"math"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// Helpers that read the reference material in ../shared in place (never
// copied into the repository); tests that use them skip on a fresh clone.

// rb04 is shared.RB04 (rb04.csv, topics in the byte order R's order(topic)
// gives in reference/scripts/freq_ref.R) with the risk types.
type rb04 struct{ *shared.Table }

func loadRB04(t testing.TB) rb04 {
	t.Helper()
	return rb04{shared.RB04(t)}
}

// pair returns the challenger against the Champion.
func (d rb04) pair(challenger string) Pair {
	return Pair{X: d.Scores[challenger], Base: d.Scores["Champion"]}
}

// systemsNamed returns the named systems, in the order given.
func (d rb04) systemsNamed(names ...string) Systems {
	s := make(Systems, len(names))
	for i, n := range names {
		s[i] = d.Scores[n]
	}
	return s
}

var challengers = []string{"Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"}

// csvRecords returns the rows of a CSV file under ../shared, with a header, as maps.
func csvRecords(t testing.TB, rel string) []map[string]string {
	t.Helper()
	return shared.Records(t, shared.Path(t, rel))
}

// relClose reports |got − want| ≤ tol·|want| (absolute tol when want is 0).
func relClose(got, want, tol float64) bool {
	if want == 0 {
		return math.Abs(got) <= tol
	}
	return math.Abs(got-want) <= tol*math.Abs(want)
}

// worst tracks the largest deviation seen by a reference test, for the log.
type worst struct {
	what string
	dev  float64
}

func (w *worst) rel(what string, got, want float64) float64 {
	d := math.Abs(got - want)
	if want != 0 {
		d /= math.Abs(want)
	}
	if d > w.dev || w.what == "" {
		w.what, w.dev = what, d
	}
	return d
}

func (w *worst) abs(what string, got, want float64) float64 {
	d := math.Abs(got - want)
	if d > w.dev || w.what == "" {
		w.what, w.dev = what, d
	}
	return d
}
