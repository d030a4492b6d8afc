# Reference values for package risk's tests that ../shared/reference does not
# hold. Run from the module root with R ≥ 4.2 and boot:
#   Rscript risk/testdata/reference.R ../shared/data/bayesian-risk/rb04.csv
# It prints the values that risk's tests quote (each test names the section).
suppressMessages(library(boot))
a <- commandArgs(trailingOnly = TRUE)
d <- read.csv(a[1])
w <- reshape(d[, c("system", "topic", "score")], idvar = "topic", timevar = "system", direction = "wide")
w <- w[order(w$topic), ]
col <- function(s) w[[paste0("score.", s)]]
champ <- col("Champion")
sys5 <- c("Champion", "Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4")
p17 <- function(...) cat(sprintf("%.17g", c(...)), "\n")

cat("== ptukey / qtukey ==\n")
for (args in list(c(3.773, 3, 12), c(2.772, 2, 1e6), c(4.232, 5, 20), c(4.653, 10, 60), c(3.0, 2, 10),
                  c(1.5, 5, 196), c(6.5, 5, 196), c(3.2, 45, 2156), c(0.5, 4, 3), c(5, 20, 30000))) {
  cat(args, ""); p17(ptukey(args[1], args[2], args[3]), ptukey(args[1], args[2], args[3], lower.tail = FALSE))
}
for (args in list(c(0.95, 5, 196), c(0.95, 5, 245), c(0.99, 3, 12), c(0.9, 45, 2156), c(0.5, 2, 5))) {
  cat(args, ""); p17(qtukey(args[1], args[2], args[3]))
}

cat("== qt / pt ==\n")
p17(qt(0.975, 49), qt(0.99375, 49), qt(0.995, 3), 2 * pt(-6.33725568736737, 49))

cat("== psignrank ==\n")
p17(psignrank(c(0, 10, 50, 100, 150, 200, 300), 25))
p17(psignrank(c(5, 30, 60), 12, lower.tail = FALSE))

cat("== wilcox exact: first 20 topics, Chal. 2 vs Champion ==\n")
x <- col("Chal. 2")[1:20]; y <- champ[1:20]
r <- wilcox.test(x, y, paired = TRUE); p17(r$statistic, r$p.value); cat(r$method, "\n")
x <- col("Chal. 3")[1:30]; y <- champ[1:30]
r <- wilcox.test(x, y, paired = TRUE); p17(r$statistic, r$p.value); cat(r$method, "\n")

cat("== p.adjust ==\n")
pv <- c(0.01, 0.04, 0.03, 0.005, 0.5, 0.04, NA, 0.2)
for (m in c("bonferroni", "holm", "BH")) { cat(m, ""); p17(p.adjust(pv, m)) }

cat("== effect sizes (Glass's delta by champion, by challenger; Cohen's d_z) ==\n")
for (s in sys5[-1]) { x <- col(s); cat(s, ""); p17((mean(x) - mean(champ)) / sd(champ), (mean(x) - mean(champ)) / sd(x), mean(x - champ) / sd(x - champ)) }

cat("== t.test at the Bonferroni level 1 - 0.05/4 ==\n")
for (s in sys5[-1]) { x <- col(s); tp <- t.test(x, champ, paired = TRUE, conf.level = 1 - 0.05/4); tw <- t.test(x, champ, conf.level = 1 - 0.05/4); cat(s, ""); p17(tp$conf.int, tw$conf.int) }

cat("== ZRisk / GeoRisk (Dincer 2016) over the five systems, w = 5 and 6, and over all 45 at w = 5 ==\n")
zgeo <- function(X, wt) {  # X: topics x systems
  S <- colSums(X); Tt <- rowSums(X); N <- sum(X); E <- outer(Tt, S) / N
  Z <- (X - E) / sqrt(E); Z[E == 0] <- 0
  zr <- colSums(ifelse(Z > 0, Z, 0)) + wt * colSums(ifelse(Z < 0, Z, 0))
  list(z = zr, g = sqrt(S / nrow(X) * pnorm(zr / nrow(X))))
}
X5 <- sapply(sys5, col)
for (wt in c(5, 6)) { r <- zgeo(X5, wt); cat("w", wt, "\n"); p17(r$z); p17(r$g) }
all <- unique(d$system); XA <- sapply(all, col); r <- zgeo(XA, 5)
cat("all, first five in file order:", all[1:5], "\n"); p17(r$z[1:5]); p17(r$g[1:5])

cat("== ANOVA over the five systems (factor levels sorted) ==\n")
d5 <- d[d$system %in% sys5, ]; d5$system <- factor(d5$system); d5$topic <- factor(d5$topic)
a2 <- summary(aov(score ~ system + topic, data = d5))[[1]]
a1 <- summary(aov(score ~ system, data = d5))[[1]]
cat("two-way\n"); for (i in 1:3) p17(a2[i, 1], a2[i, 2], a2[i, 3], a2[i, 4], a2[i, 5])
cat("one-way\n"); for (i in 1:2) p17(a1[i, 1], a1[i, 2], a1[i, 3], a1[i, 4], a1[i, 5])
cat("== TukeyHSD two-way and one-way ==\n")
for (f in list(aov(score ~ system + topic, data = d5), aov(score ~ system, data = d5))) {
  tk <- TukeyHSD(f, "system")$system
  for (i in seq_len(nrow(tk))) { cat(rownames(tk)[i], ""); p17(tk[i, ]) }
}

cat("== BCa on fixed replicates: x = Chal. 3 risk-adjusted at w = 5, t_b deterministic ==\n")
x <- col("Chal. 3"); dd <- x - champ; adj <- ifelse(dd >= 0, dd, 5 * dd)
B <- 9999
tb <- mean(adj) + ((((1:B) * 7919) %% 10007) - 5003) / 100000 + ((1:B) %% 7) / 1000
b <- boot(adj, function(v, i) mean(v[i]), R = 2)
b$t <- matrix(tb, ncol = 1); b$R <- B
L <- adj - mean(adj)
for (conf in c(0.95, 1 - 0.05/4)) {
  ci <- boot.ci(b, conf = conf, type = c("bca", "perc"), L = L); p17(ci$bca[4:5], ci$percent[4:5])
}
cat("== empinf('reg') of a real mean bootstrap equals x - mean(x) ==\n")
set.seed(12345); b <- boot(adj, function(v, i) mean(v[i]), R = 5000)
p17(max(abs(empinf(b, type = "reg") - (adj - mean(adj)))), max(abs(empinf(b, type = "jack") - (adj - mean(adj)))))

cat("== Sakai studentised bootstrap test, B = 400000, set.seed(1) ==\n")
sakai <- function(z, B) { n <- length(z); t0 <- mean(z) / (sd(z) / sqrt(n)); wv <- z - mean(z)
  idx <- matrix(sample.int(n, n * B, replace = TRUE), nrow = B)
  W <- matrix(wv[idx], nrow = B); m <- rowMeans(W); s <- sqrt(rowSums((W - m)^2) / (n - 1))
  mean(abs(m / (s / sqrt(n))) >= abs(t0)) }
set.seed(1); for (s in sys5[-1]) { cat(s, ""); p17(sakai(col(s) - champ, 400000)) }

cat("== randomised Tukey HSD over the five systems, B = 100000, set.seed(1) ==\n")
X <- X5; m <- ncol(X); n <- nrow(X); B <- 100000; set.seed(1)
obs <- colMeans(X); rng <- numeric(B)
for (b in 1:B) { P <- t(apply(X, 1, sample)); cm <- colMeans(P); rng[b] <- max(cm) - min(cm) }
for (i in 1:(m - 1)) for (j in (i + 1):m) { cat(sys5[i], "|", sys5[j], ""); p17(obs[j] - obs[i], mean(rng >= abs(obs[j] - obs[i]) - 1e-12)) }

cat("== BCa and percentile endpoints averaged over 20 seeds (set.seed(1000 + k)), R = 100000, conf = 1 - 0.05/4 ==\n")
for (cw in list(list("Chal. 3", 10), list("Chal. 4", 10), list("Chal. 1", 5))) {
  x <- col(cw[[1]]); dd <- x - champ; adj <- ifelse(dd >= 0, dd, cw[[2]] * dd)
  e <- t(sapply(1:20, function(k) { set.seed(1000 + k); b <- boot(adj, function(v, i) mean(v[i]), R = 100000)
    ci <- boot.ci(b, conf = 1 - 0.05/4, type = c("bca", "perc")); c(ci$bca[4:5], ci$percent[4:5]) }))
  cat(cw[[1]], cw[[2]], "mean "); p17(colMeans(e)); cat("   sd "); p17(apply(e, 2, sd))
}

cat("== one-sided t tests (alternative = \"greater\") and cor, by challenger ==\n")
for (s in sys5[-1]) {
  x <- col(s); cat(s, "")
  p17(t.test(x, champ, paired = TRUE, alternative = "greater")$p.value,
      t.test(x, champ, alternative = "greater")$p.value, cor(x, champ))
}

cat("== binom.test(k, n) ==\n")
for (kn in list(c(7, 20), c(3, 5), c(0, 10), c(60, 100), c(513, 1000), c(12, 40))) { cat(kn, ""); p17(binom.test(kn[1], kn[2])$p.value) }

cat("== paired t over categories (Yang & Liu's macro T-test) ==\n")
tp <- t.test(c(.6, .5, .7, .4), c(.5, .45, .72, .3), paired = TRUE); p17(tp$statistic, tp$parameter, tp$p.value)

cat("== proportions test (Yang & Liu's p-test), 160 and 140 of 200 right ==\n")
z <- (0.8 - 0.7) / sqrt(2 * 0.75 * 0.25 / 200); p17(z, 2 * pnorm(-abs(z)))

cat("== Welch t test and Glass's delta of two samples of sizes 5 and 7 ==\n")
x <- c(0.31, 0.45, 0.12, 0.60, 0.28); y <- c(0.25, 0.41, 0.15, 0.49, 0.20, 0.55, 0.02)
tw <- t.test(x, y); p17(tw$statistic, tw$parameter, tw$p.value, tw$conf.int, t.test(x, y, alternative = "greater")$p.value)
p17((mean(x) - mean(y)) / sd(y), (mean(x) - mean(y)) / sd(x))
