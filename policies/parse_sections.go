package policies

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/gate/trec"
	"gopkg.in/yaml.v3"

	"github.com/riskgate/riskgate/internal/suggest"
)

// The sections of a policy below the top level: inputs, model, requirements,
// rank_by, waivers, and the loss weight in its two spellings.

func (ps *parser) lossWeight(e entry, path string) (float64, bool) {
	w, ok := ps.number(e, path)
	if !ok {
		return 0, false
	}
	if problem, alphaHint := CheckLossWeight(w); problem != "" {
		if alphaHint {
			problem += fmt.Sprintf("; if you meant the extra weight alpha, write alpha: %s (= loss_weight %s)", formatNumber(w), formatNumber(1+w))
		}
		ps.errorf(deref(e.val), path, "%s", problem)
		return 0, false
	}
	return w, true
}

func (ps *parser) alpha(e entry, path string) (float64, bool) {
	a, ok := ps.number(e, path)
	if !ok {
		return 0, false
	}
	if problem := CheckAlpha(a); problem != "" {
		ps.errorf(deref(e.val), path, "%s", problem)
		return 0, false
	}
	return a, true
}

func (ps *parser) inputs(n *yaml.Node) {
	m, ok := ps.mapping(n, "inputs", "the inputs", inputFields)
	if !ok {
		return
	}
	in := &ps.p.Inputs
	if e, ok := m.get("paths"); ok {
		in.Paths, _, _ = ps.stringList(e, "inputs.paths", "score file paths")
	}
	if e, ok := m.get("format"); ok {
		in.Format, _ = ps.enum(e, "inputs.format", InputFormats)
	}
	if e, ok := m.get("qrels"); ok {
		in.Qrels, _ = ps.str(e, "inputs.qrels")
		in.QrelsPos = pos(deref(e.val))
	}
	if e, ok := m.get("measure"); ok {
		var ok bool
		if in.Measure, ok = ps.str(e, "inputs.measure"); ok {
			if err := trec.CheckMeasureSyntax(in.Measure); err != nil {
				ps.errorf(deref(e.val), "inputs.measure", "%v", err)
			}
		}
	}
	if e, ok := m.get("lower_is_better"); ok {
		names, _, _ := ps.stringList(e, "inputs.lower_is_better", "measure names")
		list := deref(e.val)
		for i, name := range names {
			in.LowerIsBetter = append(in.LowerIsBetter, ps.measureName(entry{val: list.Content[i]}, fmt.Sprintf("inputs.lower_is_better[%d]", i), name))
		}
	}
	if e, ok := m.get("topics"); ok {
		in.Topics, _ = ps.enum(e, "inputs.topics", TopicModes)
	}
	if e, ok := m.get("pool"); ok {
		in.Pool, _ = ps.str(e, "inputs.pool")
	}
	if e, ok := m.get("pool_mismatch"); ok {
		in.PoolMismatch, _ = ps.enum(e, "inputs.pool_mismatch", PoolMismatches)
	}
	if e, ok := m.get("topics_file"); ok {
		in.TopicsFile, _ = ps.nonEmpty(e, "inputs.topics_file")
	}
}

func (ps *parser) model(n *yaml.Node) {
	m, ok := ps.mapping(n, "model", "the model settings", modelFields)
	if !ok {
		return
	}
	md := &ps.p.Model
	if e, ok := m.get("family"); ok {
		if s, ok := ps.enum(e, "model.family", enumStrings(families)); ok {
			md.Family = Family(s)
		}
	}
	if e, ok := m.get("chains"); ok {
		if c, ok := ps.integer(e, "model.chains", 1, maxChains); ok {
			md.Chains = int(c)
		}
	}
	if e, ok := m.get("target_ess"); ok {
		if c, ok := ps.integer(e, "model.target_ess", minTargetESS, math.MaxInt32); ok {
			md.TargetESS = int(c)
		}
	}
	if e, ok := m.get("max_draws"); ok {
		if c, ok := ps.integer(e, "model.max_draws", minMaxDraws, maxMaxDraws); ok {
			md.MaxDraws = int(c)
		}
	}
	if e, ok := m.get("early_stop"); ok {
		if b, ok := ps.boolean(e, "model.early_stop"); ok {
			md.EarlyStop = b
		}
	}
	if e, ok := m.get("max_rhat"); ok {
		if r, ok := ps.number(e, "model.max_rhat"); ok {
			if r <= 1 {
				ps.errorf(deref(e.val), "model.max_rhat", "expected a number above 1 (e.g. 1.01), got %s", formatNumber(r))
			} else {
				md.MaxRhat, ps.p.MaxRhatPos = r, pos(deref(e.val))
			}
		}
	}
}

func (ps *parser) requirements(n *yaml.Node) {
	m, ok := ps.mapping(n, "requirements", "the data requirements", requirementFields)
	if !ok {
		return
	}
	rq := &ps.p.Requirements
	if e, ok := m.get("min_topics"); ok {
		if v, ok := ps.integer(e, "requirements.min_topics", 0, math.MaxInt32); ok {
			rq.MinTopics = int(v)
		}
	}
	if e, ok := m.get("min_artifacts"); ok {
		if v, ok := ps.integer(e, "requirements.min_artifacts", 0, math.MaxInt32); ok {
			rq.MinArtifacts = int(v)
		}
	}
	if e, ok := m.get("min_topic_coverage"); ok {
		if v, ok := ps.number(e, "requirements.min_topic_coverage"); ok {
			if v < 0 || v > 1 {
				ps.errorf(deref(e.val), "requirements.min_topic_coverage", "expected a share from 0 to 1 (e.g. 0.9 for 90%%), got %s", formatNumber(v))
			} else {
				rq.MinTopicCoverage = v
			}
		}
	}
	if e, ok := m.get("min_topics_per_segment"); ok {
		if v, ok := ps.integer(e, "requirements.min_topics_per_segment", 1, math.MaxInt32); ok {
			rq.MinTopicsPerSegment = int(v)
		}
	}
}

func (ps *parser) rankBy(e entry) (string, bool) {
	s, ok := ps.str(e, "rank_by")
	if !ok {
		return "", false
	}
	valid := rankableNames()
	if slices.Contains(valid, s) {
		return s, true
	}
	v := deref(e.val)
	if q := LookupQuantity(s); q != nil {
		ps.errorf(v, "rank_by", "cannot rank by %s: it is not a number that is better when higher or lower (valid: %s)", s, strings.Join(valid, ", "))
	} else {
		ps.errorf(v, "rank_by", "unknown quantity %q%s (valid: %s)", clip(s), suggest.DidYouMean(s, valid), strings.Join(valid, ", "))
	}
	return "", false
}

func (ps *parser) waivers(e entry) {
	items, ok := ps.list(e, "waivers", "waivers")
	if !ok {
		return
	}
	for i, item := range items {
		path := fmt.Sprintf("waivers[%d]", i)
		m, ok := ps.mapping(item, path, "a waiver", waiverFields)
		if !ok {
			continue
		}
		w := &Waiver{Pos: pos(m.node)}
		good := true
		if e, ok := m.get("rule"); ok {
			w.Rule, ok = ps.ident(e, path+".rule")
			w.rulePos = pos(deref(e.val))
			good = good && ok
		}
		if e, ok := m.get("challenger"); ok {
			var s string
			s, ok = ps.nonEmpty(e, path+".challenger")
			w.Challenger = Pattern{Text: s, Pos: pos(deref(e.val))}
			good = good && ok
		}
		if e, ok := m.get("reason"); ok {
			w.Reason, ok = ps.nonEmpty(e, path+".reason")
			good = good && ok
		}
		if e, ok := m.get("approver"); ok {
			w.Approver, ok = ps.nonEmpty(e, path+".approver")
			good = good && ok
		}
		if e, ok := m.get("expires"); ok {
			w.Expires, ok = ps.date(e, path+".expires")
			good = good && ok
		}
		if good {
			ps.p.Waivers = append(ps.p.Waivers, w)
		}
	}
}
