package policies

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Observation is what the gate measured for one challenger and one Query: a
// number, a category, or the reason there is no value (the rule is then
// inconclusive). The zero Observation means "not computed", which is also
// inconclusive: a gate that forgets a quantity can never pass a rule.
type Observation struct {
	kind   obsKind
	num    float64
	cat    string
	reason string
}

type obsKind uint8

const (
	obsNone obsKind = iota
	obsNumber
	obsCategory
	obsUnavailable
)

// Number is an observed numeric value.
func Number(v float64) Observation { return Observation{kind: obsNumber, num: v} }

// Category is an observed outcome of a categorical quantity.
func Category(c string) Observation { return Observation{kind: obsCategory, cat: c} }

// Unavailable records why a value could not be obtained, in words a report
// can print: "the BRisk fit did not converge (R-hat 1.08 > 1.01)".
func Unavailable(reason string) Observation {
	if reason == "" {
		reason = "no reason given"
	}
	return Observation{kind: obsUnavailable, reason: reason}
}

// Number returns the numeric value, if the observation is one.
func (o Observation) Number() (float64, bool) { return o.num, o.kind == obsNumber }

// Category returns the outcome, if the observation is one.
func (o Observation) Category() (string, bool) { return o.cat, o.kind == obsCategory }

// Missing returns why there is no value ("" when there is one).
func (o Observation) Missing() string {
	switch o.kind {
	case obsNone:
		return "not computed"
	case obsUnavailable:
		return o.reason
	}
	return ""
}

// Present reports whether the observation holds a value.
func (o Observation) Present() bool { return o.kind == obsNumber || o.kind == obsCategory }

// String prints the value, or "unavailable (reason)".
func (o Observation) String() string {
	switch o.kind {
	case obsNumber:
		return strconv.FormatFloat(o.num, 'g', -1, 64)
	case obsCategory:
		return o.cat
	}
	return "unavailable (" + o.Missing() + ")"
}

// MarshalJSON writes {"number": v}, {"category": c} or {"unavailable": reason};
// a NaN or infinite number (which JSON cannot hold) is written as unavailable.
func (o Observation) MarshalJSON() ([]byte, error) {
	switch {
	case o.kind == obsNumber && !math.IsNaN(o.num) && !math.IsInf(o.num, 0):
		return json.Marshal(struct {
			Number float64 `json:"number"`
		}{o.num})
	case o.kind == obsNumber:
		return json.Marshal(struct {
			Unavailable string `json:"unavailable"`
		}{"value is " + strconv.FormatFloat(o.num, 'g', -1, 64)})
	case o.kind == obsCategory:
		return json.Marshal(struct {
			Category string `json:"category"`
		}{o.cat})
	}
	return json.Marshal(struct {
		Unavailable string `json:"unavailable"`
	}{o.Missing()})
}

// UnmarshalJSON reads what MarshalJSON writes: exactly one of
// {"number": …}, {"category": …} or {"unavailable": …} (result.json read
// back by riskgate publish).
func (o *Observation) UnmarshalJSON(data []byte) error {
	var v struct {
		Number      *float64 `json:"number"`
		Category    *string  `json:"category"`
		Unavailable *string  `json:"unavailable"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	switch {
	case v.Number != nil && v.Category == nil && v.Unavailable == nil:
		*o = Number(*v.Number)
	case v.Category != nil && v.Number == nil && v.Unavailable == nil:
		*o = Category(*v.Category)
	case v.Unavailable != nil && v.Number == nil && v.Category == nil:
		*o = Unavailable(*v.Unavailable)
	default:
		return fmt.Errorf("an observation: expected one of {\"number\": …}, {\"category\": …} or {\"unavailable\": …}, got %s", clipJSON(data))
	}
	return nil
}

// clipJSON quotes at most 60 bytes of data for an error message.
func clipJSON(data []byte) string {
	if len(data) > 60 {
		return string(data[:60]) + "…"
	}
	return string(data)
}

// Values holds the gate's observations, keyed by challenger and Query.
type Values struct {
	m map[valueKey]Observation
}

type valueKey struct {
	challenger string
	q          Query
}

// NewValues returns an empty set of observations.
func NewValues() *Values { return &Values{m: map[valueKey]Observation{}} }

// Set records the observation of q for a challenger.
func (v *Values) Set(challenger string, q Query, o Observation) {
	v.m[valueKey{challenger, q}] = o
}

// Get returns the observation of q for a challenger; the zero Observation
// ("not computed") when none was set.
func (v *Values) Get(challenger string, q Query) Observation {
	if v == nil {
		return Observation{}
	}
	return v.m[valueKey{challenger, q}]
}
