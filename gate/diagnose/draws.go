package diagnose

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/linelimit"
)

// Draws are MCMC draws of several scalar variables, as read from a CSV file.
type Draws struct {
	Variables  []string      // variable names, in file order
	Chains     []int         // chain numbers, ascending
	Iterations int           // iterations per chain
	Values     [][][]float64 // Values[v][m][i]: variable v, chain Chains[m], i-th iteration in order
}

// Read reads draws from CSV: a header with a column "chain" and a column
// "iteration" (posterior's ".chain" and ".iteration" are accepted too, and a
// ".draw" column is ignored), every other column one variable; then one row per
// (chain, iteration). Rows may come in any order. Chains and iterations are
// integers; each chain's iterations must be consecutive without repeats, and
// every chain must have as many as the others. Values are numbers; NA, NaN and
// ±Inf are read as non-finite values (whose diagnostics are then NaN). Lines
// starting with # are comments. name is used in error messages, which are
// *inputerr.Error values naming the line.
func Read(r io.Reader, name string) (*Draws, error) {
	cr := csv.NewReader(linelimit.NewReader(r, false))
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true

	header, err := cr.Read()
	if err == io.EOF {
		return nil, inputerr.At(name, 1, "empty file: expected a header with columns chain, iteration and one per variable")
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	header = slices.Clone(header)
	headerLine, _ := cr.FieldPos(0)
	chainCol, iterCol := -1, -1
	var varCols []int
	var vars []string
	seen := map[string]bool{}
	for c, h := range header {
		if c == 0 {
			h = strings.TrimPrefix(h, "\uFEFF") // a byte-order mark
		}
		h = strings.TrimSpace(h)
		switch h {
		case "chain", ".chain":
			if chainCol >= 0 {
				return nil, inputerr.At(name, headerLine, "two chain columns (%d and %d)", chainCol+1, c+1)
			}
			chainCol = c
		case "iteration", ".iteration":
			if iterCol >= 0 {
				return nil, inputerr.At(name, headerLine, "two iteration columns (%d and %d)", iterCol+1, c+1)
			}
			iterCol = c
		case ".draw":
		case "":
			return nil, inputerr.At(name, headerLine, "column %d has no name", c+1)
		default:
			if seen[h] {
				return nil, inputerr.At(name, headerLine, "variable %q appears twice in the header", h)
			}
			seen[h] = true
			varCols = append(varCols, c)
			vars = append(vars, h)
		}
	}
	switch {
	case chainCol < 0:
		return nil, inputerr.At(name, headerLine, "no chain column in the header (expected columns chain, iteration and one per variable)")
	case iterCol < 0:
		return nil, inputerr.At(name, headerLine, "no iteration column in the header (expected columns chain, iteration and one per variable)")
	case len(vars) == 0:
		return nil, inputerr.At(name, headerLine, "no variable columns: the header has only chain and iteration")
	}

	type row struct {
		chain, iter, line int
	}
	var rows []row
	var values []float64 // row after row, len(vars) each
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			return nil, inputerr.At(name, line, "%d fields, but the header has %d", len(rec), len(header))
		}
		chain, err := strconv.Atoi(strings.TrimSpace(rec[chainCol]))
		if err != nil {
			return nil, inputerr.At(name, line, "chain %q is not an integer", rec[chainCol])
		}
		iter, err := strconv.Atoi(strings.TrimSpace(rec[iterCol]))
		if err != nil {
			return nil, inputerr.At(name, line, "iteration %q is not an integer", rec[iterCol])
		}
		for v, c := range varCols {
			x, ok := parseDraw(rec[c])
			if !ok {
				return nil, inputerr.At(name, line, "value %q of %s is not a number", rec[c], vars[v])
			}
			values = append(values, x)
		}
		rows = append(rows, row{chain, iter, line})
	}
	if len(rows) == 0 {
		return nil, inputerr.At(name, headerLine, "no draws after the header")
	}

	// Order rows by chain, then iteration; check each chain's iterations.
	perm := make([]int, len(rows))
	for i := range perm {
		perm[i] = i
	}
	slices.SortFunc(perm, func(a, b int) int {
		ra, rb := rows[a], rows[b]
		return cmp.Or(cmp.Compare(ra.chain, rb.chain), cmp.Compare(ra.iter, rb.iter), cmp.Compare(ra.line, rb.line))
	})
	var chains []int
	var count []int // iterations per chain
	var lastLine []int
	for k, p := range perm {
		r := rows[p]
		if k == 0 || r.chain != rows[perm[k-1]].chain {
			chains = append(chains, r.chain)
			count = append(count, 1)
			lastLine = append(lastLine, r.line)
			continue
		}
		prev := rows[perm[k-1]]
		switch {
		case r.iter == prev.iter:
			return nil, inputerr.At(name, max(r.line, prev.line), "chain %d has iteration %d twice (lines %d and %d)",
				r.chain, r.iter, min(r.line, prev.line), max(r.line, prev.line))
		case r.iter != prev.iter+1:
			return nil, inputerr.At(name, r.line, "chain %d jumps from iteration %d to %d: iterations must be complete",
				r.chain, prev.iter, r.iter)
		}
		count[len(count)-1]++
		lastLine[len(lastLine)-1] = max(lastLine[len(lastLine)-1], r.line)
	}
	longest := 0
	for m := range chains {
		if count[m] > count[longest] {
			longest = m
		}
	}
	for m := range chains {
		if count[m] < count[longest] {
			return nil, inputerr.At(name, lastLine[m], "chain %d has %d iterations, chain %d has %d: every chain must have as many",
				chains[m], count[m], chains[longest], count[longest])
		}
	}

	n := count[0]
	d := &Draws{Variables: vars, Chains: chains, Iterations: n, Values: make([][][]float64, len(vars))}
	for v := range vars {
		d.Values[v] = make([][]float64, len(chains))
		block := make([]float64, len(chains)*n)
		for m := range chains {
			d.Values[v][m] = block[m*n : (m+1)*n : (m+1)*n]
		}
	}
	for k, p := range perm {
		m, i := k/n, k%n
		for v := range vars {
			d.Values[v][m][i] = values[p*len(vars)+v]
		}
	}
	return d, nil
}

// parseDraw parses one value: a number, or NA (R's missing value), NaN, Inf.
func parseDraw(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "NA" {
		return math.NaN(), true
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return x, true // overflow to ±Inf or underflow to 0, as R reads it
		}
		return 0, false
	}
	return x, true
}

// csvError turns an encoding/csv error into an input error at its line.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	var long *linelimit.Error
	if errors.As(err, &long) {
		return inputerr.At(name, long.Line, "%s", linelimit.Message)
	}
	if errors.As(err, &pe) {
		return inputerr.At(name, pe.Line, "malformed CSV: %v", pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}
