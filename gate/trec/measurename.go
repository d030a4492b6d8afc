package trec

import (
	"fmt"
	"strings"

	"github.com/riskgate/riskgate/internal/suggest"
)

// One measure syntax for every command: trec_eval's -m spelling
// (family.params: ndcg_cut.10, P.5, map) and the name trec_eval prints for
// the value (ndcg_cut_10, P_5), which names one per-topic value.

// MeasureName returns the name trec_eval prints for the one per-topic value
// name spells either way (ndcg_cut.10 and ndcg_cut_10 → ndcg_cut_10). A name
// that is no trec_eval measure is returned unchanged: score files may hold
// any measure.
//
// ir_measures' and NTCIREVAL's names are read too (names.go): nDCG@10 →
// ndcg_cut_10, Q-measure → Q; each measure has this one spelling.
func MeasureName(name string) string {
	if name == "" {
		return name
	}
	c, err := CanonicalMeasure(name)
	if err != nil {
		return name
	}
	return c
}

// measureForSpec reads name as trec_eval's -m spelling of one value
// (family.params). ok is false when name is not that spelling.
func measureForSpec(name string) (ms *Measures, ok bool, err error) {
	fam, _, dotted := strings.Cut(name, ".")
	f := familyByName(fam)
	if !dotted || f == nil {
		return nil, false, nil
	}
	switch f.kind {
	case kindRunID, kindNumQ, kindGeoMean, kindRelString:
		return nil, true, fmt.Errorf("measure %q has no per-topic value; valid per-topic measures: %s", name, perTopicNames())
	}
	ms, err = parseTrecMeasures([]string{name})
	if err != nil {
		return nil, true, err
	}
	if len(ms.list) != 1 || len(ms.list[0].names) != 1 {
		return nil, true, fmt.Errorf("measure %q names %d values (%s); name one, e.g. %s.%s",
			name, len(ms.list[0].names), strings.Join(ms.list[0].names, ", "), fam, strings.TrimPrefix(ms.list[0].names[0], fam+"_"))
	}
	return ms, true, nil
}

// specForPrintedName returns the -m spelling of a printed per-topic value
// name (ndcg_cut_10 → ndcg_cut.10, map → map).
func specForPrintedName(name string) (string, bool) {
	ms, err := MeasureForTrecName(name)
	if err != nil || len(ms.list) != 1 {
		return "", false
	}
	m := ms.list[0]
	if name == m.fam.name {
		return name, true
	}
	return m.fam.name + "." + strings.TrimPrefix(name, m.fam.name+"_"), true
}

// unknownMeasure is the error for a name that is no trec_eval measure, with
// the closest per-topic value name or family when one is a likely typo.
func unknownMeasure(name string) error { return &unknownMeasureError{name} }

// unknownMeasureError is the error for a name no spelling knows. Its message
// and did-you-mean are written when it is read: the name's closest match
// among every measure name takes thousands of edit distances, and most
// callers drop the error (MeasureName and policies.CanonicalMeasure keep a
// score file's own measure name as it is; ParseMeasures hands the name to
// trec_eval's parser).
type unknownMeasureError struct{ name string }

func (e *unknownMeasureError) Error() string {
	hint := ""
	if s := suggest.Closest(e.name, measureNamesForSuggestion(e.name)); s != "" {
		if spec, ok := specForPrintedName(s); ok && strings.Contains(e.name, ".") {
			s = spec // answer in the spelling asked
		}
		hint = fmt.Sprintf(" (did you mean %q?)", s)
	}
	return fmt.Sprintf("unknown measure %q%s; valid: a trec_eval measure as -m spells it (map, P.10, ndcg_cut.10, recall.100) or as it prints it (P_10, ndcg_cut_10), of the families %s; ir_measures' names of them (nDCG@10, AP, P@5); NTCIREVAL's (Q, P+, nERR@10; riskgate help measures)",
		e.name, hint, strings.Join(FamilyNames(), ", "))
}
