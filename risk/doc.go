// Package risk computes the frequentist risk-sensitive measures of IR
// evaluation — URisk, TRisk, the BCa bootstrap interval of URisk, ZRisk and
// GeoRisk — and the classical tests and effect sizes that go with them, over
// per-topic scores. It does no I/O.
//
// # Inputs
//
// A Pair holds two systems' per-topic scores, aligned topic by topic: X (in
// riskgate a challenger) and Base (the champion). TwoSamples holds two
// independent samples of any sizes, for the unpaired tests (Welch's t,
// Glass's Δ). Systems holds a set of systems' scores, Systems[s][t]. Scores must be finite; ZRisk and GeoRisk
// also need them non-negative. Every function checks its input and returns
// an error (never panics) for fewer than two topics, mismatched lengths or
// non-finite values.
//
// # Conventions
//
// Every measure is reward-positive: larger means X did better than Base,
// as in the original papers. Benham et al.'s risk-oriented "⁻" columns
// (SIGIR 2020) are the negations, left to the caller.
//
// One loss-weight convention holds everywhere: losses count w times. The
// risk-adjusted difference of a topic is d_i = Δ_i if Δ_i ≥ 0 and w·Δ_i
// otherwise (Δ_i = X_i − Base_i). Wang et al. and Dinçer et al. write the
// weight 1 + α; Benham et al. write it r. w = 1 gives plain differences.
// Benham et al.'s Table 3 mixes the two: its URisk⁻ and TRisk⁻ columns use
// w = 5 (r = 5) but its ZRisk⁻ column w = 6 (1 + α with α = 5).
//
// ZRisk and GeoRisk follow Dinçer, Macdonald and Ounis (SIGIR 2016). The
// GeoRisk⁻ column of Benham et al.'s Table 3 is not −GeoRisk: it applies Φ
// to the risk-oriented ZRisk⁻ (see GeoRisk and TestGeoRiskPaperColumn).
//
// # Degenerate data and warnings
//
// Results carry Warnings []string where a value is degenerate rather than
// failing: zero variance makes TRisk and the t statistics ±Inf (NaN when the
// mean is also 0); constant data leave the bootstrap without an interval
// (NaN endpoints); an exact additive fit makes ANOVA's F infinite.
//
// # Classical tests beside the Bayesian ones
//
// The frequentist results that Sakai (SIGIR 2017) and Zhang et al. (SIGIR
// 2016) tabulate beside their Bayesian tests live here too, and riskgate's
// pair and classify reports call them: the one-sided p-value of the t tests
// (TTest.PGreater), Pearson's correlation (Pair.Pearson), and Yang & Liu's
// tests of two classifiers (SignTest over documents, ProportionTest; see
// accuracy.go).
//
// # Randomness
//
// Randomised procedures (the bootstrap, the randomisation test, Sakai's
// bootstrap test, the randomised Tukey HSD) take B and a seed. Their
// replicates are split into fixed-size chunks, each drawn from its own
// math/rand/v2 PCG stream seeded from (seed, procedure, chunk index), and
// spread over GOMAXPROCS goroutines: identical input, B and seed give
// bit-identical output whatever GOMAXPROCS is. R's random streams are not
// reproduced, so Monte-Carlo results agree with R's only within Monte-Carlo
// error.
//
// # References checked by the tests
//
// R 4.2.2 (t.test, wilcox.test, binom.test, cor, pnorm, boot 1.3-28
// boot.ci, aov, TukeyHSD, ptukey, qtukey, psignrank, p.adjust) through
// ../shared/reference/r_freq and testdata/reference.R, and the Robust04 rows
// of Benham et al.'s Table 3.
package risk
