package ntcir

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Kind is one of NTCIREVAL's measures.
type Kind int

// The measures in the order ntcir_eval compute prints them.
const (
	RR Kind = iota
	OMeasure
	PMeasure
	PPlus
	AP
	Q
	NCUguP
	NCUguBR
	NCUrbP
	NCUrbBR
	RBP
	ERR
	APAt
	QAt
	NDCGAt
	MSNDCGAt
	PAt
	NERRAt
	HitAt
	numKinds
)

// Which parameters a measure reads.
const (
	usesBeta = 1 << iota
	usesPersistence
	usesLogBase
	usesGains
	usesCutoff
)

// kindInfo describes a measure: its name as NTCIREVAL prints it (without
// the cutoff), other spellings NTCIREVAL's documents use, the parameters
// it reads and its definition in the package's notation.
type kindInfo struct {
	name    string
	aliases []string
	uses    int
	def     string
}

var kinds = [numKinds]kindInfo{
	RR:       {name: "RR", def: "1/r1 (reciprocal rank)"},
	OMeasure: {name: "O-measure", uses: usesBeta | usesGains, def: "BR(r1): the blended ratio at the first relevant document"},
	PMeasure: {name: "P-measure", uses: usesBeta | usesGains, def: "BR(rp): the blended ratio at the preferred rank"},
	PPlus:    {name: "P+", aliases: []string{"P-plus"}, uses: usesBeta | usesGains, def: "(1/count(rp)) Σ_{r≤rp} I(r)·BR(r)"},
	AP:       {name: "AP", def: "(1/R) Σ_r I(r)·count(r)/r"},
	Q:        {name: "Q", aliases: []string{"Q-measure"}, uses: usesBeta | usesGains, def: "(1/R) Σ_r I(r)·BR(r)"},
	NCUguP: {name: "NCUgu,P", uses: usesGains,
		def: "Σ_r I(r)·(g(r)/Σg*)·count(r)/r: stopping at a relevant document in proportion to its gain, utility precision"},
	NCUguBR: {name: "NCUgu,BR", uses: usesBeta | usesGains,
		def: "Σ_r I(r)·(g(r)/Σg*)·BR(r): stopping in proportion to gain, utility the blended ratio"},
	NCUrbP: {name: "NCUrb,P", uses: usesPersistence,
		def: "Σ_r I(r)·((1−p)·p^(count(r)−1)/(1−p^R))·count(r)/r: stopping at the n-th relevant document with probability ∝ p^(n−1), utility precision"},
	NCUrbBR: {name: "NCUrb,BR", uses: usesBeta | usesPersistence | usesGains,
		def: "Σ_r I(r)·((1−p)·p^(count(r)−1)/(1−p^R))·BR(r): rank-biased stopping, utility the blended ratio"},
	RBP: {name: "RBP", uses: usesPersistence | usesGains, def: "(1−p) Σ_r p^(r−1)·g(r)/g_H"},
	ERR: {name: "ERR", uses: usesGains,
		def: "Σ_r (Pr(r)/r) Π_{i<r} (1 − Pr(i)), Pr(r) = g(r)/(g_H + 1)"},
	APAt:     {name: "AP", uses: usesCutoff, def: "(1/min(k,R)) Σ_{r≤k} I(r)·count(r)/r"},
	QAt:      {name: "Q", uses: usesBeta | usesGains | usesCutoff, def: "(1/min(k,R)) Σ_{r≤k} I(r)·BR(r)"},
	NDCGAt:   {name: "nDCG", uses: usesLogBase | usesGains | usesCutoff, def: "Σ_{r≤k} g(r)/max(1, log_b r) over the same sum for the ideal list (Järvelin and Kekäläinen's original nDCG)"},
	MSNDCGAt: {name: "MSnDCG", uses: usesGains | usesCutoff, def: "Σ_{r≤k} g(r)/log₂(r+1) over the same sum for the ideal list (the \"Microsoft\" form, with the gains as given)"},
	PAt:      {name: "P", uses: usesCutoff, def: "count(k)/k"},
	NERRAt:   {name: "nERR", uses: usesGains | usesCutoff, def: "ERR of the top k over ERR of the ideal list's top k"},
	HitAt:    {name: "Hit", uses: usesCutoff, def: "1 if count(k) > 0, else 0"},
}

// NTCIREVAL's defaults (ntcir_eval compute): β = 1, persistence 0.95, log
// base 2; its default cutoff is 1000.
const (
	DefaultBeta        = 1.0
	DefaultPersistence = 0.95
	DefaultLogBase     = 2.0
	DefaultCutoff      = 1000
)

// Measure is one NTCIREVAL measure with its parameters.
type Measure struct {
	Kind   Kind
	Cutoff int // k of the @k measures; 0 for the others
	// Beta is Q-measure's patience β in the blended ratio (> 0).
	Beta float64
	// Persistence is RBP's p and the rank-biased NCU's (0 < p < 1).
	Persistence float64
	// LogBase is nDCG@k's b (> 1): ranks below b are not discounted.
	LogBase float64
	// Gains are the gains of levels 1, 2, …; nil means the evaluation's
	// (ntcir_eval's -g).
	Gains []float64
	// Condensed scores the list with its unjudged documents removed
	// (ntcir_eval label -j; Sakai, SIGIR 2007).
	Condensed bool
}

// New returns kind with NTCIREVAL's default parameters and cutoff k (for the
// @k measures; ignored otherwise).
func New(kind Kind, k int) Measure {
	m := Measure{Kind: kind, Beta: DefaultBeta, Persistence: DefaultPersistence, LogBase: DefaultLogBase}
	if kinds[kind].uses&usesCutoff != 0 {
		m.Cutoff = k
	}
	return m
}

// All returns every measure ntcir_eval compute prints by default: the
// measures without a cutoff, then the @k ones at cutoff k.
func All(k int) []Measure {
	out := make([]Measure, numKinds)
	for i := range out {
		out[i] = New(Kind(i), k)
	}
	return out
}

// HasCutoff reports whether the measure is one of the @k ones.
func (m Measure) HasCutoff() bool { return kinds[m.Kind].uses&usesCutoff != 0 }

// Definition returns the measure's formula in the package's notation.
func (m Measure) Definition() string { return kinds[m.Kind].def }

// Base returns the measure's name without parameters or cutoff ("Q",
// "nERR").
func (m Measure) Base() string { return kinds[m.Kind].name }

// String returns the measure's one spelling: its name, the parameters that
// differ from NTCIREVAL's defaults in parentheses (gains, beta, p, b,
// condensed, in that order), then @k: Q, P+, nERR@10, Q(beta=10),
// RBP(p=0.8), nERR(gains=1:3:7)@10, AP(condensed=true)@10.
func (m Measure) String() string {
	info := kinds[m.Kind]
	var params []string
	if m.Gains != nil && info.uses&usesGains != 0 {
		params = append(params, "gains="+FormatGains(m.Gains))
	}
	if m.Beta != DefaultBeta && info.uses&usesBeta != 0 {
		params = append(params, "beta="+formatFloat(m.Beta))
	}
	if m.Persistence != DefaultPersistence && info.uses&usesPersistence != 0 {
		params = append(params, "p="+formatFloat(m.Persistence))
	}
	if m.LogBase != DefaultLogBase && info.uses&usesLogBase != 0 {
		params = append(params, "b="+formatFloat(m.LogBase))
	}
	if m.Condensed {
		params = append(params, "condensed=true")
	}
	s := info.name
	if len(params) > 0 {
		s += "(" + strings.Join(params, ",") + ")"
	}
	if info.uses&usesCutoff != 0 {
		s += "@" + strconv.Itoa(m.Cutoff)
	}
	return s
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// ErrNotNTCIR is Parse's error for a name that is no NTCIREVAL measure.
var ErrNotNTCIR = errors.New("not an NTCIREVAL measure")

// maxName bounds a measure name: no name of a measure is longer, and the
// bound keeps errors about garbage short.
const maxName = 200

// Parse reads a measure name as String spells it, also accepting
// NTCIREVAL's other spellings (Q-measure, P-plus, zero-padded cutoffs as in
// AP@0010) and parameters in any order. A name that is no NTCIREVAL measure
// gives an error wrapping ErrNotNTCIR; one that is, with a bad parameter or
// cutoff, gives an error naming the parameter and what it must be.
func Parse(name string) (Measure, error) {
	if len(name) > maxName {
		return Measure{}, fmt.Errorf("measure name of %d bytes: %w", len(name), ErrNotNTCIR)
	}
	base, params, cutoff, hasCutoff, err := split(name)
	if err != nil {
		return Measure{}, err
	}
	kind, ok := kindNamed(base, hasCutoff)
	if !ok {
		if _, other := kindNamed(base, !hasCutoff); other {
			if hasCutoff {
				return Measure{}, fmt.Errorf("measure %q: %s takes no cutoff; expected %s", name, base, base)
			}
			return Measure{}, fmt.Errorf("measure %q: %s needs a cutoff; expected %s@k, e.g. %s@10", name, base, base, base)
		}
		return Measure{}, fmt.Errorf("measure %q: %w", name, ErrNotNTCIR)
	}
	m := New(kind, 0)
	if hasCutoff {
		k, err := parseCutoff(cutoff)
		if err != nil {
			return Measure{}, fmt.Errorf("measure %q: cutoff %q: %v", name, cutoff, err)
		}
		m.Cutoff = k
	}
	if params != "" {
		if err := m.setParams(params); err != nil {
			return Measure{}, fmt.Errorf("measure %q: %v", name, err)
		}
	}
	return m, nil
}

// split cuts name into base(params)@cutoff.
func split(name string) (base, params, cutoff string, hasCutoff bool, err error) {
	base = name
	if i := strings.LastIndexByte(base, '@'); i >= 0 {
		base, cutoff, hasCutoff = base[:i], base[i+1:], true
	}
	if i := strings.IndexByte(base, '('); i >= 0 {
		if !strings.HasSuffix(base, ")") {
			return "", "", "", false, fmt.Errorf("measure %q: unclosed parameter list; expected NAME(key=value,…)[@k]: %w", name, ErrNotNTCIR)
		}
		base, params = base[:i], base[i+1:len(base)-1]
		if params == "" {
			return "", "", "", false, fmt.Errorf("measure %q: empty parameter list; expected NAME(key=value,…)", name)
		}
	}
	return base, params, cutoff, hasCutoff, nil
}

func kindNamed(base string, cutoff bool) (Kind, bool) {
	for k, info := range kinds {
		if (info.uses&usesCutoff != 0) != cutoff {
			continue
		}
		if base == info.name {
			return Kind(k), true
		}
		for _, a := range info.aliases {
			if base == a {
				return Kind(k), true
			}
		}
	}
	return 0, false
}

// maxCutoff bounds k: no ranking is longer than this many documents.
const maxCutoff = 1 << 30

func parseCutoff(s string) (int, error) {
	if s == "" {
		return 0, errors.New("empty; expected a whole number ≥ 1")
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, errors.New("not a whole number; expected a whole number ≥ 1")
		}
	}
	k, err := strconv.Atoi(s)
	if err != nil || k > maxCutoff {
		return 0, fmt.Errorf("too large; expected a whole number from 1 to %d", maxCutoff)
	}
	if k == 0 {
		return 0, errors.New("0 ranks measure nothing; expected a whole number ≥ 1")
	}
	return k, nil
}

// setParams reads "key=value,…" (gains take a colon list, so commas only
// separate parameters).
func (m *Measure) setParams(params string) error {
	info := kinds[m.Kind]
	seen := map[string]bool{}
	for _, p := range strings.Split(params, ",") {
		key, value, ok := strings.Cut(p, "=")
		if !ok {
			return fmt.Errorf("parameter %q: expected key=value", p)
		}
		if seen[key] {
			return fmt.Errorf("parameter %q given twice", key)
		}
		seen[key] = true
		var need int
		switch key {
		case "beta":
			need = usesBeta
		case "p":
			need = usesPersistence
		case "b":
			need = usesLogBase
		case "gains":
			need = usesGains
		case "condensed":
		default:
			return fmt.Errorf("unknown parameter %q; %s takes %s", key, info.name, paramNames(info.uses))
		}
		if need != 0 && info.uses&need == 0 {
			return fmt.Errorf("%s takes no parameter %s; it takes %s", info.name, key, paramNames(info.uses))
		}
		var err error
		switch key {
		case "beta":
			m.Beta, err = ParseBeta(value)
		case "p":
			m.Persistence, err = ParsePersistence(value)
		case "b":
			m.LogBase, err = ParseLogBase(value)
		case "gains":
			m.Gains, err = ParseGains(value)
		case "condensed":
			switch value {
			case "true":
				m.Condensed = true
			case "false":
				m.Condensed = false
			default:
				err = fmt.Errorf("condensed %q: expected true or false", value)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func paramNames(uses int) string {
	var names []string
	for _, p := range []struct {
		bit  int
		name string
	}{{usesGains, "gains"}, {usesBeta, "beta"}, {usesPersistence, "p"}, {usesLogBase, "b"}} {
		if uses&p.bit != 0 {
			names = append(names, p.name)
		}
	}
	return strings.Join(append(names, "condensed"), ", ")
}

// parseNumber reads a decimal number; Go's syntax, without hexadecimal,
// underscores, infinities or NaN.
func parseNumber(s string) (float64, bool) {
	if s == "" || strings.ContainsAny(s, "xX_") {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && !math.IsInf(v, 0) && !math.IsNaN(v)
}

// ParseBeta reads Q-measure's β: a number > 0.
func ParseBeta(s string) (float64, error) {
	v, ok := parseNumber(s)
	switch {
	case !ok:
		return 0, fmt.Errorf("beta %q is not a number; expected a number > 0", s)
	case v <= 0:
		return 0, fmt.Errorf("beta = %s; expected a number > 0 (β weighs cumulative gain against rank)", s)
	}
	return v, nil
}

// ParsePersistence reads RBP's persistence p: a number in (0, 1).
func ParsePersistence(s string) (float64, error) {
	v, ok := parseNumber(s)
	switch {
	case !ok:
		return 0, fmt.Errorf("persistence p %q is not a number; expected 0 < p < 1", s)
	case v <= 0 || v >= 1:
		return 0, fmt.Errorf("persistence p = %s; expected 0 < p < 1 (the chance of reading on to the next rank)", s)
	}
	return v, nil
}

// ParseLogBase reads nDCG's log base b: a number > 1.
func ParseLogBase(s string) (float64, error) {
	v, ok := parseNumber(s)
	switch {
	case !ok:
		return 0, fmt.Errorf("log base b %q is not a number; expected a number > 1", s)
	case v <= 1:
		return 0, fmt.Errorf("log base b = %s; expected a number > 1", s)
	}
	return v, nil
}

// ParseGains reads ntcir_eval's -g: the gains of levels 1, 2, … separated by
// colons (1:2:3). Every gain is a positive number, and no level gains less
// than a lower one: ERR's probabilities g/(g_H + 1) and RBP's g/g_H divide
// by the top level's gain, which must be the largest.
func ParseGains(s string) ([]float64, error) {
	if s == "" {
		return nil, errors.New("gains: empty; expected the gains of levels 1, 2, … separated by colons, e.g. 1:2:3")
	}
	if len(s) > maxName {
		return nil, fmt.Errorf("gains: %d bytes; expected a short list such as 1:2:3", len(s))
	}
	parts := strings.Split(s, ":")
	out := make([]float64, len(parts))
	for i, p := range parts {
		v, ok := parseNumber(p)
		switch {
		case !ok:
			return nil, fmt.Errorf("gains %q: level %d's gain %q is not a number; expected positive numbers separated by colons, e.g. 1:2:3", s, i+1, p)
		case v <= 0:
			return nil, fmt.Errorf("gains %q: level %d's gain is %s; expected a positive number (a relevant document gains something)", s, i+1, p)
		case i > 0 && v < out[i-1]:
			return nil, fmt.Errorf("gains %q: level %d gains %s, less than level %d's %s; expected gains that do not decrease with the level", s, i+1, p, i, parts[i-1])
		}
		out[i] = v
	}
	return out, nil
}

// FormatGains spells gains as ParseGains reads them.
func FormatGains(g []float64) string {
	parts := make([]string, len(g))
	for i, v := range g {
		parts[i] = formatFloat(v)
	}
	return strings.Join(parts, ":")
}

// Names returns the name of every measure, the @k ones with "@k", for
// help texts and did-you-mean.
func Names() []string {
	out := make([]string, 0, numKinds)
	for _, info := range kinds {
		n := info.name
		if info.uses&usesCutoff != 0 {
			n += "@k"
		}
		out = append(out, n)
	}
	return out
}
