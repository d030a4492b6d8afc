package gate

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/numfmt"
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

// memoryBudget is --max-memory's value in bytes (its default when empty).
func memoryBudget(flag string) (float64, error) {
	if flag == "" {
		flag = defaultMaxMemory
	}
	return parseMemory("--max-memory", flag)
}

// formatMemory spells a size in GB or MB, as --max-memory takes it.
func formatMemory(b float64) string {
	if b >= 1e9 {
		return numfmt.G(math.Round(b/1e8)/10) + " GB"
	}
	return numfmt.G(math.Ceil(b/1e6)) + " MB"
}

// memoryRefusal is the one line that refuses work over the memory limit:
// what would need how much, its largest part, the limit and the flag.
func memoryRefusal(what string, need float64, largest engine.MemoryPart, limit float64, fewer string) error {
	return fmt.Errorf("%s would need about %s of memory (mostly %s: %s), over the limit of %s; raise the limit with --max-memory, or %s",
		what, formatMemory(need), largest.What, formatMemory(largest.Bytes), formatMemory(limit), fewer)
}

// largestPart is the largest of parts.
func largestPart(parts []engine.MemoryPart) engine.MemoryPart {
	largest := parts[0]
	for _, part := range parts {
		if part.Bytes > largest.Bytes {
			largest = part
		}
	}
	return largest
}

// checkMemory refuses, before any heavy work, work estimated to need more
// than limit, with one line (memoryRefusal).
func checkMemory(what string, total float64, parts []engine.MemoryPart, limit float64, fewer string) error {
	if total > limit {
		return memoryRefusal(what, total, largestPart(parts), limit, fewer)
	}
	return nil
}

// gcLimit is the garbage collector's memory limit (debug.SetMemoryLimit)
// that keeps a process to b bytes of resident memory: b less the
// executable's pages, which that limit does not count
// (engine.UnmanagedMemory). The budget is the limit while the inputs load;
// the estimate, once accepted, from then on, so that garbage never takes
// the process over it (the estimate is of the resident memory, garbage
// included: engine.EstimateMemory).
func gcLimit(b float64) int64 {
	return int64(min(max(b-engine.UnmanagedMemory, engine.UnmanagedMemory), math.MaxInt64/2))
}

// loadRefusal is a load that scores.MemoryError refused, as memoryRefusal
// says it; other errors pass unchanged.
func loadRefusal(err error, fewer string) error {
	var me *scores.MemoryError
	if !errors.As(err, &me) {
		return err
	}
	return memoryRefusal("loading the inputs", me.Need, engine.MemoryPart{What: me.Largest, Bytes: me.Bytes}, me.Limit, fewer)
}
