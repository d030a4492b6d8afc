// Package pair is riskgate pair's report: Sakai's (SIGIR 2017) Bayesian
// comparison of two systems' per-topic scores, paired or unpaired, beside the
// classical t-test, in table, markdown, JSON and CSV.
package pair
