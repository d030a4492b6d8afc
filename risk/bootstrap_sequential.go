package risk

import (
	"math"
	"slices"

	"github.com/riskgate/riskgate/internal/stats"
)

// SequentialBound is one end of a BCa interval decided against a threshold
// from as few bootstrap replicates as settle which side of it the end lies on.
type SequentialBound struct {
	// Bound is the interval's end computed from the first Replicates
	// replicates of the streams BCaMean draws (so with Replicates = B it is
	// BCaMean's end, bit for bit).
	Bound      float64
	Replicates int
	// SE is the Monte Carlo standard error of Bound, estimated from batches
	// of the replicates; NaN when all B replicates were drawn.
	SE float64
	// Early is true when the decision was settled before all B replicates.
	Early bool
}

// sequentialStages are the replicate counts tried before the full B:
// multiples of the chunk size, so that a stage's replicates are the first
// ones of the full run.
var sequentialStages = []int{4 * bootstrapChunk, 16 * bootstrapChunk}

// sequentialBatches is how many batches estimate a stage's Monte Carlo
// error, and sequentialK how many of their standard errors the end must
// lie from the threshold. With 8 batches the SE has 7 degrees of freedom;
// P(|t₇| > 5) = 0.0016, and the full-B end moves from the stage's by about
// one stage SE at most, so a stage decides against the full run's side only
// when the end is within a fraction of an SE of the threshold at full B.
const (
	sequentialBatches = 8
	sequentialK       = 5.0
)

// BCaMeanBoundSequential computes the lower (upper: the upper) end of the
// BCa interval of the mean of x at o.Level, as BCaMean does with o.B
// replicates, but stops at 8,192 or 32,768 replicates when the end lies more
// than 5 Monte Carlo standard errors from threshold: the side of threshold
// it lies on is then settled, which is all a rule bounding it needs. The
// standard error is the spread of the end over 8 disjoint batches of the
// stage's replicates, divided by √8 (batch means; the replicates are
// independent). A stage whose batches hit the extreme order statistics, or
// whose end is not finite, does not decide; the last stage is all o.B
// replicates, whose end is BCaMean's exactly.
func BCaMeanBoundSequential(x []float64, o BootstrapOptions, upper bool, threshold float64) (SequentialBound, error) {
	if err := checkBootstrap(x, o); err != nil {
		return SequentialBound{}, err
	}
	end := func(r BCa) float64 {
		if upper {
			return r.BCa.Hi
		}
		return r.BCa.Lo
	}
	// The replicates in the streams' order, each drawn once: a stage extends
	// the last one's, and the last stage is all o.B of them.
	t := make([]float64, o.B)
	drawn := 0
	for _, b := range sequentialStages {
		if b >= o.B {
			break
		}
		fillBootstrapMeans(x, t[:b], drawn, o.Seed)
		drawn = b
		size := b / sequentialBatches
		ends := make([]float64, sequentialBatches)
		usable := true
		for i := range ends {
			r := bcaFromReplicates(x, slices.Clone(t[i*size:(i+1)*size]), o.Level) // it reorders its replicates
			ends[i] = end(r)
			if len(r.Warnings) > 0 || !finite(ends[i]) {
				usable = false
			}
		}
		whole := bcaFromReplicates(x, slices.Clone(t[:b]), o.Level)
		e := end(whole)
		if !usable || len(whole.Warnings) > 0 || !finite(e) {
			continue
		}
		se := sd(ends) / math.Sqrt(sequentialBatches)
		if math.Abs(e-threshold) > sequentialK*se {
			return SequentialBound{Bound: e, Replicates: b, SE: se, Early: true}, nil
		}
	}
	fillBootstrapMeans(x, t, drawn, o.Seed)
	return SequentialBound{Bound: end(bcaFromReplicates(x, t, o.Level)), Replicates: o.B, SE: math.NaN()}, nil
}

// sd is the sample standard deviation (n − 1).
func sd(x []float64) float64 { return math.Sqrt(stats.Variance(x)) }
