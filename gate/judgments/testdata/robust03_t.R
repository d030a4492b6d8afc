# Paired t (R's t.test) of each ordered pair's per-topic ndcg_cut.10, from the
# files robust03_t.sh writes: full_<system>, restricted_<challenger>_<system>,
# condensed_<challenger>_<system> (lines "topic value"), to standard output;
# the synthetic run's means and t against pircRBa1 (synthetic, synthetic-J,
# pircRBa1, pircRBa1-J) to robust03_synthetic.csv beside this script. Run by
# robust03_t.sh.
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]
runs <- args[-1]
t_of <- function(x, b) {
  m <- merge(read.table(x), read.table(b), by = "V1")
  unname(t.test(m$V2.x, m$V2.y, paired = TRUE)$statistic)
}
cat("challenger,champion,t_full,t_restricted,t_restricted_condensed\n")
for (c in runs) for (p in runs) if (c != p) {
  f <- function(kind) if (kind == "full") file.path(dir, paste0("full_", c)) else file.path(dir, paste0(kind, "_", c, "_", c))
  g <- function(kind) if (kind == "full") file.path(dir, paste0("full_", p)) else file.path(dir, paste0(kind, "_", c, "_", p))
  v <- sapply(c("full", "restricted", "condensed"), function(k) t_of(f(k), g(k)))
  cat(sprintf("%s,%s,%.6f,%.6f,%.6f\n", c, p, v[1], v[2], v[3]))
}

here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE)))
out <- file(file.path(here, "robust03_synthetic.csv"), "w")
cat("variant,mean_challenger,mean_champion,t\n", file = out)
for (j in c("", "-J")) {
  m <- merge(read.table(file.path(dir, paste0("synthetic", j))), read.table(file.path(dir, paste0("pircRBa1", j))), by = "V1")
  cat(sprintf("%s,%.6f,%.6f,%.6f\n", if (j == "") "standard" else "condensed", mean(m$V2.x), mean(m$V2.y),
    unname(t.test(m$V2.x, m$V2.y, paired = TRUE)$statistic)), file = out)
}
close(out)
