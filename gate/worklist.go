package gate

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/riskgate/riskgate/gate/judgments"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/policies"
)

// worklistName is the judging worklist's file in the report folder.
const worklistName = "judgments-needed.tsv"

// coverage is judged@k of the champion and the challengers of r over the
// gate's topics, for each of r's measures with a cutoff k (those reading the
// whole ranking have none: trec_eval's unj needs a k); nil without
// rankings.
func coverage(r *result.Result, rk *scores.Rankings) ([]result.Coverage, error) {
	if rk == nil {
		return nil, nil
	}
	measures := r.Data.Measures
	if len(measures) == 0 {
		measures = []string{r.Data.Measure}
	}
	topics := map[string]bool{}
	for _, t := range r.Data.Topics {
		topics[t] = true
	}
	var out []result.Coverage
	for _, m := range measures {
		s, err := trec.NewTopicScorer(rk.Qrels, m, rk.Options)
		if err != nil || s.Depth() <= 0 || !s.ReadsRelevance() {
			continue // not a measure of runs (a score file's), or no cutoff, or judged@k itself
		}
		c := result.Coverage{Measure: m, K: s.Depth(), Judged: map[string]jsonfloat.Float{}}
		for _, name := range append([]string{r.Data.Champion}, r.Data.Challengers...) {
			i := slices.Index(rk.Systems, name)
			if i < 0 {
				continue
			}
			cov := judgments.NewCoverage(judgments.System{Name: name, Topics: rk.Topics[i]}, s.Depth())
			sum, n := 0.0, 0
			for _, tc := range cov.Topics {
				if topics[tc.Topic] {
					sum, n = sum+tc.Judged, n+1
				}
			}
			if n > 0 {
				c.Judged[name] = jsonfloat.Float(sum / float64(n))
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// judgingWorklist is the worklist of the rules of r that need judgments
// (issue 28): the unjudged documents within the depth of their measures
// that the champion or those rules' challengers rank, whose label could
// change a system's per-topic score, the most influential first
// (judgments.BuildWorklist, its weight under the qrels' and -l/-M options the
// runs were scored with), at most limit of them (0: all). Over several
// measures a document is listed once, with its largest weight. It returns
// the worklist's summary for the result and the file's bytes; nil when no
// rule needs judgments.
func judgingWorklist(r *result.Result, rk *scores.Rankings, limit int) (*result.JudgmentsNeeded, []byte, error) {
	if rk == nil || r.Decision == nil {
		return nil, nil, nil
	}
	need := &result.JudgmentsNeeded{}
	systems := []string{r.Data.Champion}
	for _, c := range r.Decision.Challengers {
		for _, rr := range c.Rules {
			if rr.Outcome != policies.OutcomeNeedsJudgments && rr.WaivedOutcome != policies.OutcomeNeedsJudgments {
				continue
			}
			need.Rules = append(need.Rules, c.Name+" "+rr.Rule)
			if !slices.Contains(systems, c.Name) {
				systems = append(systems, c.Name)
			}
			if !slices.Contains(need.Measures, rr.Measure) {
				need.Measures = append(need.Measures, rr.Measure)
			}
		}
	}
	if len(need.Rules) == 0 {
		return nil, nil, nil
	}
	var ranked []judgments.System
	for _, name := range systems {
		if i := slices.Index(rk.Systems, name); i >= 0 {
			ranked = append(ranked, judgments.System{Name: name, Topics: rk.Topics[i]})
		}
	}
	var merged *judgments.Worklist
	at := map[[2]string]int{} // (topic, document) → its index in merged.Items
	for _, m := range need.Measures {
		wl, err := judgments.BuildWorklist(ranked, rk.Qrels, m, rk.Options, 0)
		if err != nil {
			return nil, nil, err
		}
		if merged == nil {
			merged = wl
			for i, it := range wl.Items {
				at[[2]string{it.Topic, it.Doc}] = i
			}
			continue
		}
		merged.Measure += ", " + wl.Measure
		for _, it := range wl.Items {
			k := [2]string{it.Topic, it.Doc}
			if i, ok := at[k]; ok {
				merged.Items[i].Weight = max(merged.Items[i].Weight, it.Weight)
				continue
			}
			at[k] = len(merged.Items)
			merged.Items = append(merged.Items, it)
		}
		merged.Unjudged = max(merged.Unjudged, wl.Unjudged)
		merged.Depth = max(merged.Depth, wl.Depth)
	}
	if len(need.Measures) > 1 {
		slices.SortStableFunc(merged.Items, func(a, b judgments.Item) int { return cmp.Compare(b.Weight, a.Weight) })
	}
	merged.Movable = len(merged.Items)
	if limit > 0 && len(merged.Items) > limit {
		merged.Items = merged.Items[:limit]
	}
	need.Unjudged, need.Movable, need.Listed = merged.Unjudged, merged.Movable, len(merged.Items)
	var b bytes.Buffer
	if err := judgments.WriteTSV(&b, merged); err != nil {
		return nil, nil, err
	}
	return need, b.Bytes(), nil
}
