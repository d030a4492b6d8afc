package classify

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/riskgate/riskgate/bayes/twosample"
	"github.com/riskgate/riskgate/internal/inputerr"
)

// Label files for riskgate classify: one document per line, either a bare
// label or "id<TAB>label". A file uses one layout throughout. Labels and ids
// are trimmed of surrounding spaces; a blank line, an empty id or label, a
// second tab or a repeated id is an error at its line.

// LabelFile is one parsed label file.
type LabelFile struct {
	Name   string
	IDs    []string // nil when the file has bare labels
	Labels []string
	Lines  []int // line of each label (1-based)
}

// maxLabelLine bounds a line, so that a binary file fails fast.
const maxLabelLine = 1 << 20

// ParseLabels reads a label file; name is used in messages.
func ParseLabels(name string, r io.Reader) (*LabelFile, error) {
	f := &LabelFile{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLabelLine)
	withIDs := false
	seen := map[string]int{}
	line := 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if line == 1 {
			text = bytes.TrimPrefix(text, []byte("\ufeff"))
		}
		text = bytes.TrimSuffix(text, []byte("\r"))
		s := string(text)
		if trimLabel(s) == "" {
			return nil, inputerr.At(name, line, "blank line; expected a label or id<TAB>label (one document per line)")
		}
		id, label, hasTab := strings.Cut(s, "\t")
		if line == 1 {
			withIDs = hasTab
			if withIDs {
				f.IDs = []string{}
			}
		}
		switch {
		case hasTab && !withIDs:
			return nil, inputerr.At(name, line, "id<TAB>label, but line 1 has a bare label; use one layout per file")
		case !hasTab && withIDs:
			return nil, inputerr.At(name, line, "bare label %q, but line 1 has id<TAB>label; use one layout per file", truncateLabel(s))
		}
		if !hasTab {
			label = s
		}
		if strings.Contains(label, "\t") {
			return nil, inputerr.At(name, line, "more than one tab; expected id<TAB>label")
		}
		label = trimLabel(label)
		if label == "" {
			return nil, inputerr.At(name, line, "empty label; expected id<TAB>label")
		}
		f.Labels = append(f.Labels, label)
		f.Lines = append(f.Lines, line)
		if withIDs {
			id = trimLabel(id)
			if id == "" {
				return nil, inputerr.At(name, line, "empty document id; expected id<TAB>label")
			}
			if first, dup := seen[id]; dup {
				return nil, inputerr.At(name, line, "document %q again (first at line %d)", truncateLabel(id), first)
			}
			seen[id] = line
			f.IDs = append(f.IDs, id)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, inputerr.At(name, line+1, "line longer than %d bytes; expected a label or id<TAB>label", maxLabelLine)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(f.Labels) == 0 {
		return nil, inputerr.At(name, 0, "no labels; expected one label or id<TAB>label per line")
	}
	return f, nil
}

// trimLabel trims white space and stray byte-order marks around a label or id.
func trimLabel(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' })
}

func truncateLabel(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// ReadLabelFile opens and parses a label file.
func ReadLabelFile(path string) (*LabelFile, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return ParseLabels(path, fh)
}

// AlignLabels orders the predictions a and b like the truth: by position for
// bare labels, by document id otherwise. It returns the predicted labels in
// truth order.
func AlignLabels(truth, a, b *LabelFile) (pa, pb []string, err error) {
	out := make([][]string, 2)
	for k, f := range []*LabelFile{a, b} {
		if (f.IDs == nil) != (truth.IDs == nil) {
			layout := func(x *LabelFile) string {
				if x.IDs == nil {
					return "bare labels"
				}
				return "id<TAB>label lines"
			}
			return nil, nil, inputerr.At(f.Name, 1, "%s, but %s has %s; use one layout for all three files", layout(f), truth.Name, layout(truth))
		}
		if f.IDs == nil {
			if len(f.Labels) != len(truth.Labels) {
				return nil, nil, inputerr.At(f.Name, 0, "%d labels, but %s has %d; the files must list the same documents in the same order",
					len(f.Labels), truth.Name, len(truth.Labels))
			}
			out[k] = f.Labels
			continue
		}
		index := make(map[string]int, len(f.IDs))
		for i, id := range f.IDs {
			index[id] = i
		}
		truthIDs := make(map[string]bool, len(truth.IDs))
		for _, id := range truth.IDs {
			truthIDs[id] = true
		}
		for i, id := range f.IDs {
			if !truthIDs[id] {
				return nil, nil, inputerr.At(f.Name, f.Lines[i], "document %q is not in %s", truncateLabel(id), truth.Name)
			}
		}
		labels := make([]string, len(truth.IDs))
		for i, id := range truth.IDs {
			j, ok := index[id]
			if !ok {
				return nil, nil, inputerr.At(f.Name, 0, "no prediction for document %q (%s:%d)", truncateLabel(id), truth.Name, truth.Lines[i])
			}
			labels[i] = f.Labels[j]
		}
		out[k] = labels
	}
	return out[0], out[1], nil
}

// Categories builds the binary problems of a comparison. With
// positive set, one problem: that label against the rest. Otherwise one per
// label of the truth, in natural order (numerically when every label is an
// integer); then a predicted label absent from the truth would make an empty
// category and is an error.
func Categories(truth *LabelFile, pa, pb []string, files [2]*LabelFile, positive string) ([]twosample.Category, error) {
	labels := map[string]int{}
	for _, l := range truth.Labels {
		labels[l]++
	}
	names := make([]string, 0, len(labels))
	for l := range labels {
		names = append(names, l)
	}
	sortLabels(names)
	if positive != "" {
		if labels[positive] == 0 {
			return nil, fmt.Errorf("--positive %q: no document in %s has this label (labels: %s)", positive, truth.Name, listLabels(names))
		}
		if labels[positive] == len(truth.Labels) {
			return nil, fmt.Errorf("--positive %q: every document in %s has this label, so the negative class is empty", positive, truth.Name)
		}
		var c twosample.JointCounts
		for i, l := range truth.Labels {
			c.Add(l == positive, pa[i] == positive, pb[i] == positive)
		}
		return []twosample.Category{{Name: positive, Counts: c}}, nil
	}
	if len(names) < 2 {
		return nil, inputerr.At(truth.Name, 0, "every document has the label %q; a comparison needs at least two classes", names[0])
	}
	for k, pred := range [][]string{pa, pb} {
		for i, l := range pred {
			if labels[l] == 0 {
				f := files[k]
				line := i + 1
				if f.IDs == nil {
					line = f.Lines[i]
				} else {
					line = f.Lines[slices.Index(f.IDs, truth.IDs[i])]
				}
				return nil, inputerr.At(f.Name, line, "label %q does not occur in %s: its category would be empty (no positive document); use --positive LABEL to compare one class against the rest",
					truncateLabel(l), truth.Name)
			}
		}
	}
	cats := make([]twosample.Category, len(names))
	index := make(map[string]int, len(names))
	for i, n := range names {
		cats[i].Name = n
		index[n] = i
	}
	for i, l := range truth.Labels {
		for c := range cats {
			cats[c].Counts.Add(c == index[l], pa[i] == cats[c].Name, pb[i] == cats[c].Name)
		}
	}
	return cats, nil
}

// sortLabels sorts labels numerically when all are integers, else by bytes.
func sortLabels(names []string) {
	numeric := true
	for _, n := range names {
		if _, err := strconv.ParseInt(n, 10, 64); err != nil {
			numeric = false
			break
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		if numeric {
			x, _ := strconv.ParseInt(a, 10, 64)
			y, _ := strconv.ParseInt(b, 10, 64)
			if x != y {
				if x < y {
					return -1
				}
				return 1
			}
		}
		return strings.Compare(a, b)
	})
}

func listLabels(names []string) string {
	var q []string
	for i, n := range names {
		if i == 10 {
			q = append(q, fmt.Sprintf("… %d more", len(names)-10))
			break
		}
		q = append(q, strconv.Quote(n))
	}
	return strings.Join(q, ", ")
}
