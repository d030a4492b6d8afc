# The per-segment paired tests of rb04 (../shared/data/bayesian-risk/rb04.csv)
# by topic origin (301-450 trec678, 601-650 robust03, 651-700 robust04), with
# a margin of 0.02: R's t.test / wilcox.test with mu = -0.02, the sign test of
# d + 0.02 (binom.test), the paired t 95% interval of the mean difference, and
# Holm's adjustment of the t p-values across segments and challengers (a
# no_harm rule's correction), for two line-ups: champion "Champion" against
# Chal. 1-4, and champion "Chal. 4" against "Champion" and "Chal. 3" (which
# lose to it: harm to find). For TestSegmentTestsAgainstR and the gate's
# segment tests. Regenerate from the repository root:
#   Rscript gate/engine/testdata/segments_tests.R ../shared/data/bayesian-risk/rb04.csv > gate/engine/testdata/segments_tests.csv
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1], check.names = FALSE)
num <- as.integer(sub("^t_", "", d$topic))
d$origin <- ifelse(num <= 450, "trec678", ifelse(num <= 650, "robust03", "robust04"))
margin <- 0.02
lineup <- function(champion, challengers) {
  champ <- d[d$system == champion, ]
  out <- NULL
  for (ch in challengers) {
    x <- d[d$system == ch, ]
    for (g in c("trec678", "robust03", "robust04")) {
      xt <- x[x$origin == g, ]
      yt <- champ[match(xt$topic, champ$topic), ]
      a <- xt$score; b <- yt$score
      dd <- a - b - (-margin)
      tt <- t.test(a, b, paired = TRUE, mu = -margin, alternative = "less")
      t2 <- t.test(a, b, paired = TRUE, mu = -margin)
      ci <- t.test(a, b, paired = TRUE, conf.level = 0.95)$conf.int
      w <- suppressWarnings(wilcox.test(a, b, paired = TRUE, mu = -margin, alternative = "less"))
      s <- binom.test(sum(dd > 0), sum(dd != 0), alternative = "less")
      out <- rbind(out, data.frame(champion = champion, challenger = ch, segment = g, topics = length(a),
        t_less = tt$p.value, t_two = t2$p.value, wilcoxon_less = w$p.value, sign_less = s$p.value,
        delta = mean(a - b), lo = ci[1], hi = ci[2]))
    }
  }
  out$t_less_holm <- p.adjust(out$t_less, method = "holm")
  out
}
out <- rbind(lineup("Champion", c("Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4")),
             lineup("Chal. 4", c("Champion", "Chal. 3")))
write.csv(out, stdout(), row.names = FALSE, quote = TRUE)
