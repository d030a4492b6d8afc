package result

import (
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/policies"
)

// SegmentTable is one dimension of the topics file (a column: origin,
// locale, traffic band) that a by: rule names: each challenger's
// comparison with the champion within every segment of it (docs/policies.md,
// "Segments").
type SegmentTable struct {
	Dimension string `json:"dimension"`
	// Measure is the measure of the table's means and differences: the
	// measure of the first by: rule on the dimension.
	Measure     string              `json:"measure"`
	Challengers []SegmentChallenger `json:"challengers"`
}

// SegmentChallenger is one challenger's segment table.
type SegmentChallenger struct {
	Name string       `json:"name"`
	Rows []SegmentRow `json:"rows"`
	// Worst is the segment the summary names: the first segment whose
	// outcome is fail (then warn, then inconclusive) in row order, else
	// the one with the lowest Δ; "" when there are no rows.
	Worst string `json:"worst,omitempty"`
}

// SegmentRow is a challenger against the champion in one segment.
type SegmentRow struct {
	Segment string `json:"segment"`
	Topics  int    `json:"topics"`
	// Weight is the segment's share of the weight column's total; absent
	// without a weight column.
	Weight *jsonfloat.Float `json:"weight,omitempty"`
	// ChampionMean is the champion's mean score over the segment's topics
	// and Delta the challenger's mean difference to it there (challenger −
	// champion, in the improvement orientation); Lo and Hi bound the
	// paired t confidence interval of Delta at Level.
	ChampionMean jsonfloat.Float `json:"champion_mean"`
	Delta        jsonfloat.Float `json:"delta"`
	Lo           jsonfloat.Float `json:"lo"`
	Hi           jsonfloat.Float `json:"hi"`
	Level        float64         `json:"level"`
	// Pooled is the partially pooled difference δ_g of the segment model
	// (bayes.FitSegments), when a Bayesian by: rule asked for it; nil
	// otherwise.
	Pooled *PooledDifference `json:"pooled,omitempty"`
	// Outcome is the worst outcome of the by: rules on this dimension in
	// this segment (fail, warn, inconclusive, pass); Rules names them.
	Outcome policies.Outcome `json:"outcome"`
	Rules   []string         `json:"rules"`
}

// PooledDifference is the posterior of a challenger's difference to the
// champion in one segment from the partially pooled segment model: its
// mean, central credible interval at Level, and P(δ_g < −Margin) with its
// Monte Carlo standard error. Fit names the fit it came from ("raw scores"
// or "BRisk at loss weight 5").
type PooledDifference struct {
	Fit        string          `json:"fit"`
	Mean       jsonfloat.Float `json:"mean"`
	Lo         jsonfloat.Float `json:"lo"`
	Hi         jsonfloat.Float `json:"hi"`
	Level      float64         `json:"level"`
	Margin     float64         `json:"margin"`
	PWorse     jsonfloat.Float `json:"p_worse"`
	PWorseMCSE jsonfloat.Float `json:"p_worse_mcse"`
}
