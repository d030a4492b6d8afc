package scores

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/linelimit"
)

// maxLine is the longest line the line-oriented parsers accept: every
// input's bound (gate/trec's runs and qrels too).
const maxLine = linelimit.Max

// lineScanner returns a scanner of r's lines that keeps count of them.
func lineScanner(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	return sc
}

// scanError turns a scanner error after line into the one-line input error.
func scanError(file string, line int, err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return inputerr.At(file, line+1, "%s", linelimit.Message)
	}
	return inputerr.At(file, line+1, "read error: %v", err)
}

const jsonHelp = `one object {"system": …, "topic": …, "score": …} per line, with an optional "measure"`

// parseJSONL reads one JSON object per line; blank lines are skipped. A key
// given twice, or a name that is not valid UTF-8, is an error (see
// decodeJSONRow).
func parseJSONL(r io.Reader, fs *fileSink) error {
	sc := lineScanner(r)
	line := 0
	var seen []string
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if text[0] != '{' {
			return inputerr.At(fs.file, line, "line starts with %s; expected %s", excerpt(string(text)), jsonHelp)
		}
		row, err := decodeJSONRow(text, &seen)
		if err != nil {
			return inputerr.At(fs.file, line, "%v; expected %s", err, jsonHelp)
		}
		measure := ""
		if raw := row.measure(); raw != nil && string(raw) != "null" {
			var err error
			if measure, err = jsonString(raw); err != nil || measure == "" {
				why := "is " + jsonExcerpt(raw)
				if err != nil && raw[0] == '"' {
					why = err.Error()
				}
				return inputerr.At(fs.file, line, `"measure" %s; expected a non-empty string`, why)
			}
		}
		measure, keep, err := fs.keep(measure, line)
		if err != nil {
			return err
		}
		if !keep {
			continue // a row of another measure
		}
		system, err := jsonName(row.system())
		if err != nil {
			return inputerr.At(fs.file, line, `"system" %v; expected %s`, err, jsonHelp)
		}
		topic, err := jsonName(row.topic())
		if err != nil {
			return inputerr.At(fs.file, line, `"topic" %v; expected %s`, err, jsonHelp)
		}
		score := row.score()
		if score == nil {
			return inputerr.At(fs.file, line, `no "score" key; expected %s`, jsonHelp)
		}
		if !isJSONNumber(score) {
			return inputerr.At(fs.file, line, `"score" is %s; expected a JSON number`, jsonExcerpt(score))
		}
		v, err := fs.score(string(score), line)
		if err != nil {
			return err
		}
		if err := fs.add(measure, system, topic, v, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return scanError(fs.file, line, err)
	}
	return nil
}

func isJSONNumber(raw []byte) bool {
	return len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9')
}

// jsonName reads a system or topic name: a JSON string, or a number whose
// text is the name (topic 301 is "301").
func jsonName(raw []byte) (string, error) {
	switch {
	case raw == nil:
		return "", errors.New("key is missing")
	case raw[0] == '"':
		s, err := jsonString(raw)
		if err != nil {
			return "", err
		}
		return strings.TrimSpace(s), nil
	case isJSONNumber(raw):
		return string(raw), nil
	}
	return "", errors.New("is " + jsonExcerpt(raw) + ", not a string or number")
}

// jsonExcerpt shows the start of a JSON value as it is written.
func jsonExcerpt(raw []byte) string {
	const max = 40
	if r := []rune(string(raw)); len(r) > max {
		return string(r[:max]) + "…"
	}
	return string(raw)
}
