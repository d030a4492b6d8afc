package pool

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Reign is one line of the lineage: System became the champion at From,
// and stayed it until the next reign's From (the last reign is the current
// champion's). Label is the one given at the promotion.
type Reign struct {
	System string
	From   time.Time
	Label  string
}

// encodeLineage writes the lineage file: the first line, one "champion"
// line per reign in order, the digest line.
func encodeLineage(reigns []Reign) ([]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d\n", lineageMagic, FormatVersion)
	for _, r := range reigns {
		if p := checkName("system name", r.System); p != "" {
			return nil, fmt.Errorf("lineage: %s", p)
		}
		if p := checkLabel(r.Label); p != "" {
			return nil, fmt.Errorf("lineage: %s", p)
		}
		if !isTime(r.From) {
			return nil, fmt.Errorf("lineage: time %v is not a UTC time in whole seconds", r.From)
		}
		fmt.Fprintf(&b, "champion %s %s %s\n", r.From.Format(timeLayout), strconv.Quote(r.System), strconv.Quote(r.Label))
	}
	return withDigest(b.String()), nil
}

// decodeLineage reads a lineage file's bytes; path names it in messages.
func decodeLineage(path string, data []byte) ([]Reign, error) {
	t, err := readText(path, data, lineageMagic)
	if err != nil {
		return nil, err
	}
	var reigns []Reign
	for t.next < len(t.lines) {
		var r Reign
		if err := t.read("champion", func(f *fields) (err error) {
			if r.From, err = f.time("time"); err != nil {
				return err
			}
			if r.System, err = f.name("system name"); err != nil {
				return err
			}
			r.Label, err = f.label()
			return err
		}); err != nil {
			return nil, err
		}
		reigns = append(reigns, r)
	}
	return reigns, nil
}
