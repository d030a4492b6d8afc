package policies

import "math"

// What a rule's observed value is. A risk quantity with a non-inferiority
// margin δ is computed for d_w + δ (see the registry), so its observed value
// is not the quantity a report's other tables show: the convention, stated
// in docs/gate.md, is that the observed value is the one the bound applies
// to, and every report says how it is made. For the quantities to which the
// margin is added (bca.lo, bca.hi, urisk, brisk.diff.*) that is "value +
// margin = observed"; for those that take it inside (brisk.p_riskier is
// P(δ < −margin), trisk is (URisk + margin)/SE) the label says so.

// MarginAdded reports whether the query's observed value is the quantity's
// own value plus the query's margin δ > 0.
func (q Query) MarginAdded() bool {
	qq := LookupQuantity(q.Quantity)
	if q.Margin == 0 || qq == nil {
		return false
	}
	switch qq.Statistic {
	case StatLo, StatHi, StatURisk, StatDiffMean:
		return true
	}
	return false
}

// Label names what the query's observed value is, for a report's column
// head or rule row: the quantity's name, "bca.lo + margin 0.02" when the
// margin is added to it, "brisk.p_riskier = P(δ < −0.02)", "trisk of
// URisk + 0.02" or "tests.paired_t.p of Δ + 0.02" (the test of the
// challenger's scores plus the margin) when the margin is taken inside.
func (q Query) Label() string { return q.LabelAs(q.Quantity) }

// LabelAs is Label with name in place of the quantity's name, e.g. the
// quantity on its measure: "bca.lo on ndcg_cut_10 + margin 0.02".
func (q Query) LabelAs(name string) string {
	qq := LookupQuantity(q.Quantity)
	switch {
	case q.Margin == 0 || qq == nil:
		return name
	case q.MarginAdded():
		return name + " + margin " + formatNumber(q.Margin)
	case qq.Statistic == StatPLess:
		return name + " = P(δ < −" + formatNumber(q.Margin) + ")"
	case qq.Statistic == StatTRisk:
		return name + " of URisk + " + formatNumber(q.Margin)
	case qq.isTest():
		return name + " of Δ + " + formatNumber(q.Margin)
	}
	return name + " (margin " + formatNumber(q.Margin) + ")"
}

// withoutMargin is the quantity's own value behind an observed value to
// which the margin was added, and the bound shifted to that scale (so that
// its digits are printed as carefully as the observed value's); ok is false
// when the query adds no margin or the observation is not a finite number.
func withoutMargin(q Query, o Observation, b Bound) (v float64, shifted Bound, ok bool) {
	obs, isNum := o.Number()
	if !q.MarginAdded() || !isNum || math.IsNaN(obs) || math.IsInf(obs, 0) {
		return 0, b, false
	}
	shifted = b
	shifted.Value -= q.Margin
	shifted.Lo -= q.Margin
	shifted.Hi -= q.Margin
	return obs - q.Margin, shifted, true
}

// observedWords prints an observed number as a rule's reason shows it:
// "0.1127", or, when the margin was added, "bca.lo -0.02952 + margin 0.02 =
// -0.009525", each number in the digits result.json's before_margin and
// observed fields round to.
func observedWords(q Query, o Observation, b Bound) string {
	v, isNum := o.Number()
	if !isNum {
		return o.String()
	}
	shown := formatObserved(v, b)
	if raw, sb, ok := withoutMargin(q, o, b); ok {
		return q.Quantity + " " + formatObserved(raw, sb) + " + margin " + formatNumber(q.Margin) + " = " + shown
	}
	return shown
}

// ObservedText prints the observed value as a rules table shows it: "0.1127",
// or, when the margin was added to the quantity, "-0.02952 + 0.02 =
// -0.009525" (the quantity's value, the margin, the observed value); "–"
// when there is no value.
func (rr RuleResult) ObservedText() string {
	if raw, sb, ok := withoutMargin(rr.Query, rr.Observed, rr.Bound); ok {
		v, _ := rr.Observed.Number()
		return formatObserved(raw, sb) + " + " + formatNumber(rr.Query.Margin) + " = " + formatObserved(v, rr.Bound)
	}
	return rr.Bound.FormatObserved(rr.Observed)
}
