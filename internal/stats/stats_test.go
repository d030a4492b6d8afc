package stats

import (
	"math"
	"testing"
)

// MeanDefined skips the missing values: (1 + 2 + 6)/3 = 3; with none left it is NaN.
func TestMeanDefined(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	if got := MeanDefined([]float64{1, nan, 2, 6, nan}); got != 3 {
		t.Errorf("MeanDefined = %v, want 3", got)
	}
	if got := MeanDefined([]float64{nan, nan}); !math.IsNaN(got) {
		t.Errorf("MeanDefined of no value = %v, want NaN", got)
	}
}
