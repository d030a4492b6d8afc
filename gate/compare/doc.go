// Package compare is riskgate compare: the frequentist risk measures and
// classical tests of a champion against its challengers (Benham et al.'s
// Table 3 view, with an optional BRisk column), and its table, markdown, JSON
// and CSV formats.
package compare
