package scores

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteLong writes scores in the CSV long format (system,topic,score), one
// row per cell, missing cells (NaN) left out, every number in its shortest
// exact decimal, names quoted as RFC 4180 needs: the format every riskgate
// command reads back as it was.
// scores[s][j] is system s on topic j.
func WriteLong(w io.Writer, systems, topics []string, scores [][]float64) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	if _, err := bw.WriteString("system,topic,score\n"); err != nil {
		return err
	}
	var line []byte
	for s, row := range scores {
		for j, v := range row {
			if math.IsNaN(v) {
				continue
			}
			line = appendField(line[:0], systems[s])
			line = append(line, ',')
			line = appendField(line, topics[j])
			line = append(line, ',')
			line = strconv.AppendFloat(line, v, 'g', -1, 64)
			line = append(line, '\n')
			if _, err := bw.Write(line); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// appendField appends a CSV field, quoted (inner quotes doubled) when it holds
// a comma, a quote or a line break, or starts with a space, as encoding/csv
// writes it.
func appendField(b []byte, f string) []byte {
	if f == "" || !(strings.ContainsAny(f, ",\"\r\n") || f[0] == ' ') {
		return append(b, f...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(f, `"`, `""`)...)
	return append(b, '"')
}
