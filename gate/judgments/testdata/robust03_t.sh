#!/bin/sh
# Reference values for TestRobust03Experiment and TestSyntheticUnjudgedTop5,
# made independently of riskgate: NIST trec_eval v10 (built from
# ../shared/tools/trec_eval) scores ndcg_cut.10 per topic, awk builds the
# qrels without a challenger's pool and the synthetic run (pircRBa1 with the
# top 5 documents of every topic replaced by unjudged ones), and R
# (robust03_t.R) gives the paired t of every ordered pair under the full
# qrels, the restricted qrels and the restricted qrels with -J
# (robust03_t.csv), and the synthetic run's means and t against pircRBa1,
# plain and with -J (robust03_synthetic.csv).
#
# Regenerate, from this folder:  sh robust03_t.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
shared=$(cd "$here/../../../../shared" && pwd)
data=$shared/data/trec_eval/robust03
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$shared/tools/trec_eval" "$tmp/src"
chmod -R u+w "$tmp/src"
make -s -C "$tmp/src" trec_eval >/dev/null 2>&1
te=$tmp/src/trec_eval
runs="NLPR03vb10 pircRBa1 rutcor03100"
export LC_ALL=C
for c in $runs; do
	# The other runs' top 100, ranked as trec_eval ranks (score
	# descending, ties by docno descending).
	for o in $runs; do
		[ "$o" = "$c" ] && continue
		sort -k1,1 -k5,5gr -k3,3r "$data/runs/$o.run" | awk '++n[$1] <= 100 { print $1, $3 }'
	done | sort -u >"$tmp/pool_$c"
	awk 'NR == FNR { pool[$1 " " $2] = 1; next } ($1 " " $3) in pool' "$tmp/pool_$c" "$data/qrels.txt" >"$tmp/qrels_$c"
	for s in $runs; do
		"$te" -q -m ndcg_cut.10 "$data/qrels.txt" "$data/runs/$s.run" | awk '$2 != "all" { print $2, $3 }' >"$tmp/full_$s"
		"$te" -q -m ndcg_cut.10 "$tmp/qrels_$c" "$data/runs/$s.run" | awk '$2 != "all" { print $2, $3 }' >"$tmp/restricted_${c}_$s"
		"$te" -q -J -m ndcg_cut.10 "$tmp/qrels_$c" "$data/runs/$s.run" | awk '$2 != "all" { print $2, $3 }' >"$tmp/condensed_${c}_$s"
	done
done
# The synthetic run: the top 5 of each topic renamed to documents no qrels
# judge.
sort -k1,1 -k5,5gr -k3,3r "$data/runs/pircRBa1.run" |
	awk '{ if (++n[$1] <= 5) $3 = "UNJUDGED-" $1 "-" n[$1]; print }' >"$tmp/synthetic.run"
for j in "" -J; do
	"$te" -q $j -m ndcg_cut.10 "$data/qrels.txt" "$tmp/synthetic.run" | awk '$2 != "all" { print $2, $3 }' >"$tmp/synthetic$j"
	"$te" -q $j -m ndcg_cut.10 "$data/qrels.txt" "$data/runs/pircRBa1.run" | awk '$2 != "all" { print $2, $3 }' >"$tmp/pircRBa1$j"
done
Rscript "$here/robust03_t.R" "$tmp" $runs >"$here/robust03_t.csv"
