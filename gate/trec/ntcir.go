package trec

import (
	"fmt"
	"slices"

	"github.com/riskgate/riskgate/gate/ntcir"
	"github.com/riskgate/riskgate/internal/inputerr"
)

// NTCIREVAL's measures (gate/ntcir) score the ranking trec_eval's
// machinery forms: sorted as trec_eval sorts a run (score descending, ties
// by document id descending), cut at -M and, under -J, without its
// unjudged documents — which is ntcir_eval's condensed list (label -j).
// Every level ≥ 1 is relevant with its gain (-l is trec_eval's); a
// document outside the qrels or with a negative level is unjudged.

// maxNTCIRLevel bounds the relevance levels NTCIREVAL's measures read: a
// gain per level, up to this one.
const maxNTCIRLevel = 1000

// calcNTCIR: the NTCIREVAL measure m.nt of the ranking (gate/ntcir).
func calcNTCIR(r *ranking, m *Measure, out []float64) { out[0] = r.nt.Value(m.nt) }

// ntcirState is what an evaluator keeps for NTCIREVAL's measures: the
// gains of levels 1, 2, … (-g, or each level's number up to the qrels'
// highest), the scorer, and the judged counts per level of the topic.
type ntcirState struct {
	gains  []float64
	scorer ntcir.Scorer
	judged []int64
}

// setupNTCIR checks the qrels against the gains NTCIREVAL's measures use
// and sets e.nt.gains: every level must have a gain, from -g or from the
// measure's own gains=, and no level may be above maxNTCIRLevel.
func (e *Evaluator) setupNTCIR() error {
	if !e.Measures.ntcir || e.nt.gains != nil {
		return nil
	}
	top := int64(0)
	for _, t := range e.Qrels.topics {
		if n := len(t.levels); n > 0 {
			top = max(top, t.levels[n-1].level)
		}
	}
	check := func(gains []float64, param string) error {
		limit := int64(len(gains))
		if gains == nil {
			limit = maxNTCIRLevel
		}
		if top <= limit {
			return nil
		}
		line, level := e.Qrels.firstAbove(limit)
		if gains == nil {
			return inputerr.At(e.Qrels.Name, line, "relevance level %d; NTCIREVAL's measures take levels 0 to %d (a gain per level)", level, maxNTCIRLevel)
		}
		return inputerr.At(e.Qrels.Name, line, "relevance level %d, but %s gives gains to levels 1 to %d only; expected a gain for every level of the qrels", level, param, limit)
	}
	if err := check(e.Opt.Gains, "-g "+ntcir.FormatGains(e.Opt.Gains)); err != nil {
		return err
	}
	for _, m := range e.Measures.list {
		if m.fam.kind == kindNTCIR && m.nt.Gains != nil {
			if err := check(m.nt.Gains, m.names[0]); err != nil {
				return err
			}
		}
	}
	e.nt.gains = e.Opt.Gains
	if e.nt.gains == nil {
		e.nt.gains = make([]float64, max(top, 1))
		for i := range e.nt.gains {
			e.nt.gains[i] = float64(i + 1)
		}
	}
	return nil
}

// firstAbove returns the line and level of the first judgment (in file
// order) of a level above limit.
func (q *Qrels) firstAbove(limit int64) (line int, level int64) {
	line = -1
	for _, t := range q.topics {
		for _, j := range t.judged {
			if int64(j.rel) > limit && (line < 0 || int(j.line) < line) {
				line, level = int(j.line), int64(j.rel)
			}
		}
	}
	return max(line, 0), level
}

// resetNTCIR gives the scorer the current topic's ranking and judgments.
func (e *Evaluator) resetNTCIR() {
	r, nt := &e.r, &e.nt
	top := int64(0)
	if n := len(r.levels); n > 0 {
		top = r.levels[n-1].level
	}
	nt.judged = slices.Grow(nt.judged[:0], int(top)+1)[:top+1]
	clear(nt.judged)
	for _, lc := range r.levels {
		nt.judged[lc.level] = lc.count
	}
	nt.scorer.Reset(r.rel, nt.judged, nt.gains)
	r.nt = &nt.scorer
}

// GainsOption reads eval's -g: the gains of levels 1, 2, … of NTCIREVAL's
// measures (ntcir_eval's -g).
func GainsOption(spelled, value string) ([]float64, error) {
	g, err := ntcir.ParseGains(value)
	if err != nil {
		return nil, &UsageError{fmt.Sprintf("option %s: %v", spelled, err)}
	}
	return g, nil
}
