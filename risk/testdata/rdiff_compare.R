# The R side of TestDifferentialR (risk/rdiff_test.go): what riskgate
# compare computes, by R 4.2 (stats) and boot 1.3, for every case of the
# input file. Run as
#
#   Rscript --vanilla rdiff_compare.R INPUT OUTPUT
#
# INPUT lines (values as C99 hexadecimal floats, exact for normal numbers;
# every score is echoed back so the test can check it was read exactly):
#
#   T id m n level w           a table of m systems (0 is the champion) × n topics
#   S id i v_1 … v_n            scores of system i
#   B id v_1 … v_B              riskgate's bootstrap means of challenger 1's adjusted differences
#   K id seeds B                R's own bootstraps of the same, at set.seed(1 … seeds)
#   P id method n p_1 … p_k     a p.adjust case (NA for a missing p-value; n = 0: R's default)
#
# OUTPUT lines: "id key v_1 …", each value %a, NA, NaN, Inf or -Inf, or
# "id key ERR:message" where R stops.

suppressPackageStartupMessages(library(boot))
args <- commandArgs(TRUE)
input <- strsplit(readLines(args[1]), " ", fixed = TRUE)
out <- character(0)
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
fail <- function(id, key, e) {
  emit(id, key, numeric(0))
  out[nout] <<- paste0(id, " ", key, " ERR:", gsub("[[:space:]]+", "_", conditionMessage(e)))
}
# run evaluates expr (warnings muffled), emitting its values under keys, or
# the error under every key.
run <- function(id, keys, expr) {
  v <- tryCatch(suppressWarnings(expr), error = function(e) e)
  if (inherits(v, "error")) {
    for (k in keys) fail(id, k, v)
  } else {
    for (j in seq_along(keys)) emit(id, keys[j], v[[j]])
  }
}
num <- function(s) as.numeric(s)

tables <- list()
for (f in input) {
  id <- f[2]
  switch(f[1],
    T = tables[[id]] <- list(m = as.integer(f[3]), n = as.integer(f[4]),
                             level = num(f[5]), w = num(f[6]), sys = list()),
    S = tables[[id]]$sys[[as.integer(f[3]) + 1L]] <- num(f[-(1:3)]),
    B = tables[[id]]$boot <- num(f[-(1:2)]),
    K = tables[[id]]$own <- c(as.integer(f[3]), as.integer(f[4])),
    P = {
      p <- num(f[-(1:4)])
      k <- as.integer(f[4])
      run(id, c("echo", "padj"), list(p, if (k == 0L) p.adjust(p, f[3]) else p.adjust(p, f[3], k)))
    })
}

mean_stat <- function(v, i) mean(v[i])

for (id in names(tables)) {
  tb <- tables[[id]]
  X <- tb$sys
  m <- tb$m
  n <- tb$n
  level <- tb$level
  for (i in seq_len(m)) emit(id, paste0("echo", i - 1L), X[[i]])
  base <- X[[1]]
  for (i in 2:m) {
    x <- X[[i]]
    c <- paste0("c", i - 1L, ".")
    run(id, paste0(c, c("pt.t", "pt.df", "pt.p", "pt.lo", "pt.hi", "pt.est")), {
      r <- t.test(x, base, paired = TRUE, conf.level = level)
      list(r$statistic, r$parameter, r$p.value, r$conf.int[1], r$conf.int[2], r$estimate)
    })
    run(id, paste0(c, c("pt.pg", "pt.pl")), list(
      t.test(x, base, paired = TRUE, alternative = "greater")$p.value,
      t.test(x, base, paired = TRUE, alternative = "less")$p.value))
    run(id, paste0(c, c("wt.t", "wt.df", "wt.p", "wt.lo", "wt.hi")), {
      r <- t.test(x, base, var.equal = FALSE, conf.level = level)
      list(r$statistic, r$parameter, r$p.value, r$conf.int[1], r$conf.int[2])
    })
    run(id, paste0(c, c("wx.v", "wx.p", "wx.pg", "wx.pl")), {
      r <- wilcox.test(x, base, paired = TRUE)
      list(r$statistic, r$p.value,
           wilcox.test(x, base, paired = TRUE, alternative = "greater")$p.value,
           wilcox.test(x, base, paired = TRUE, alternative = "less")$p.value)
    })
    run(id, paste0(c, c("wn.v", "wn.p")), {
      r <- wilcox.test(x, base, paired = TRUE, exact = FALSE)
      list(r$statistic, r$p.value)
    })
    d <- x - base
    pos <- sum(d > 0)
    neg <- sum(d < 0)
    run(id, paste0(c, c("sg.p", "sg.pg", "sg.pl")), list(
      binom.test(pos, pos + neg)$p.value,
      binom.test(pos, pos + neg, alternative = "greater")$p.value,
      binom.test(pos, pos + neg, alternative = "less")$p.value))
  }
  df <- data.frame(score = unlist(X),
                   system = factor(rep(paste0("s", 0:(m - 1L)), each = n), levels = paste0("s", 0:(m - 1L))),
                   topic = factor(rep(seq_len(n), m)))
  for (model in c("two", "one")) {
    fit <- if (model == "two") aov(score ~ system + topic, df) else aov(score ~ system, df)
    s <- summary(fit)[[1]]
    rows <- if (model == "two") c("system", "topic", "residuals") else c("system", "residuals")
    for (j in seq_along(rows)) {
      emit(id, paste0("aov.", model, ".", rows[j]),
           c(s[j, "Df"], s[j, "Sum Sq"], s[j, "Mean Sq"], s[j, "F value"], s[j, "Pr(>F)"]))
    }
    run(id, paste0("tukey.", model), {
      h <- TukeyHSD(fit, "system", conf.level = level)$system
      list(as.vector(t(h[, c("diff", "lwr", "upr", "p adj"), drop = FALSE])))
    })
  }
  d <- X[[2]] - base
  adj <- ifelse(d >= 0, d, tb$w * d)
  if (!is.null(tb$boot)) {
    emit(id, "t0", mean(adj))
    run(id, c("bca.exact", "perc.exact"), {
      b <- boot(adj, mean_stat, R = 2)
      b$R <- length(tb$boot)
      ci <- boot.ci(b, conf = level, type = c("perc", "bca"), t0 = mean(adj), t = tb$boot, L = adj - mean(adj))
      if (is.null(ci)) stop("all values of t are equal: no interval")
      list(ci$bca[4:5], ci$percent[4:5])
    })
  }
  if (!is.null(tb$own)) {
    for (s in seq_len(tb$own[1])) {
      run(id, paste0(c("bca.seed", "perc.seed"), s), {
        set.seed(s)
        b <- boot(adj, mean_stat, R = tb$own[2])
        ci <- boot.ci(b, conf = level, type = c("perc", "bca"))
        if (is.null(ci)) stop("all values of t are equal: no interval")
        list(ci$bca[4:5], ci$percent[4:5])
      })
    }
  }
}
writeLines(out[seq_len(nout)], args[2])
