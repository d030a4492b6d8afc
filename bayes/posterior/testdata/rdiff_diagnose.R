# The R side of TestDifferentialPosterior (bayes/rdiff_test.go): what
# posterior 1.4's summarise_draws prints for the measures of riskgate
# diagnose --extra, for every chain set of the input file. Run as
#
#   Rscript --vanilla rdiff_diagnose.R INPUT OUTPUT
#
# INPUT lines: "D id chains iterations v_1 …", the draws chain after chain
# as C99 hexadecimal floats (exact for normal numbers; echoed back so the
# test can check they were read exactly).
#
# OUTPUT lines: "id key value", each value %a, NA, NaN, Inf or -Inf, or
# "id key ERR:message" where R stops.

suppressPackageStartupMessages(library(posterior))
# matrixStats 0.63 checks, at every 50th colVars call, that 'center' is the
# mean; posterior passes its left-to-right chain means, which fail the check
# for draws far from 0 against their spread (1e6 ± 1), and summarise_draws
# then stops, depending only on the count of earlier calls. The values are
# the same without the check.
options(matrixStats.vars.formula.freq = 0)
args <- commandArgs(TRUE)
input <- strsplit(readLines(args[1]), " ", fixed = TRUE)
out <- character(length(input) * 20L)
nout <- 0L

fmt <- function(v) {
  v <- as.numeric(v)
  ifelse(is.nan(v), "NaN", ifelse(is.na(v), "NA", ifelse(is.infinite(v),
    ifelse(v > 0, "Inf", "-Inf"), sprintf("%a", v))))
}
emit <- function(id, key, v) {
  nout <<- nout + 1L
  if (nout > length(out)) length(out) <<- 2L * nout
  out[nout] <<- paste(id, key, paste(fmt(v), collapse = " "))
}

measures <- c("mean", "median", "sd", "mad", "q2.5", "q5", "q50", "q95", "q97.5",
              "rhat", "rhat_basic", "ess_bulk", "ess_tail", "ess_basic",
              "mcse_mean", "mcse_sd", "mcse_q2.5", "mcse_q97.5")
for (f in input) {
  id <- f[2]
  chains <- as.integer(f[3])
  iterations <- as.integer(f[4])
  v <- as.numeric(f[-(1:4)])
  emit(id, "echo", v)
  draws <- as_draws_array(array(v, c(iterations, chains, 1L), dimnames = list(NULL, NULL, "x")))
  s <- tryCatch(suppressWarnings(summarise_draws(draws,
    mean, median, sd, mad, ~quantile2(.x, probs = c(0.025, 0.05, 0.5, 0.95, 0.975)),
    rhat, rhat_basic, ess_bulk, ess_tail, ess_basic, mcse_mean, mcse_sd,
    ~mcse_quantile(.x, probs = c(0.025, 0.975)))), error = function(e) e)
  if (inherits(s, "error")) {
    emit(id, "error", numeric(0))
    out[nout] <- paste0(id, " error ERR:", gsub("[[:space:]]+", "_", conditionMessage(s)))
    next
  }
  for (m in measures) emit(id, m, s[[m]])
}
writeLines(out[seq_len(nout)], args[2])
