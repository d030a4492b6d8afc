# Posterior medians of SD_system under the day-one prior τ ~ gamma(2, 4),
# τ = SD_system/σ, given a pool's system sum of squares SS over k degrees of
# freedom and n_T topics, SS/(σ² + n_T·SD²) ~ χ²(k), σ fixed
# (bayes.PoolModel.WithPriorSystemSpread; TestWithPriorSystemSpread).
#
# Regenerate (R 4.2, from this folder): Rscript posterior_median.R > posterior_median.log
cases <- data.frame(
  sigma = c(0.1, 0.1, 0.1, 0.07388, 0.1, 0.1, 0.1068),
  n_topics = c(50, 50, 50, 50, 50, 50, 50),
  ss = c(0, 0.02, 2.0, 0.0115, 0.1, 0.3, 0.01 * 1000),
  df = c(0, 1, 1, 1, 9, 40, 1000))
med <- function(sigma, nT, ss, df) {
  f <- function(tau) {
    v <- sigma^2 * (1 + nT * tau^2)
    dgamma(tau, 2, 4) * exp(-0.5 * df * log(v) - 0.5 * ss / v + 0.5 * df * log(sigma^2))
  }
  # the posterior's bulk: integrate over pieces so that a narrow peak is found
  grid <- c(0, exp(seq(log(1e-6), log(50), length.out = 400)))
  piece <- sapply(seq_len(length(grid) - 1), function(i) integrate(f, grid[i], grid[i + 1], rel.tol = 1e-12)$value)
  cum <- c(0, cumsum(piece)); total <- cum[length(cum)]
  j <- which(cum >= total / 2)[1] - 1
  g <- function(x) cum[j] + integrate(f, grid[j], x, rel.tol = 1e-12)$value - total / 2
  uniroot(g, c(grid[j], grid[j + 1]), tol = 1e-14)$root
}
cases$tau_median <- mapply(med, cases$sigma, cases$n_topics, cases$ss, cases$df)
cases$sd_system <- cases$sigma * cases$tau_median
write.csv(cases, "posterior_median.csv", row.names = FALSE)
print(cases, digits = 10)
cat(R.version.string, "\n")
