// Package trec reads TREC qrels and run files and evaluates runs exactly as
// NIST trec_eval v10 does (usnistgov/trec_eval, tag v10.0): every measure of
// "-m all_trec" plus dcg, ideal_dcg and yaap, with trec_eval's names, parameters,
// line order, "all" lines and printf formatting, byte for byte. It backs the
// riskgate eval command and the score-table loader for run files.
//
// Where a number comes from:
//
//   - parsing: ReadQrels (get_qrels.c) and ReadRun (get_trec_results.c),
//     with C's atof/atol for scores and levels (cparse.go);
//   - ranking: ReadRun sorts each topic by score descending, ties by docno
//     descending (NaN scores as glibc's merge sort leaves them); Evaluate
//     applies -M and -J and assigns each rank its relevance value
//     (form_res_rels.c);
//   - measures: one calc function per trec_eval measure in calc.go, each
//     documented with its definition and trec_eval source file; gains for
//     the nDCG family in gains.go (gain_init.c);
//   - averaging and -c: Evaluator.summarize (meas_avg.c, m_num_rel.c);
//   - output: AppendTopic and AppendSummary (meas_print_*.c).
//
// trec_eval's quirks are reproduced on purpose and documented where they
// happen: v10 stops on a qrels topic missing from the run unless -c; -c
// scores such a topic through a stand-in document; the summary num_rel
// under -c counts level > 0 in the whole qrels; a qrels comment line makes
// the next line data; custom nDCG gains closer than 1 sort as equal. Not
// reproduced: what trec_eval does where it reads memory it never wrote,
// reuses another topic's level counts or crashes (docs/eval.md lists each;
// TestDifferentialTrecEval compares everything else with trec_eval itself).
//
// Files are read line by line into interned docnos and compact per-topic
// arrays; no file text is kept, so memory grows with the number of lines
// (about 40 bytes per run line), not with line length.
package trec
