package judgments

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/inputerr"
)

// The worklist file (judgments-needed.tsv): tab-separated, no quoting, one
// line per unjudged document, '#' lines comments. The first line that is
// not a comment or blank is the header; the columns are found by its names,
// so a spreadsheet may reorder them or add its own:
//
//	topic     the topic id, as in the qrels
//	document  the document id, as in the qrels and runs
//	label     blank, for the judge: the document's relevance level, an
//	          integer ≥ 0 as in the qrels (0 not relevant); left blank, the
//	          document stays unjudged
//	weight    how far the label moves one system's per-topic measure
//	          (Item.Weight), four decimals
//	systems   the systems ranking the document within the measure's depth,
//	          comma-separated (for the judge; never read)
//	ranks     their ranks, in the same order (never read)
//
// Topic and document ids hold no white space (the qrels and runs split
// fields at it), so they are written as they are and read back exactly.

// Header is the worklist's header line, without its line end.
const Header = "topic\tdocument\tlabel\tweight\tsystems\tranks"

// WriteTSV writes wl as a worklist file, the comment lines explaining it
// first.
func WriteTSV(w io.Writer, wl *Worklist) error {
	bw := bufio.NewWriter(w)
	depth := "every rank"
	if wl.Depth > 0 {
		depth = fmt.Sprintf("the top %d", wl.Depth)
	}
	measure := escape.Printable(wl.Measure)
	fmt.Fprintf(bw, "# riskgate judgments worklist: unjudged documents whose label could change %s, the most influential first.\n", measure)
	fmt.Fprintf(bw, "# Fill in label with each document's relevance level, an integer as in the qrels (0 not relevant); a blank label stays unjudged.\n")
	fmt.Fprintf(bw, "# weight: a system's per-topic %s with the document judged %d minus judged 0 (the largest in size over the systems).\n", measure, wl.TopLevel)
	fmt.Fprintf(bw, "# systems, ranks: the systems ranking the document within %s (what %s reads), and where.\n", depth, measure)
	fmt.Fprintf(bw, "# %d of the %d unjudged documents within %s could change a system's %s; %d listed.\n", wl.Movable, wl.Unjudged, depth, measure, len(wl.Items))
	bw.WriteString(Header + "\n")
	for _, it := range wl.Items {
		names, ranks := make([]string, len(it.By)), make([]string, len(it.By))
		for i, r := range it.By {
			names[i] = strings.ReplaceAll(escape.Plain(r.System, false), ",", "_")
			ranks[i] = strconv.Itoa(r.Rank)
		}
		fmt.Fprintf(bw, "%s\t%s\t\t%s\t%s\t%s\n", it.Topic, it.Doc, strconv.FormatFloat(it.Weight, 'f', 4, 64), strings.Join(names, ","), strings.Join(ranks, ","))
	}
	return bw.Flush()
}

// Filled is what a filled-in worklist says: its judgments, and how many of
// its documents are still unjudged.
type Filled struct {
	Name      string
	Judgments []trec.Judgment // in file order, each with its line
	Blank     int             // lines whose label is blank
}

// maxLine bounds a worklist line.
const maxLine = 1 << 20

// ReadTSV reads a filled-in worklist; name labels errors. A blank label is
// a document not judged yet (counted in Blank); a label must otherwise be
// an integer from 0 to 2147483647. Any malformed line — before the header
// a line that is not one, a line with more fields than the header, a blank
// topic or document, a label that is not such an integer, a (topic,
// document) pair twice — is an *inputerr.Error naming the file and line.
func ReadTSV(r io.Reader, name string) (*Filled, error) {
	f := &Filled{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	var col struct{ topic, doc, label, fields int }
	header := false
	type key struct{ topic, doc string }
	seen := map[key]int{}
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if line == 1 {
			text = bytes.TrimPrefix(text, []byte("\uFEFF")) // a spreadsheet's byte-order mark
		}
		text = bytes.TrimSuffix(text, []byte("\r"))
		if len(bytes.TrimSpace(text)) == 0 || text[0] == '#' {
			continue
		}
		fields := strings.Split(string(text), "\t")
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		if !header {
			col.topic, col.doc, col.label, col.fields = -1, -1, -1, len(fields)
			for i, h := range fields {
				switch strings.ToLower(h) {
				case "topic":
					col.topic = i
				case "document":
					col.doc = i
				case "label":
					col.label = i
				}
			}
			if col.topic < 0 || col.doc < 0 || col.label < 0 {
				return nil, inputerr.At(name, line, "%s; expected the worklist's header line, tab-separated columns topic, document and label (%s)",
					quote(string(text)), strings.ReplaceAll(Header, "\t", ", "))
			}
			header = true
			continue
		}
		if len(fields) > col.fields {
			return nil, inputerr.At(name, line, "%d tab-separated fields; the header has %d", len(fields), col.fields)
		}
		field := func(i int) string {
			if i < len(fields) {
				return fields[i]
			}
			return ""
		}
		topic, doc, label := field(col.topic), field(col.doc), field(col.label)
		switch {
		case topic == "":
			return nil, inputerr.At(name, line, "no topic; expected the topic id of the document")
		case doc == "":
			return nil, inputerr.At(name, line, "no document; expected the document id")
		}
		k := key{topic, doc}
		if first, dup := seen[k]; dup {
			return nil, inputerr.At(name, line, "document %s of topic %s is also on line %d; expected each document of a topic once", quote(doc), quote(topic), first)
		}
		seen[k] = line
		if label == "" {
			f.Blank++
			continue
		}
		level, err := strconv.ParseInt(label, 10, 64)
		if err != nil || level < 0 || level > math.MaxInt32 {
			return nil, inputerr.At(name, line, "label %s; expected a relevance level, an integer from 0 (not relevant) to %d, or blank for a document not judged yet", quote(label), math.MaxInt32)
		}
		f.Judgments = append(f.Judgments, trec.Judgment{Topic: topic, Doc: doc, Level: level, Line: line})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, inputerr.At(name, line+1, "line longer than %d MB; expected one document per line", maxLine>>20)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !header {
		return nil, inputerr.At(name, line, "no header line; expected a worklist: a line of tab-separated columns topic, document and label, then one line per document")
	}
	return f, nil
}

// Apply returns q with f's judgments added (trec.Qrels.With): each replaces
// the qrels' judgment of its document, if any. A judgment of a topic q does
// not judge is an *inputerr.Error naming its line: a worklist is made from
// the qrels' topics, so such a line is a mistake (a mistyped id, another
// collection's file).
func (f *Filled) Apply(q *trec.Qrels) (*trec.Qrels, error) {
	for _, j := range f.Judgments {
		if !q.HasTopic(j.Topic) {
			return nil, inputerr.At(f.Name, j.Line, "topic %s is not in the qrels %s; expected a topic the qrels judge", quote(j.Topic), q.Name)
		}
	}
	return q.With(q.Name+" + "+f.Name, f.Judgments)
}

// quote spells a value from the file for a message: printable, cut short.
func quote(s string) string {
	return strconv.Quote(escape.Clip(escape.Printable(s), 80))
}
