// Package classify is riskgate classify: Zhang et al.'s (SIGIR 2016) Bayesian
// comparison of two classifiers' predictions, from label files to the report
// with the sign, proportion and t tests beside it.
package classify
