// Package twosample holds the Bayesian comparisons of two systems that need
// neither MCMC nor the hierarchical model: Sakai's paired and unpaired
// models of two systems' per-topic scores (SIGIR 2017, flat priors;
// CompareTwoSystems) and Zhang et al.'s comparison of two classifiers on one
// test set (SIGIR 2016, Beta/Dirichlet models; CompareClassifiers,
// ClassifierPower). Every posterior here is drawn exactly — by rejection
// from an inverse-Wishart proposal, or from conjugate Beta, Dirichlet and
// Gamma variates — and summarised with bayes/posterior's HDI+ROPE decisions
// and Savage–Dickey Bayes factors. The models and their derivations are in
// twosample.go's and classifier.go's opening comments.
//
// Every computation takes a seed: work is split into numbered random streams
// (NewStream), so the draws are the same whatever GOMAXPROCS is.
package twosample
