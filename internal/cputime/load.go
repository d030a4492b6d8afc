package cputime

import (
	"os"
	"strconv"
	"strings"
)

// LoadAverage returns the machine's 1-, 5- and 15-minute load averages
// (Linux's /proc/loadavg), which timings on a shared machine are read
// beside; nil where the platform does not say.
func LoadAverage() []float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	f := strings.Fields(string(b))
	var out []float64
	for i := 0; i < 3 && i < len(f); i++ {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// LoadAverageText is LoadAverage for a log line: "1.5 2.01 3", or
// "unknown".
func LoadAverageText() string {
	l := LoadAverage()
	if l == nil {
		return "unknown"
	}
	s := make([]string, len(l))
	for i, v := range l {
		s[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(s, " ")
}
