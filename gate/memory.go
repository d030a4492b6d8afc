package gate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// defaultMaxMemory is --max-memory's default: a GitHub-hosted Linux runner
// has 16 GB shared with the job's other steps; 4 GB leaves room.
const defaultMaxMemory = "4GB"

// parseMemory parses a size: a number with an optional unit B, kB/KB, MB,
// GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024).
func parseMemory(flag, s string) (float64, error) {
	text := strings.TrimSpace(s)
	i := strings.IndexFunc(text, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := text, ""
	if i >= 0 {
		num, unit = text[:i], strings.TrimSpace(text[i:])
	}
	scale := map[string]float64{"": 1, "B": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
		"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}
	f, ok := scale[unit]
	v, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s %q: expected a size such as 4GB, 512MB or 8GiB", flag, s)
	}
	return v * f, nil
}

// formatMemory spells a size in GB or MB, as --max-memory takes it.
func formatMemory(b float64) string {
	if b >= 1e9 {
		return numfmt.G(math.Round(b/1e8)/10) + " GB"
	}
	return numfmt.G(math.Ceil(b/1e6)) + " MB"
}

// checkMemory refuses, before any heavy work, a gate whose estimate is over
// limit: one line naming the estimate and its largest part, the limit and
// the flag.
func checkMemory(p *policies.Policy, ts engine.Tables, sweep []float64, limit float64) error {
	total, parts := engine.EstimateMemory(p, ts, sweep)
	if total <= limit {
		return nil
	}
	largest := parts[0]
	for _, part := range parts {
		if part.Bytes > largest.Bytes {
			largest = part
		}
	}
	return fmt.Errorf("this gate would need about %s of memory (mostly %s: %s), over the limit of %s; raise the limit with --max-memory, or gate fewer topics or systems",
		formatMemory(total), largest.What, formatMemory(largest.Bytes), formatMemory(limit))
}
