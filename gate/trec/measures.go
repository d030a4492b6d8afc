package trec

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/riskgate/riskgate/gate/ntcir"
)

// kind says how a measure family is parameterised, accumulated and printed
// (trec_eval's init/acc/avg/print procedure families, meas_*.c).
type kind int

const (
	kindRunID       kind = iota // summary line with the run id
	kindNumQ                    // summary: number of topics
	kindCount                   // per topic an integer; summary the sum (%ld)
	kindValue                   // one value; summary the mean
	kindGeoMean                 // summary only: exp(mean of per-topic logs)
	kindCutLong                 // one value per integer cutoff: name_k
	kindCutDouble               // one value per fractional cutoff: name_%3.2f
	kindParamDouble             // one value; comma-separated numbers; name_params
	kindParamPair               // one value; level=gain pairs; name_params
	kindRelString               // per topic only, a string
	kindNTCIR                   // one of NTCIREVAL's measures (gate/ntcir); one value, the mean
)

// family is one trec_eval measure (an entry of measures.c: te_trec_measures).
type family struct {
	name      string
	kind      kind
	defLong   []int64   // default cutoffs (kindCutLong)
	defDouble []float64 // default cutoffs or parameters (kindCutDouble, kindParamDouble)
	calc      func(*ranking, *Measure, []float64)
}

var (
	stdCutoffs     = []int64{5, 10, 15, 20, 30, 100, 200, 500, 1000}
	recallLevels   = []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}
	rprecMultiples = []float64{0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2}
)

// families lists every measure in trec_eval v10's table order, which is the
// order of the output lines whatever the order of -m.
var families = []*family{
	{name: "runid", kind: kindRunID},
	{name: "num_q", kind: kindNumQ, calc: calcNumQ},
	{name: "num_ret", kind: kindCount, calc: calcNumRet},
	{name: "num_rel", kind: kindCount, calc: calcNumRel},
	{name: "num_rel_ret", kind: kindCount, calc: calcNumRelRet},
	{name: "map", kind: kindValue, calc: calcMap},
	{name: "gm_map", kind: kindGeoMean, calc: calcGMMap},
	{name: "Rprec", kind: kindValue, calc: calcRprec},
	{name: "bpref", kind: kindValue, calc: calcBpref},
	{name: "recip_rank", kind: kindValue, calc: calcRecipRank},
	{name: "iprec_at_recall", kind: kindCutDouble, defDouble: recallLevels, calc: calcIprecAtRecall},
	{name: "P", kind: kindCutLong, defLong: stdCutoffs, calc: calcP},
	{name: "relstring", kind: kindRelString, defDouble: []float64{10}},
	{name: "recall", kind: kindCutLong, defLong: stdCutoffs, calc: calcRecall},
	{name: "infAP", kind: kindValue, calc: calcInfAP},
	{name: "gm_bpref", kind: kindGeoMean, calc: calcGMBpref},
	{name: "Rprec_mult", kind: kindCutDouble, defDouble: rprecMultiples, calc: calcRprecMult},
	{name: "utility", kind: kindParamDouble, defDouble: []float64{1, -1, 0, 0}, calc: calcUtility},
	{name: "11pt_avg", kind: kindParamDouble, defDouble: recallLevels, calc: calc11ptAvg},
	{name: "binG", kind: kindValue, calc: calcBinG},
	{name: "G", kind: kindParamPair, calc: calcG},
	{name: "dcg", kind: kindParamPair, calc: calcDCG},
	{name: "ideal_dcg", kind: kindParamPair, calc: calcIdealDCG},
	{name: "ndcg", kind: kindParamPair, calc: calcNDCG},
	{name: "ndcg_rel", kind: kindParamPair, calc: calcNDCGRel},
	{name: "Rndcg", kind: kindParamPair, calc: calcRndcg},
	{name: "ndcg_cut", kind: kindCutLong, defLong: stdCutoffs, calc: calcNDCGCut},
	{name: "map_cut", kind: kindCutLong, defLong: stdCutoffs, calc: calcMapCut},
	{name: "relative_P", kind: kindCutLong, defLong: stdCutoffs, calc: calcRelativeP},
	{name: "success", kind: kindCutLong, defLong: []int64{1, 5, 10}, calc: calcSuccess},
	{name: "set_P", kind: kindValue, calc: calcSetP},
	{name: "set_relative_P", kind: kindValue, calc: calcSetRelativeP},
	{name: "set_recall", kind: kindValue, calc: calcSetRecall},
	{name: "set_map", kind: kindValue, calc: calcSetMap},
	{name: "set_F", kind: kindParamDouble, defDouble: []float64{1}, calc: calcSetF},
	{name: "num_nonrel_judged_ret", kind: kindCount, calc: calcNumNonrelJudgedRet},
	{name: "yaap", kind: kindValue, calc: calcYaap},
	{name: "rbp", kind: kindParamPair, calc: calcRBP},
	{name: "rbp_resid", kind: kindParamPair, calc: calcRBPResid},
	{name: "unj", kind: kindCutLong, defLong: []int64{5, 10, 20}, calc: calcUnj},
}

// nicknames are trec_eval v10's measure groups (measures.c).
var nicknames = map[string][]string{
	"official": {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
		"Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"},
	"all_trec": {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
		"Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring",
		"recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref",
		"utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success",
		"map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G",
		"set_P", "set_recall", "set_relative_P", "set_map", "set_F",
		"num_nonrel_judged_ret"},
	"set": {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
		"set_recall", "set_relative_P", "set_map", "set_F"},
}

// unsupported names trec_eval measures and groups that need preference or
// judgment-group qrels, which riskgate eval does not read.
var unsupported = []string{"all_prefs", "prefs", "qrels_jg",
	"prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
	"prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel",
	"prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret",
	"prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp",
	"map_avgjg", "P_avgjg", "Rprec_mult_avgjg"}

// Measure is one requested measure family with its parameters.
type Measure struct {
	fam       *family
	names     []string // printed name of each value
	cutLong   []int64
	cutDouble []float64
	params    []float64
	pairs     []gainPair
	nt        ntcir.Measure // kindNTCIR: the NTCIREVAL measure
	off       int           // index of the first value in a topic's value vector
}

// Name returns the family name (map, P, ndcg_cut, …), or an NTCIREVAL
// measure's name.
func (m *Measure) Name() string {
	if m.fam.kind == kindNTCIR {
		return m.names[0]
	}
	return m.fam.name
}

// Names returns the printed names of the measure's values (P_5, P_10, …).
func (m *Measure) Names() []string { return m.names }

// Measures is a set of requested measures in trec_eval's table order.
type Measures struct {
	list    []*Measure
	nValues int
	ntcir   bool // some measure is NTCIREVAL's
}

// needRanking reports whether a measure reads the ranking: every one but
// runid and num_q (those two never call form_res_rels.c).
func (ms *Measures) needRanking() bool {
	for _, m := range ms.list {
		if m.fam.kind != kindRunID && m.fam.kind != kindNumQ {
			return true
		}
	}
	return false
}

// List returns the measures in output order.
func (ms *Measures) List() []*Measure { return ms.list }

// MeasureError is a bad -m value.
type MeasureError struct{ Msg string }

func (e *MeasureError) Error() string { return e.Msg }

func measureErrorf(format string, a ...any) error {
	return &MeasureError{fmt.Sprintf(format, a...)}
}

// ParseMeasures interprets trec_eval -m arguments: a measure name or group
// (official, all_trec, set), optionally followed by '.' and comma-separated
// parameters (P.5,10; iprec_at_recall..1,.5; ndcg.1=3,2=9; utility.2,-1,0,0).
// As in trec_eval, the first parameters given for a measure apply, and the
// measures come out in table order. No spec means "official".
//
// The registry's other spellings (names.go) are read too: ir_measures'
// names of trec_eval measures (nDCG@10 is ndcg_cut.10; the cutoffs of one
// family given this way combine, so -m P@5 -m P@10 prints both), judged@k
// (judged.go; its cutoffs combine the same way, printed after trec_eval's
// measures) and NTCIREVAL's measures (Q, nERR@10, …; the group "ntcir" is
// every one of them at ntcir_eval's default cutoff), which come last, in
// the order given.
func ParseMeasures(specs []string) (*Measures, error) {
	if len(specs) == 0 {
		specs = []string{"official"}
	}
	var trecSpecs []string
	var nts []ntcir.Measure
	var judgedCuts []int64
	irCuts := map[string]int{} // family → its ir_measures cutoffs' index in trecSpecs
	for _, spec := range specs {
		switch {
		case spec == "ntcir":
			nts = append(nts, ntcir.All(ntcir.DefaultCutoff)...)
			continue
		case isTrecSpelling(spec):
			trecSpecs = append(trecSpecs, spec)
			continue
		}
		r, err := resolveMeasure(spec)
		var unknown *unknownMeasureError
		switch {
		case errors.As(err, &unknown) && !strings.ContainsAny(spec, "@(:"):
			trecSpecs = append(trecSpecs, spec) // trec_eval's own error
		case err != nil:
			return nil, measureErrorf("-m %s: %v", spec, err)
		case r.nt != nil:
			nts = append(nts, *r.nt)
		case r.judged > 0:
			judgedCuts = append(judgedCuts, r.judged)
		default:
			name, params, _ := strings.Cut(r.trec, ".")
			i, merged := irCuts[name]
			switch {
			case !merged || params == "":
				irCuts[name] = len(trecSpecs)
				trecSpecs = append(trecSpecs, r.trec)
			case !slices.Contains(strings.Split(strings.TrimPrefix(trecSpecs[i], name+"."), ","), params):
				trecSpecs[i] += "," + params
			}
		}
	}
	ms := &Measures{}
	if len(trecSpecs) > 0 {
		var err error
		if ms, err = parseTrecMeasures(trecSpecs); err != nil {
			return nil, err
		}
	}
	if len(judgedCuts) > 0 {
		ms.add(newJudgedMeasure(judgedCuts))
	}
	seen := map[string]bool{}
	for _, nt := range nts {
		name := ntcirName(nt)
		if seen[name] {
			continue
		}
		seen[name] = true
		ms.add(&Measure{fam: ntcirFamily, names: []string{name}, nt: nt})
		ms.ntcir = true
	}
	return ms, nil
}

// isTrecSpelling reports whether spec is trec_eval's spelling of -m: a
// family or group name, with or without parameters, or the printed name of
// one value.
func isTrecSpelling(spec string) bool {
	name, _, dotted := strings.Cut(spec, ".")
	if _, group := nicknames[name]; group || familyByName(name) != nil || slices.Contains(unsupported, name) {
		return true
	}
	_, printed := specForPrintedName(spec)
	return !dotted && printed
}

// parseTrecMeasures is ParseMeasures for trec_eval's spelling only.
func parseTrecMeasures(specs []string) (*Measures, error) {
	type arg struct{ name, params string }
	var args []arg
	marked := map[string]bool{}
	for _, spec := range specs {
		name, params, hasParams := strings.Cut(spec, ".")
		if hasParams {
			if params == "" {
				return nil, measureErrorf("-m %s: empty parameter list after '.'", spec)
			}
			args = append(args, arg{name, params})
		}
		if slices.Contains(unsupported, name) {
			return nil, measureErrorf("-m %s: measure needs preference or judgment-group qrels, which riskgate eval does not read", spec)
		}
		if group, ok := nicknames[name]; ok {
			for _, n := range group {
				marked[n] = true
			}
			continue
		}
		if familyByName(name) == nil && !hasParams {
			// The printed name of one value (ndcg_cut_10) is an alias of its
			// -m spelling (ndcg_cut.10), as riskgate's other commands take it.
			if spec, ok := specForPrintedName(name); ok {
				name, params, _ = strings.Cut(spec, ".")
				if params != "" {
					args = append(args, arg{name, params})
				}
			}
		}
		if familyByName(name) == nil {
			return nil, measureErrorf("-m %s: unknown measure %q; valid: %s, or a group: all_trec, official, set, ntcir; or a name of ir_measures or NTCIREVAL (riskgate help measures)", spec, name, strings.Join(FamilyNames(), ", "))
		}
		marked[name] = true
	}
	ms := &Measures{}
	for _, f := range families {
		if !marked[f.name] {
			continue
		}
		params, given := "", false
		for _, a := range args {
			if a.name == f.name {
				params, given = a.params, true
				break
			}
		}
		m, err := newMeasure(f, params, given)
		if err != nil {
			return nil, err
		}
		ms.add(m)
	}
	return ms, nil
}

// ntcirFamily is the family of every NTCIREVAL measure: one value per
// topic, averaged, printed as trec_eval prints values.
var ntcirFamily = &family{name: "ntcir", kind: kindNTCIR, calc: calcNTCIR}

// add appends m, giving it its place in a topic's value vector.
func (ms *Measures) add(m *Measure) {
	m.off = ms.nValues
	ms.nValues += len(m.names)
	if m.fam.kind == kindNumQ {
		ms.nValues++
	}
	ms.list = append(ms.list, m)
}

// FamilyNames returns the names of the supported measures in table order.
func FamilyNames() []string {
	out := make([]string, len(families))
	for i, f := range families {
		out[i] = f.name
	}
	return out
}

func familyByName(name string) *family {
	for _, f := range families {
		if f.name == name {
			return f
		}
	}
	return nil
}

func newMeasure(f *family, params string, given bool) (*Measure, error) {
	m := &Measure{fam: f}
	bad := func(format string, a ...any) error {
		return measureErrorf("-m %s.%s: %s", f.name, params, fmt.Sprintf(format, a...))
	}
	switch f.kind {
	case kindRunID, kindNumQ:
		// no values per topic; num_q keeps one slot for its count
	case kindCount, kindValue, kindGeoMean:
		m.names = []string{f.name}
	case kindCutLong:
		m.cutLong = f.defLong
		if given {
			// meas_init.c: get_long_cutoffs — integers (read like atol),
			// sorted, positive and distinct.
			var cuts []int64
			for _, p := range strings.Split(params, ",") {
				cuts = append(cuts, atol([]byte(p)))
			}
			slices.Sort(cuts)
			if cuts[0] <= 0 {
				return nil, bad("cutoffs must be positive integers")
			}
			for i := 1; i < len(cuts); i++ {
				if cuts[i] == cuts[i-1] {
					return nil, bad("duplicate cutoff %d", cuts[i])
				}
			}
			m.cutLong = cuts
		}
		for _, k := range m.cutLong {
			m.names = append(m.names, f.name+"_"+strconv.FormatInt(k, 10))
		}
	case kindCutDouble:
		m.cutDouble = f.defDouble
		if given {
			cuts, err := parseDoubles(params)
			if err != nil {
				return nil, bad("%v", err)
			}
			slices.Sort(cuts)
			for i := 1; i < len(cuts); i++ {
				if cuts[i] == cuts[i-1] {
					return nil, bad("duplicate cutoff %v", cuts[i])
				}
			}
			m.cutDouble = cuts
		}
		for _, c := range m.cutDouble {
			// meas_init.c: append_double prints "%s_%3.2f" into a buffer of
			// len(name)+10 bytes, so long numbers are cut short.
			name := f.name + "_" + strconv.FormatFloat(c, 'f', 2, 64)
			if len(name) > len(f.name)+9 {
				name = name[:len(f.name)+9]
			}
			m.names = append(m.names, name)
		}
	case kindParamDouble, kindRelString:
		m.params = f.defDouble
		name := f.name
		if given {
			ps, err := parseDoubles(params)
			if err != nil {
				return nil, bad("%v", err)
			}
			m.params = ps
			name += "_" + params
		}
		if f.name == "utility" && len(m.params) != 4 {
			return nil, bad("utility takes 4 coefficients, got %d", len(m.params))
		}
		if f.kind == kindParamDouble {
			m.names = []string{name}
		} else {
			m.names = []string{name} // printed per topic only
		}
	case kindParamPair:
		name := f.name
		if given {
			pairs, err := parsePairs(params)
			if err != nil {
				return nil, bad("%v", err)
			}
			m.pairs = pairs
			name += "_" + params
		}
		m.names = []string{name}
	}
	if f.kind == kindRelString {
		// relstring has no numeric value; its name is kept for printing.
		return m, nil
	}
	return m, nil
}

// parseDoubles reads comma-separated numbers with C's atof, as trec_eval.
func parseDoubles(s string) ([]float64, error) {
	var out []float64
	for _, p := range strings.Split(s, ",") {
		v := atof([]byte(p))
		if math.IsNaN(v) {
			return nil, fmt.Errorf("parameter %q is not a number", p)
		}
		out = append(out, v)
	}
	return out, nil
}

// parsePairs reads "name=value,name=value" (meas_init.c: get_param_pairs):
// every comma-separated item needs exactly one '='.
func parsePairs(s string) ([]gainPair, error) {
	var out []gainPair
	for _, item := range strings.Split(s, ",") {
		name, value, ok := strings.Cut(item, "=")
		if !ok || strings.Contains(value, "=") {
			return nil, fmt.Errorf("malformed pair %q; expected level=gain", item)
		}
		out = append(out, gainPair{name: name, value: atof([]byte(value))})
	}
	return out, nil
}

// MeasureForName returns the measures that compute the per-topic value
// name names, in any spelling of the registry (names.go): trec_eval's
// (map, P_10, ndcg_cut.10 …; "" means map), ir_measures' (nDCG@10) or
// NTCIREVAL's (Q, nERR@10). Names without a per-topic value (runid, num_q,
// gm_map, gm_bpref, relstring) are refused.
func MeasureForName(name string) (*Measures, error) {
	if name == "" {
		name = "map"
	}
	r, err := resolveMeasure(name)
	if err != nil {
		return nil, err
	}
	if r.nt != nil {
		ms := &Measures{ntcir: true}
		ms.add(&Measure{fam: ntcirFamily, names: []string{ntcirName(*r.nt)}, nt: *r.nt})
		return ms, nil
	}
	if r.judged > 0 {
		ms := &Measures{}
		ms.add(newJudgedMeasure([]int64{r.judged}))
		return ms, nil
	}
	return MeasureForTrecName(r.trec)
}

// MeasuresForNames is MeasureForName for several per-topic values, in one
// set, so that one evaluation of a run gives every one of them. Each name is
// read as MeasureForName reads it; a name given twice is evaluated twice.
func MeasuresForNames(names []string) (*Measures, error) {
	out := &Measures{}
	for _, name := range names {
		ms, err := MeasureForName(name)
		if err != nil {
			return nil, err
		}
		for _, m := range ms.list {
			c := *m
			out.add(&c)
		}
		out.ntcir = out.ntcir || ms.ntcir
	}
	return out, nil
}

// MeasureForTrecName is MeasureForName for trec_eval's spellings only: the
// per-topic value trec_eval prints as name (map, P_10, ndcg_cut_10,
// iprec_at_recall_0.10, utility_2,-1,0,0, ndcg_1=3,2=9 …) or its -m
// spelling (ndcg_cut.10, P.5).
func MeasureForTrecName(name string) (*Measures, error) {
	if name == "" {
		name = "map"
	}
	if ms, ok, err := measureForSpec(name); ok {
		return ms, err
	}
	for _, f := range familiesByLength() {
		var spec string
		switch {
		case name == f.name:
			spec = f.name
		case strings.HasPrefix(name, f.name+"_"):
			spec = f.name + "." + name[len(f.name)+1:]
		default:
			continue
		}
		switch f.kind {
		case kindRunID, kindNumQ, kindGeoMean, kindRelString:
			return nil, fmt.Errorf("measure %q has no per-topic value; valid per-topic measures: %s", name, perTopicNames())
		}
		ms, err := parseTrecMeasures([]string{spec})
		if err != nil {
			continue
		}
		if slices.Contains(ms.list[0].names, name) {
			return ms, nil
		}
	}
	return nil, unknownMeasure(name)
}

// familiesByLength are the families, longest name first (stable), so that
// a printed name is read as the longest family it begins with: sorted once,
// as every measure name a policy or score file spells is read through it.
var familiesByLength = sync.OnceValue(func() []*family {
	byLength := slices.Clone(families)
	slices.SortStableFunc(byLength, func(a, b *family) int { return len(b.name) - len(a.name) })
	return byLength
})

// perTopicNames lists the per-topic value names of -m all_trec.
func perTopicNames() string {
	perTopicOnce.Do(func() { perTopicList = allTrecPerTopicNames() })
	return perTopicList
}

// perTopicNames is computed once: every unknown name's message and
// did-you-mean read it.
var (
	perTopicOnce sync.Once
	perTopicList string
)

func allTrecPerTopicNames() string {
	ms, _ := parseTrecMeasures([]string{"all_trec"})
	var names []string
	for _, m := range ms.list {
		switch m.fam.kind {
		case kindRunID, kindNumQ, kindGeoMean, kindRelString:
			continue
		}
		names = append(names, m.names...)
	}
	return strings.Join(names, ", ")
}
