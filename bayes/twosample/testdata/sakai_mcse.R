# Monte Carlo error of the rstan reference ../shared/reference/sakai/rb04_sakai.csv.
# Re-runs ../shared/reference/scripts/sakai_ref.R's models, data and settings
# exactly (chains=4, iter=26000, warmup=1000, seed=12345; R 4.2.2, rstan 2.21.7,
# posterior 1.4.0) and writes, per fit and quantity, the reference's own
# effective sample sizes and MCSEs (posterior::ess_bulk, ess_tail, mcse_mean,
# mcse_quantile at 2.5% and 97.5%) — the numbers the reference file lacks.
# It also prints the largest difference between its summaries and the
# reference file's, to show that the re-run reproduces those draws.
# Usage: Rscript sakai_mcse.R rb04.csv rb04_sakai.csv out.csv > sakai_mcse.log
# (On the developers' machine Debian's r-cran-bh ships no headers; rstan then
# stops with "Boost not found". A private copy of the BH package whose include
# is a link to /usr/include, put first with R_LIBS, works around it.)
suppressMessages({library(rstan); library(posterior)})
a <- commandArgs(trailingOnly=TRUE)
d <- read.csv(a[1]); ref <- read.csv(a[2]); out <- a[3]
paired <- "
data { int<lower=1> N; vector[N] x1; vector[N] x2; }
parameters { vector[2] mu; vector<lower=0>[2] sigma; real<lower=-1,upper=1> rho; }
model {
  matrix[2,2] S;
  S[1,1] = square(sigma[1]); S[2,2] = square(sigma[2]);
  S[1,2] = rho * sigma[1] * sigma[2]; S[2,1] = S[1,2];
  for (n in 1:N) [x1[n], x2[n]]' ~ multi_normal(mu, S);
}
generated quantities {
  real diff = mu[1] - mu[2];
  real glass1 = diff / sigma[1];
  real glass2 = diff / sigma[2];
}"
unpaired <- "
data { int<lower=1> N1; int<lower=1> N2; vector[N1] x1; vector[N2] x2; }
parameters { real mu1; real mu2; real<lower=0> sigma1; real<lower=0> sigma2; }
model { x1 ~ normal(mu1, sigma1); x2 ~ normal(mu2, sigma2); }
generated quantities {
  real diff = mu1 - mu2;
  real glass1 = diff / sigma1;
  real glass2 = diff / sigma2;
}"
mp <- stan_model(model_code=paired); mu <- stan_model(model_code=unpaired)
w <- reshape(d[, c("system","topic","score")], idvar="topic", timevar="system", direction="wide")
w <- w[order(w$topic), ]
col <- function(s) w[[paste0("score.", s)]]
res <- list(); maxdiff <- 0
for (s in c("Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4")) {
  x1 <- col(s); x2 <- col("Champion")
  fp <- sampling(mp, data=list(N=length(x1), x1=x1, x2=x2), chains=4, iter=26000, warmup=1000, seed=12345, refresh=0)
  fu <- sampling(mu, data=list(N1=length(x1), N2=length(x2), x1=x1, x2=x2), chains=4, iter=26000, warmup=1000, seed=12345, refresh=0)
  for (kind in c("paired", "unpaired")) {
    f <- if (kind == "paired") fp else fu
    arr <- as.array(f)
    qs <- c("diff", "glass1", "glass2", if (kind == "paired") "rho")
    for (q in qs) {
      m <- arr[, , q]
      v <- as.vector(m)
      r <- ref[ref$system == s & ref$test == kind & ref$quantity == q, ]
      maxdiff <- max(maxdiff, abs(mean(v) - r$eap), abs(unname(quantile(v, 0.025)) - r$q2.5),
                     abs(unname(quantile(v, 0.975)) - r$q97.5))
      mq <- mcse_quantile(m, probs=c(0.025, 0.975))
      res[[length(res)+1]] <- data.frame(system=s, test=kind, quantity=q,
        ess_bulk=ess_bulk(m), ess_tail=ess_tail(m), mcse_mean=mcse_mean(m), mcse_sd=mcse_sd(m),
        mcse_q2.5=unname(mq[1]), mcse_q97.5=unname(mq[2]))
    }
  }
}
cat("largest |re-run − reference| over eap, q2.5, q97.5:", maxdiff, "\n")
write.csv(do.call(rbind, res), out, row.names=FALSE)
