# Reference values of the robust03 three-measure gate (gate/robust03_measures_test.go):
# map must improve (paired t, alternative greater), ndcg_cut_10 and recall_1000
# must not regress by more than 0.02 (BCa non-inferiority: the lower end of the
# 95% BCa interval of the mean difference, plus the margin 0.02, at least 0).
# Per-topic scores are trec_eval -q's (../shared/data/trec_eval/robust03/trec_eval/*.all_trec.txt).
#
# Regenerate (from the repository root):
#   Rscript gate/testdata/robust03_measures/robust03_measures_ref.R \
#     ../shared/data/trec_eval/robust03/trec_eval gate/testdata/robust03_measures/reference.csv
library(boot)
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]; out <- args[2]
champion <- "rutcor03100"
challengers <- c("NLPR03vb10", "pircRBa1")
read_q <- function(run, measure) {
  lines <- readLines(file.path(dir, paste0(run, ".all_trec.txt")))
  f <- do.call(rbind, strsplit(trimws(lines), "[ \t]+"))
  f <- f[f[, 1] == measure & f[, 2] != "all", , drop = FALSE]
  v <- as.numeric(f[, 3]); names(v) <- f[, 2]
  v
}
rows <- list()
for (ch in challengers) {
  x <- read_q(ch, "map"); b <- read_q(champion, "map")
  topics <- intersect(names(x), names(b))
  p <- t.test(x[topics], b[topics], paired = TRUE, alternative = "greater")$p.value
  rows[[length(rows) + 1]] <- data.frame(challenger = ch, rule = "map-improves", measure = "map",
    value = sprintf("%.17g", p), what = "t.test paired greater p-value")
  for (m in c("ndcg_cut_10", "recall_1000")) {
    x <- read_q(ch, m); b <- read_q(champion, m)
    topics <- intersect(names(x), names(b))
    d <- x[topics] - b[topics]
    set.seed(12345)
    bt <- boot(d, function(d, i) mean(d[i]), R = 100000)
    ci <- boot.ci(bt, conf = 0.95, type = "bca")
    rule <- if (m == "ndcg_cut_10") "ndcg10-holds" else "recall1000-holds"
    rows[[length(rows) + 1]] <- data.frame(challenger = ch, rule = rule, measure = m,
      value = sprintf("%.17g", ci$bca[4] + 0.02), what = "boot.ci bca lower (R = 1e5, conf 0.95) + 0.02")
  }
}
write.csv(do.call(rbind, rows), out, row.names = FALSE, quote = TRUE)
