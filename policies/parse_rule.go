package policies

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/riskgate/riskgate/internal/suggest"
)

// Parsing of the rules list: each rule's keys, its bound checked against the
// quantity's kind, and its parameters checked against what the quantity takes.

func (ps *parser) rules(e entry) {
	items, ok := ps.list(e, "rules", "rules")
	if !ok {
		return
	}
	if len(items) == 0 {
		ps.errorf(deref(e.val), "rules", "the list is empty; a policy needs at least one rule")
		return
	}
	seen := map[string]*Rule{}
	for i, item := range items {
		r := ps.rule(i, item)
		if r == nil {
			continue
		}
		if r.ID != "" {
			if first, dup := seen[r.ID]; dup {
				ps.errorf(&yaml.Node{Line: r.idPos.Line, Column: r.idPos.Column}, fmt.Sprintf("rules[%d].id", i),
					"duplicate rule id %q (first at line %d); rule ids must be unique", r.ID, first.idPos.Line)
				continue
			}
			seen[r.ID] = r
		}
		ps.p.Rules = append(ps.p.Rules, r)
	}
}

func (ps *parser) rule(i int, n *yaml.Node) *Rule {
	path := fmt.Sprintf("rules[%d]", i)
	m, ok := ps.mapping(n, path, "a rule", ruleFields)
	if !ok {
		return nil
	}
	r := &Rule{Pos: pos(m.node), Severity: SeverityFail}
	if e, ok := m.get("id"); ok {
		r.ID, _ = ps.ident(e, path+".id")
		r.idPos = pos(deref(e.val))
	}
	if e, ok := m.get("quantity"); ok {
		if s, ok := ps.str(e, path+".quantity"); ok {
			if r.Quantity = LookupQuantity(s); r.Quantity == nil {
				ps.errorf(deref(e.val), path+".quantity", "unknown quantity %q%s (valid: %s)", clip(s), suggest.DidYouMean(s, quantityNames()), strings.Join(quantityNames(), ", "))
			}
			r.quantityPos = pos(deref(e.val))
		}
	}
	if e, ok := m.get("description"); ok {
		r.Description, _ = ps.str(e, path+".description")
	}
	if e, ok := m.get("measure"); ok {
		if name, ok := ps.nonEmpty(e, path+".measure"); ok {
			r.Measure, r.MeasurePos = ps.measureName(e, path+".measure", name), pos(deref(e.val))
		}
	}
	if e, ok := m.get("judgments"); ok {
		if s, ok := ps.enum(e, path+".judgments", []string{string(JudgmentsCheck), string(JudgmentsIgnore)}); ok {
			r.Judgments = JudgmentsMode(s)
		}
	}
	if e, ok := m.get("severity"); ok {
		if s, ok := ps.enum(e, path+".severity", []string{string(SeverityFail), string(SeverityWarn)}); ok {
			r.Severity = Severity(s)
		}
	}
	if e, ok := m.get("by"); ok {
		if s, ok := ps.nonEmpty(e, path+".by"); ok {
			r.By, r.ByPos = s, pos(deref(e.val))
		}
	}
	if e, ok := m.get("segments"); ok {
		if s, ok := ps.enum(e, path+".segments", enumStrings(segmentSemantics)); ok {
			r.BySemantics = SegmentSemantics(s)
		}
	}
	q := r.Quantity

	// The bound: exactly one of at_least, at_most, in.
	var bounds []BoundOp
	for _, op := range []BoundOp{AtLeast, AtMost, In} {
		if _, ok := m.get(string(op)); ok {
			bounds = append(bounds, op)
		}
	}
	switch {
	case len(bounds) == 0 && (m.misspelt[string(AtLeast)] || m.misspelt[string(AtMost)] || m.misspelt[string(In)]):
		// The misspelt bound is already reported.
	case len(bounds) == 0:
		hint := "at_least, at_most or in"
		if q != nil && q.Kind == KindCategory {
			hint = "in: a list of outcomes (" + strings.Join(q.Outcomes, ", ") + ")"
		}
		ps.errorf(m.node, path, "the rule has no bound; give one of %s", hint)
	case len(bounds) > 1:
		// Report at whichever came second in the file.
		es := []entry{}
		for _, op := range bounds {
			e, _ := m.get(string(op))
			es = append(es, e)
		}
		slices.SortFunc(es, func(a, b entry) int {
			if a.key.Line != b.key.Line {
				return a.key.Line - b.key.Line
			}
			return a.key.Column - b.key.Column
		})
		ps.errorf(es[1].key, path, "give one bound, not both %s and %s (valid: at_least, at_most or in: [lo, hi])", deref(es[0].key).Value, deref(es[1].key).Value)
	default:
		e, _ := m.get(string(bounds[0]))
		if q != nil {
			if b, ok := ps.bound(bounds[0], e, path+"."+string(bounds[0]), q); ok {
				r.Bound, r.boundPos = b, pos(deref(e.val))
			}
		}
	}

	// Parameters: each must be one the quantity accepts.
	for _, p := range params {
		e, ok := m.get(string(p))
		if !ok {
			continue
		}
		ppath := path + "." + string(p)
		if q != nil && !q.Accepts(p) {
			takes := "it takes no parameters"
			if len(q.Params) > 0 {
				takes = "its parameters: " + strings.Join(paramNames(q.Params), ", ")
			}
			ps.errorf(e.key, ppath, "%s does not apply to %s (%s)", p, q.Name, takes)
			continue
		}
		switch p {
		case ParamLevel:
			if v, ok := ps.number(e, ppath); ok {
				if v <= 0 || v >= 1 {
					hint := ""
					if v > 1 && v < 100 {
						hint = fmt.Sprintf(" (did you mean %s?)", formatNumber(v/100))
					}
					ps.errorf(deref(e.val), ppath, "expected a level between 0 and 1 (e.g. 0.95), got %s%s", formatNumber(v), hint)
				} else {
					r.Level, r.levelPos = v, pos(deref(e.val))
				}
			}
		case ParamCorrection:
			valid := correctionNames(testCorrection)
			if q != nil {
				valid = correctionNames(q.Corrections)
			}
			if s, ok := ps.enum(e, ppath, valid); ok {
				r.Correction = Correction(s)
			}
		case ParamRope:
			if lo, hi, ok := ps.pair(e, ppath, "rope"); ok {
				switch {
				case lo >= hi:
					ps.errorf(deref(e.val), ppath, "expected [lo, hi] with lo < hi, got [%s, %s]", formatNumber(lo), formatNumber(hi))
				case lo > 0 || hi < 0:
					ps.errorf(deref(e.val), ppath, "a region of practical equivalence surrounds 0 (lo ≤ 0 ≤ hi, e.g. [-0.01, 0.01]), got [%s, %s]", formatNumber(lo), formatNumber(hi))
				default:
					r.Rope = [2]float64{lo, hi}
				}
			}
		case ParamLossWeight:
			if _, both := m.get(string(ParamAlpha)); both {
				continue // reported below
			}
			if w, ok := ps.lossWeight(e, ppath); ok {
				r.LossWeight = w
			}
		case ParamAlpha:
			if lw, both := m.get(string(ParamLossWeight)); both {
				second := e
				if e.key.Line < lw.key.Line || (e.key.Line == lw.key.Line && e.key.Column < lw.key.Column) {
					second = lw
				}
				ps.errorf(second.key, path, "give loss_weight or alpha, not both (loss_weight = 1 + alpha)")
				continue
			}
			if a, ok := ps.alpha(e, ppath); ok {
				r.LossWeight = 1 + a
			}
		case ParamAlternative:
			if s, ok := ps.enum(e, ppath, enumStrings(alternatives)); ok {
				if q != nil && !slices.Contains(q.Alternatives, Alternative(s)) {
					// The engine could not decide it: refuse it now, not at run time.
					ps.errorf(deref(e.val), ppath, "%s is %s only in this build: %s gives no %s p-value (valid: %s)",
						q.Name, strings.Join(enumStrings(q.Alternatives), ", "), testWords[q.Test], s, strings.Join(enumStrings(q.Alternatives), ", "))
				} else {
					r.Alternative = Alternative(s)
				}
			}
		case ParamMargin:
			if v := deref(e.val); v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" && strings.HasSuffix(v.Value, "%") {
				pct, err := strconv.ParseFloat(strings.TrimSuffix(v.Value, "%"), 64)
				if err != nil || !(pct > 0 && pct <= 100) {
					ps.errorf(v, ppath, "expected a relative margin above 0%% and at most 100%% of the champion's mean (e.g. 2%%), got %q", clip(v.Value))
				} else {
					r.MarginPercent, r.marginPos = pct, pos(v)
				}
				continue
			}
			if v, ok := ps.number(e, ppath); ok {
				if v < 0 || v > 1 {
					ps.errorf(deref(e.val), ppath, "expected a margin from 0 to 1 in score units (how far below the champion the challenger's risk-adjusted score may fall, e.g. 0.02) or a share of the champion's mean (e.g. 2%%), got %s", formatNumber(v))
				} else {
					r.Margin, r.marginPos = v, pos(deref(e.val))
				}
			}
		}
	}
	if q != nil {
		for _, p := range q.Required {
			if _, ok := m.get(string(p)); !ok {
				ps.errorf(m.node, path, "%s needs %s (%s)", q.Name, p, paramFields[p].doc)
			}
		}
		if q.Weighted() && r.LossWeight == 0 && !ps.policyWeightGiven && !ruleGivesWeight(m) {
			ps.errorf(&yaml.Node{Line: r.quantityPos.Line, Column: r.quantityPos.Column}, path+".quantity",
				"%s weighs losses, but neither this rule nor the policy sets loss_weight; add loss_weight (losses count w times, e.g. loss_weight: 5) at the top level or in the rule", q.Name)
		}
	}
	ps.segmentRule(r, m, path)
	return r
}

func ruleGivesWeight(m *mapping) bool {
	_, lw := m.get(string(ParamLossWeight))
	_, a := m.get(string(ParamAlpha))
	return lw || a
}

// pair reads a two-number list [lo, hi].
func (ps *parser) pair(e entry, path, what string) (lo, hi float64, ok bool) {
	v := deref(e.val)
	if v.Kind != yaml.SequenceNode {
		ps.errorf(v, path, "expected %s as a list [lo, hi] of two numbers, got %s", what, describe(v))
		return 0, 0, false
	}
	if len(v.Content) != 2 {
		ps.errorf(v, path, "expected %s as a list [lo, hi] of two numbers, got a list of %d", what, len(v.Content))
		return 0, 0, false
	}
	lo, ok1 := ps.numberNode(v.Content[0], path+"[0]")
	hi, ok2 := ps.numberNode(v.Content[1], path+"[1]")
	return lo, hi, ok1 && ok2
}

// bound reads the rule's bound and checks it fits the quantity's kind.
func (ps *parser) bound(op BoundOp, e entry, path string, q *Quantity) (Bound, bool) {
	v := deref(e.val)
	if q.Kind == KindCategory {
		if op != In {
			ps.errorf(e.key, path, "%s is a category, so it takes in: a list of outcomes, not %s (valid outcomes: %s)", q.Name, op, strings.Join(q.Outcomes, ", "))
			return Bound{}, false
		}
		if v.Kind != yaml.SequenceNode {
			ps.errorf(v, path, "in on %s takes a list of outcomes, e.g. [%s], got %s (valid: %s)", q.Name, strings.Join(q.Outcomes[:2], ", "), describe(v), strings.Join(q.Outcomes, ", "))
			return Bound{}, false
		}
		if len(v.Content) == 0 {
			ps.errorf(v, path, "the list is empty; give at least one outcome (valid: %s)", strings.Join(q.Outcomes, ", "))
			return Bound{}, false
		}
		b := Bound{Op: In, Outcomes: []string{}}
		good := true
		for i, item := range v.Content {
			ipath := fmt.Sprintf("%s[%d]", path, i)
			s, ok := ps.enum(entry{val: item}, ipath, q.Outcomes)
			if !ok {
				good = false
				continue
			}
			if slices.Contains(b.Outcomes, s) {
				ps.errorf(deref(item), ipath, "outcome %q is listed twice", s)
				good = false
				continue
			}
			b.Outcomes = append(b.Outcomes, s)
		}
		return b, good
	}

	check := func(x float64, n *yaml.Node, p string) bool {
		switch q.Kind {
		case KindProbability:
			if x < 0 || x > 1 {
				hint := ""
				if x > 1 && x <= 100 {
					hint = fmt.Sprintf(" (did you mean %s?)", formatNumber(x/100))
				}
				ps.errorf(n, p, "%s is a probability; expected a number from 0 to 1, got %s%s", q.Name, formatNumber(x), hint)
				return false
			}
		case KindCount:
			if x < 0 || x != math.Trunc(x) {
				ps.errorf(n, p, "%s counts topics; expected a whole number ≥ 0, got %s", q.Name, formatNumber(x))
				return false
			}
		}
		return true
	}
	if op == In {
		if v.Kind == yaml.SequenceNode && len(v.Content) != 2 {
			ps.errorf(v, path, "in on %s (a %s) takes a range [lo, hi], got a list of %d", q.Name, q.Kind, len(v.Content))
			return Bound{}, false
		}
		lo, hi, ok := ps.pair(e, path, "the range")
		if !ok {
			return Bound{}, false
		}
		if !check(lo, deref(v.Content[0]), path+"[0]") || !check(hi, deref(v.Content[1]), path+"[1]") {
			return Bound{}, false
		}
		if lo > hi {
			ps.errorf(v, path, "expected a range [lo, hi] with lo ≤ hi, got [%s, %s]", formatNumber(lo), formatNumber(hi))
			return Bound{}, false
		}
		return Bound{Op: In, Lo: lo, Hi: hi}, true
	}
	x, ok := ps.number(e, path)
	if !ok || !check(x, v, path) {
		return Bound{}, false
	}
	return Bound{Op: op, Value: x}, true
}
