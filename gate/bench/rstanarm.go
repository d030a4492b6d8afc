package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/atomicfile"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/internal/numfmt"
)

// riskgate bench --with-rstanarm: rstanarm's stan_glmer, the implementation
// Benham et al. used, on the pool riskgate's fit figure used, when Rscript
// with rstanarm is installed; otherwise the figures recorded with R in the
// project's reference material, with their source.

// rstanarmScript fits the model as ../shared/reference/scripts/rstanarm_ref.R
// does (rstanarm's default priors, adapt_delta = 0.99, cores = 2) and prints
// the fit's wall time and its smallest bulk- and tail-ESS over the model's
// parameters (posterior's summarise_draws when installed, else rstan's n_eff).
const rstanarmScript = `suppressMessages(library(rstanarm))
a <- commandArgs(trailingOnly = TRUE)
d <- read.csv(a[1]); iter <- as.integer(a[2]); seed <- as.integer(a[3])
t0 <- proc.time()
fit <- stan_glmer(score ~ (1 | topic) + (1 | system), data = d, chains = 4, cores = 2,
                  seed = seed, iter = iter, family = gaussian, adapt_delta = 0.99, refresh = 0)
el <- (proc.time() - t0)[["elapsed"]]
if (requireNamespace("posterior", quietly = TRUE)) {
  s <- posterior::summarise_draws(posterior::as_draws_array(as.array(fit)), "ess_bulk", "ess_tail")
  ess <- min(s$ess_bulk, s$ess_tail)
  how <- "posterior"
} else {
  s <- summary(fit)
  ess <- min(s[!(rownames(s) %in% c("mean_PPD", "log-posterior")), "n_eff"])
  how <- "rstan"
}
cat(sprintf("elapsed_s=%.3f min_ess=%.1f ess=%s rstanarm=%s\n", el, ess, how, packageVersion("rstanarm")))
`

// rstanarmRecorded are the rstanarm fits recorded in ../shared/reference
// (reference/HOW.md: R 4.2.2, rstanarm 2.21.3, 4 chains, cores = 2,
// adapt_delta = 0.99, seed 12345, on a 2-core machine like the developers').
// MinESS is the smallest n_eff in the fit's summary file.
var RstanarmRecorded = []struct {
	ID, data, what, Source string
	Seconds, MinESS        float64
	against                string
}{
	{"rstanarm-recorded-rb04", "rb04.csv (Robust04: 45 systems × 50 topics)", "rstanarm stan_glmer, 4 chains × 4,000 iterations (2,000 warmup)",
		"../shared/reference/rstanarm/rb04_plain_time.txt (time) and rb04_plain_summary.csv (smallest n_eff, of the intercept); settings in reference/HOW.md",
		278.3, 431, "fit-45x50"},
	{"rstanarm-recorded-rb04-2000", "rb04.csv (Robust04: 45 systems × 50 topics)", "rstanarm stan_glmer, 4 chains × 2,000 iterations (1,000 warmup)",
		"../shared/reference/rstanarm/rb04_plain_4x2000_time.txt; settings in reference/HOW.md", 182.8, math.NaN(), "fit-45x50"},
	{"rstanarm-recorded-brisk5", "rb04.csv's BRisk pool at w = 5", "rstanarm stan_glmer, 4 chains × 4,000 iterations (2,000 warmup)",
		"../shared/reference/rstanarm/rb04_brisk5_time.txt (time) and rb04_brisk5_summary.csv (smallest n_eff); settings in reference/HOW.md",
		110.7, 749, "brisk-45x50"},
}

// benchRstanarmCases are the rstanarm figures: a timed fit when Rscript has
// rstanarm, otherwise the recorded ones.
func benchRstanarmCases(cfg Config) []Case {
	t, data, against := benchPool(45, 50), "simulated 45 systems × 50 topics", "fit-45x50"
	if u := cfg.User; u != nil {
		t, data, against = &bayes.Table{Systems: u.Table.Systems, Topics: u.Table.Topics, Scores: u.Table.Scores}, fmt.Sprintf("your data: %s systems × %s topics", numfmt.Thousands(len(u.Table.Systems)), numfmt.Thousands(len(u.Table.Topics))), "user-fit"
	}
	what := fmt.Sprintf("rstanarm stan_glmer, 4 chains × %s iterations (%s warmup), cores = 2, adapt_delta = 0.99", numfmt.Thousands(cfg.RstanarmIter), numfmt.Thousands(cfg.RstanarmIter/2))
	if err := rstanarmAvailable(cfg.Rscript); err != nil {
		var cs []Case
		for _, r := range RstanarmRecorded {
			cs = append(cs, Case{ID: r.ID, What: r.what, Data: r.data, Once: true,
				prepare: func() (*Work, error) {
					return &Work{run: func() (Outcome, error) {
						return Outcome{Seconds: r.Seconds, ESS: r.MinESS, Note: "recorded with R, not measured here: " + err.Error(),
							Source: r.Source, Ratio: &Ratio{Against: r.against}}, nil
					}}, nil
				}})
		}
		return cs
	}
	return []Case{{ID: "rstanarm", What: what, Data: data, Once: true,
		prepare: func() (*Work, error) {
			return &Work{run: func() (Outcome, error) {
				secs, ess, how, err := runRstanarm(cfg.Rscript, t, cfg.RstanarmIter)
				if err != nil {
					return Outcome{}, err
				}
				return Outcome{Seconds: secs, ESS: ess, Note: "ESS from " + how, Ratio: &Ratio{Against: against}}, nil
			}}, nil
		}}}
}

// rstanarmAvailable says why rstanarm cannot be run (nil when it can).
func rstanarmAvailable(rscript string) error {
	path, err := exec.LookPath(rscript)
	if err != nil {
		return fmt.Errorf("%s not found", rscript)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "-e", `if (!requireNamespace("rstanarm", quietly = TRUE)) quit(status = 3)`)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s has no rstanarm (%v)", rscript, err)
	}
	return nil
}

// runRstanarm writes t to a temporary CSV, fits it with rstanarmScript and
// returns the fit's time (inside R, as the recorded figures), its smallest
// ESS and how R computed it.
func runRstanarm(rscript string, t *bayes.Table, iter int) (seconds, ess float64, how string, err error) {
	dir, err := os.MkdirTemp("", "riskgate-rstanarm-")
	if err != nil {
		return 0, 0, "", err
	}
	defer os.RemoveAll(dir)
	data, script := filepath.Join(dir, "pool.csv"), filepath.Join(dir, "fit.R")
	if err := atomicfile.Write(data, func(w io.Writer) error { return scores.WriteLong(w, t.Systems, t.Topics, t.Scores) }); err != nil {
		return 0, 0, "", err
	}
	if err := os.WriteFile(script, []byte(rstanarmScript), 0o644); err != nil {
		return 0, 0, "", err
	}
	var out, errw bytes.Buffer
	cmd := exec.Command(rscript, script, data, strconv.Itoa(iter), "12345")
	cmd.Stdout, cmd.Stderr = &out, &errw
	if err := cmd.Run(); err != nil {
		return 0, 0, "", fmt.Errorf("%s: %v: %s", rscript, err, tailLines(errw.String(), 5))
	}
	fields := map[string]string{}
	for _, f := range strings.Fields(out.String()) {
		if k, v, ok := strings.Cut(f, "="); ok {
			fields[k] = v
		}
	}
	seconds, err1 := strconv.ParseFloat(fields["elapsed_s"], 64)
	ess, err2 := strconv.ParseFloat(fields["min_ess"], 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, 0, "", fmt.Errorf("unexpected output of the rstanarm script: %q", out.String())
	}
	how = "rstan's n_eff (posterior is not installed)"
	if fields["ess"] == "posterior" {
		how = "posterior's ess_bulk and ess_tail"
	}
	return seconds, ess, how + ", rstanarm " + fields["rstanarm"], nil
}

// tailLines returns the last n lines of s, joined by " | ".
func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
