package result

import "github.com/riskgate/riskgate/internal/jsonfloat"

// Weighting says a gate's means are traffic-weighted by the topics file's
// weight column (issue 26 item 4; docs/weights.md): mean and mean_diff — in
// rules, the risk table, the summary and each measure's delta — are
// Σ w_t x_t / Σ w_t. Result.Weighting is nil when they are plain means.
type Weighting struct {
	Weighted bool   `json:"weighted"` // always true: the key says so to a reader of result.json
	File     string `json:"file"`     // the topics file the weights come from
	// EffectiveTopics is Kish's effective number of topics, (Σ w)²/Σ w²
	// over the gate's topics: as informative as that many equally
	// weighted ones.
	EffectiveTopics jsonfloat.Float `json:"effective_topics"`
	Note            string          `json:"note"`
}

// NewWeighting is the note of means weighted by file's weights, with
// effective topics n.
func NewWeighting(file string, n float64) *Weighting {
	return &Weighting{Weighted: true, File: file, EffectiveTopics: jsonfloat.Float(n),
		Note: "mean and mean_diff are traffic-weighted means, Σ w·x / Σ w, with the weights of " + file}
}
