# Edge-case reference values for bayes' diagnostics from R's posterior package.
# Run from bayes/posterior/testdata:  Rscript posterior_edge.R
# Writes posterior_edge_draws.csv (case, chain, iteration, value; 17 significant
# digits so the draws are exact) and posterior_edge_values.csv (case, measure,
# value; NA where posterior returns NA). Produced with R 4.2.2 and posterior 1.4.0.
suppressMessages(library(posterior))
set.seed(4242)
ar1 <- function(n, phi) { x <- numeric(n); x[1] <- rnorm(1); for (i in 2:n) x[i] <- phi*x[i-1] + rnorm(1, 0, sqrt(1-phi^2)); x }
mk <- function(nch, n, f) matrix(sapply(1:nch, function(c) f(c, n)), nrow=n)  # iterations x chains
cases <- list(
  odd_ar1        = mk(3, 101, function(c, n) ar1(n, 0.7)),          # odd N: middle draw dropped
  single_chain   = mk(1, 200, function(c, n) rnorm(n)),
  antithetic     = mk(4, 250, function(c, n) ar1(n, -0.6)),         # tau below 1/log10(S): ESS capped
  slow           = mk(4, 300, function(c, n) ar1(n, 0.995)),        # Geyer runs past lag 64 (FFT path)
  ties           = mk(4, 50,  function(c, n) rpois(n, 1)),
  const_chain    = mk(3, 40,  function(c, n) if (c == 2) rep(0.25, n) else rnorm(n)),
  two_values     = mk(2, 30,  function(c, n) sample(c(-1, 1), n, replace=TRUE)),  # folded draws constant
  short8         = mk(2, 8,   function(c, n) rnorm(n)),             # split N' = 4: Geyer loop never runs
  short6         = mk(2, 6,   function(c, n) rnorm(n)),             # N' = 3, the fewest ESS accepts
  short5         = mk(2, 5,   function(c, n) rnorm(n)),             # N' = 2: ESS NA, R-hat defined
  short3         = mk(3, 3,   function(c, n) rnorm(n)),             # N' = 1: everything NA but summaries
  one_iter       = mk(3, 1,   function(c, n) rnorm(n)),
  constant       = mk(2, 20,  function(c, n) rep(1.5, n))
)
probs <- c(0, 0.025, 0.05, 0.5, 0.95, 0.975, 1)
draws <- do.call(rbind, lapply(names(cases), function(nm) {
  x <- cases[[nm]]
  data.frame(case=nm, chain=rep(seq_len(ncol(x)), each=nrow(x)), iteration=rep(seq_len(nrow(x)), ncol(x)),
             value=sprintf("%.17g", as.vector(x)))
}))
write.csv(draws, "posterior_edge_draws.csv", row.names=FALSE, quote=FALSE)
num <- function(f) tryCatch(suppressWarnings(as.numeric(f)), error=function(e) NA_real_)
vals <- do.call(rbind, lapply(names(cases), function(nm) {
  x <- cases[[nm]]
  m <- c(mean=num(mean(x)), median=num(median(x)), sd=num(sd(x)), mad=num(mad(x)),
         rhat=num(rhat(x)), rhat_basic=num(rhat_basic(x)), ess_bulk=num(ess_bulk(x)), ess_tail=num(ess_tail(x)),
         ess_basic=num(ess_basic(x)), ess_mean=num(ess_mean(x)), ess_sd=num(ess_sd(x)),
         mcse_mean=num(mcse_mean(x)), mcse_sd=num(mcse_sd(x)))
  for (p in probs) {
    m[paste0("quantile_", p)] <- num(quantile(x, p))
    m[paste0("ess_quantile_", p)] <- num(ess_quantile(x, p))
    m[paste0("mcse_quantile_", p)] <- num(mcse_quantile(x, p))
  }
  data.frame(case=nm, measure=names(m), value=ifelse(is.na(m), "NA", sprintf("%.17g", m)))
}))
write.csv(vals, "posterior_edge_values.csv", row.names=FALSE, quote=FALSE)
