package trec

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/gate/ntcir"
	"github.com/riskgate/riskgate/internal/suggest"
)

// The one registry of measure names. A per-topic measure is named in any
// of three spellings and printed in one:
//
//   - trec_eval's: its -m spelling of one value (ndcg_cut.10, P.5, map) or
//     the name it prints (ndcg_cut_10, P_5); printed as trec_eval prints it.
//   - ir_measures': the names ir_measures computes with trec_eval
//     (pytrec_eval_provider.py: nDCG@10 is ndcg_cut_10, AP is map, AP@10
//     map_cut_10, RR recip_rank, R@100 recall_100, P@5 P_5, Success@1
//     success_1, …); printed as the trec_eval measure they are.
//   - NTCIREVAL's (gate/ntcir): Q, P+, nERR@10, Q(beta=10), …; printed as
//     ntcir.Measure.String spells it. Where ir_measures gives the name to a
//     trec_eval measure (RR, AP, AP@k, P@k, nDCG@k), NTCIREVAL's measure
//     is named with the prefix "ntcir:" (ntcir:nDCG@10 is Järvelin and
//     Kekäläinen's nDCG, nDCG@10 trec_eval's ndcg_cut.10).

// ntcirPrefix marks NTCIREVAL's spelling of a measure.
const ntcirPrefix = "ntcir:"

// irMeasure is one of ir_measures' names of a trec_eval measure
// (pytrec_eval_provider.py): base, whether it takes @cutoff, and the
// trec_eval family (one value without cutoff; family.k with one).
type irMeasure struct {
	name   string
	cutoff bool
	family string
}

var irMeasures = []irMeasure{
	{"P", true, "P"}, {"RR", false, "recip_rank"}, {"Rprec", false, "Rprec"},
	{"AP", false, "map"}, {"AP", true, "map_cut"}, {"infAP", false, "infAP"},
	{"nDCG", false, "ndcg"}, {"nDCG", true, "ndcg_cut"}, {"R", true, "recall"},
	{"Bpref", false, "bpref"}, {"NumRet", false, "num_ret"}, {"NumRel", false, "num_rel"},
	{"NumQ", false, "num_q"}, {"SetAP", false, "set_map"}, {"SetF", false, "set_F"},
	{"SetP", false, "set_P"}, {"SetR", false, "set_recall"}, {"Success", true, "success"},
	{"IPrec", true, "iprec_at_recall"},
}

// resolved is what a measure name names: a trec_eval measure (its -m
// spelling of one value), an NTCIREVAL one, or judged@k (judged.go).
type resolved struct {
	trec   string
	nt     *ntcir.Measure
	judged int64 // k of judged@k; 0 for the others
}

// malformedMeasureError is the error for a name that is a measure of one
// of the spellings with a parameter or cutoff it cannot take: a mistake,
// never the name of a score file's own measure.
type malformedMeasureError struct{ err error }

func (e *malformedMeasureError) Error() string { return e.err.Error() }
func (e *malformedMeasureError) Unwrap() error { return e.err }

// CheckMeasureSyntax returns the error of a name that spells one of the
// registry's measures with a parameter or cutoff it cannot take (Q(beta=0),
// nERR@0, P@x, ntcir:nope), and nil for any other name: a valid one, or one
// that no spelling knows, which a score file may hold as its own measure.
func CheckMeasureSyntax(name string) error {
	_, err := resolveMeasure(name)
	var bad *malformedMeasureError
	if errors.As(err, &bad) {
		return bad
	}
	return nil
}

// resolveMeasure reads name in any spelling. A name that is no measure of
// any of them gives an error with did-you-mean.
func resolveMeasure(name string) (resolved, error) {
	if rest, ok := strings.CutPrefix(name, ntcirPrefix); ok {
		m, err := ntcir.Parse(rest)
		if errors.Is(err, ntcir.ErrNotNTCIR) {
			hint := suggest.DidYouMean(rest, instantiate(ntcir.Names(), rest))
			return resolved{}, &malformedMeasureError{fmt.Errorf("unknown measure %q: no NTCIREVAL measure %q%s; NTCIREVAL's measures: %s", name, rest, hint, strings.Join(ntcir.Names(), ", "))}
		}
		if err != nil {
			return resolved{}, &malformedMeasureError{err}
		}
		return resolved{nt: &m}, nil
	}
	if spec, ok, err := irMeasureSpec(name); ok {
		if err != nil {
			return resolved{}, &malformedMeasureError{err}
		}
		return resolved{trec: spec}, nil
	}
	if k, ok, err := judgedCutoff(name); ok {
		if err != nil {
			return resolved{}, &malformedMeasureError{err}
		}
		return resolved{judged: k}, nil
	}
	if base, _, cut := strings.Cut(name, "@"); base == "ERR" && cut {
		return resolved{}, notHere(name)
	}
	m, err := ntcir.Parse(name)
	if err == nil {
		return resolved{nt: &m}, nil
	}
	if !errors.Is(err, ntcir.ErrNotNTCIR) {
		if familyByName(name) != nil { // P: trec_eval's family too, whose error it is
			_, err := MeasureForTrecName(name)
			return resolved{}, err
		}
		return resolved{}, &malformedMeasureError{err}
	}
	if spec, ok := trecSpec(name); ok {
		return resolved{trec: spec}, nil
	}
	_, err = MeasureForTrecName(name)
	return resolved{}, err
}

// irMeasureSpec returns the trec_eval -m spelling of ir_measures' name;
// ok is false when name is none of ir_measures' names of a trec_eval
// measure.
func irMeasureSpec(name string) (spec string, ok bool, err error) {
	base, cutoff, hasCutoff := strings.Cut(name, "@")
	params := ""
	if i := strings.IndexByte(base, '('); i >= 0 && strings.HasSuffix(base, ")") {
		base, params = base[:i], base[i:]
	}
	for _, im := range irMeasures {
		if im.name != base || im.cutoff != hasCutoff {
			continue
		}
		if params != "" {
			msg := fmt.Sprintf("measure %q: %s is ir_measures' name of trec_eval's %s, whose parameters are riskgate eval's options (-l, -J), not part of the name", name, base, im.family)
			if _, err := ntcir.Parse(name); !errors.Is(err, ntcir.ErrNotNTCIR) {
				msg += fmt.Sprintf("; NTCIREVAL's measure of that name is %s%s", ntcirPrefix, name)
			}
			return "", true, errors.New(msg)
		}
		if !hasCutoff {
			return im.family, true, nil
		}
		if im.family == "iprec_at_recall" {
			return im.family + "." + cutoff, true, nil
		}
		k, err := strconv.Atoi(cutoff)
		if err != nil || k < 1 || strings.ContainsAny(cutoff, "+-") {
			return "", true, fmt.Errorf("measure %q: cutoff %q; expected a whole number ≥ 1 (as in %s@10)", name, cutoff, base)
		}
		return im.family + "." + strconv.Itoa(k), true, nil
	}
	return "", false, nil
}

// notHere explains ir_measures' ERR@k, which it computes with gdeval and
// riskgate does not compute.
func notHere(name string) error {
	return fmt.Errorf("unknown measure %q: ir_measures' ERR@k is gdeval's (probabilities (2^g − 1)/2^g_max), which riskgate does not compute; NTCIREVAL's are ERR (the whole list) and nERR@k (see riskgate help measures)", name)
}

// trecSpec returns the -m spelling of one trec_eval value named either way.
func trecSpec(name string) (string, bool) {
	ms, err := MeasureForTrecName(name)
	if err != nil || len(ms.list) != 1 || len(ms.list[0].names) != 1 {
		return "", false
	}
	return specForPrintedName(ms.list[0].names[0])
}

// canonical is the one spelling of a resolved measure, or an error for a
// trec_eval measure without one per-topic value.
func (r resolved) canonical() (string, error) {
	if r.judged > 0 {
		return judgedPrefix + strconv.FormatInt(r.judged, 10), nil
	}
	if r.nt != nil {
		return ntcirName(*r.nt), nil
	}
	ms, err := MeasureForTrecName(r.trec)
	if err != nil {
		return "", err
	}
	return ms.list[0].names[0], nil
}

// ntcirName is the one spelling of an NTCIREVAL measure: its own, prefixed
// with "ntcir:" where that names another measure.
func ntcirName(m ntcir.Measure) string {
	s := m.String()
	if other, err := resolveMeasure(s); err != nil || other.nt == nil {
		return ntcirPrefix + s
	}
	return s
}

// CanonicalMeasure returns the one spelling of the per-topic measure name
// names in any spelling (see resolveMeasure), or an error naming what is
// wrong with it, with did-you-mean for a likely typo.
func CanonicalMeasure(name string) (string, error) {
	r, err := resolveMeasure(name)
	if err != nil {
		return "", err
	}
	return r.canonical()
}

// instantiate spells names ending in "@k" with the cutoff of typed (10
// when it has none), for did-you-mean.
func instantiate(names []string, typed string) []string {
	k := "10"
	if _, c, ok := strings.Cut(typed, "@"); ok && c != "" {
		k = c
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.Replace(n, "@k", "@"+k, 1)
	}
	return out
}

// measureNamesForSuggestion lists every spelling did-you-mean picks from.
func measureNamesForSuggestion(typed string) []string {
	names := strings.Split(perTopicNames(), ", ")
	names = append(names, FamilyNames()...)
	var ir []string
	for _, im := range irMeasures {
		if im.cutoff {
			ir = append(ir, im.name+"@k")
		} else {
			ir = append(ir, im.name)
		}
	}
	ir = append(ir, "judged@k")
	names = append(names, instantiate(ir, typed)...)
	names = append(names, instantiate(ntcir.Names(), typed)...)
	slices.Sort(names)
	return slices.Compact(names)
}

// MeasureHelp is `riskgate help measures`: every measure runs + qrels can be
// scored with, how each is named, and which names are which.
func MeasureHelp() string {
	var b strings.Builder
	b.WriteString(measureHelpHead)
	for _, m := range ntcir.All(10) {
		name := ntcirName(m)
		if m.HasCutoff() {
			name = strings.TrimSuffix(name, "@10") + "@k"
		}
		fmt.Fprintf(&b, "  %-16s %s\n", name, m.Definition())
	}
	b.WriteString(measureHelpTail)
	return b.String()
}

const measureHelpHead = `Measures of runs + qrels (eval -m, --measure, a policy's inputs.measure, and the
measure names of score files) are named in any of three spellings, and printed in one.

trec_eval's: every measure of trec_eval v10 (riskgate eval --help), by its -m
  spelling of one value (map, P.10, ndcg_cut.10, recall.100) or the name trec_eval
  prints (P_10, ndcg_cut_10). Printed as trec_eval prints it.

ir_measures': the names ir_measures gives trec_eval's measures, printed as those:
  AP = map, AP@k = map_cut.k, RR = recip_rank, P@k = P.k, R@k = recall.k,
  nDCG = ndcg, nDCG@k = ndcg_cut.k, Success@k = success.k, Rprec, infAP,
  Bpref = bpref, IPrec@r = iprec_at_recall.r, NumRet, NumRel, SetAP, SetF, SetP, SetR.
  Their parameters (rel=, judged_only=) are eval's options -l and -J, not names.
  ir_measures' ERR@k (gdeval) is not trec_eval's and is not computed.

Coverage: judged@k (ir_measures' Judged@k reads as it) is the share of the top k
  ranks that hold a judged document: 1 − unj_k of trec_eval, (k − u)/k with u the
  documents of the top k outside the qrels or with a negative level; ranks past
  the end of the run count as judged (ir_measures divides by the documents
  retrieved instead, and counts negative levels as judged). Printed judged@k.

NTCIREVAL's (Sakai's ntcir_eval compute), printed as below. Parameters go in
  parentheses before the cutoff: gains=1:2:3 (the gains of levels 1, 2, …;
  positive, not decreasing; default: each level's number, up to the qrels' highest,
  or eval's -g), beta= (β > 0, default 1), p= (persistence, 0 < p < 1, default 0.95),
  b= (log base > 1, default 2), condensed=true (unjudged documents removed first:
  Sakai's condensed list, as eval's -J). Examples: Q, P+, nERR@10, Q(beta=10),
  RBP(p=0.8), nERR(gains=1:3:7)@10, Q(condensed=true).
  Where ir_measures uses the name for a trec_eval measure, NTCIREVAL's is "ntcir:":
  ntcir:nDCG@10 is Järvelin and Kekäläinen's original nDCG (log base b; ranks
  below b not discounted), while nDCG@10 is trec_eval's ndcg_cut.10 (log₂(r+1)
  discount, the form MSnDCG@10 computes with NTCIREVAL's gains); ntcir:AP@10
  divides by min(10, R), map_cut.10 (AP@10) by R.

  Notation: I(r) = 1 for a document of level ≥ 1 at rank r, count(r) relevant
  documents in the top r, g(r) the gain at r, cg(r) = Σ g, cg*(r) the ideal list's,
  R relevant judged documents, BR(r) = (count(r) + β cg(r))/(r + β cg*(r)),
  r1 the first relevant rank, rp the first rank of the highest level retrieved,
  g_H the top level's gain.

`

const measureHelpTail = `
ntcir:RR, ntcir:AP and ntcir:P@k are the numbers recip_rank, map and P_k give, and
Hit@k is success_k (two implementations, tested against each other). Q, P+, nERR@k,
MSnDCG@k and the others are NTCIREVAL's alone.

Runs are ranked as trec_eval ranks them: by score, descending, ties by document id
descending. Every level ≥ 1 is relevant to NTCIREVAL's measures (eval's -l applies
to trec_eval's). Sources and tests: docs/measures.md.
`
