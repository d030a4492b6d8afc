// Package parquettest writes small flat Parquet files for tests: the
// column types Spark, BigQuery, DuckDB and pandas write per-query tables
// with (strings, INT32/INT64, DOUBLE, FLOAT, DECIMAL), nullable or not,
// in several row groups when asked, so that the Parquet loader is tested on
// files made by an independent writer (github.com/parquet-go/parquet-go's).
package parquettest

import (
	"fmt"
	"io"
	"sort"

	"github.com/parquet-go/parquet-go"
)

// Column is one top-level column: its name and its Parquet node, such as
// parquet.String(), parquet.Leaf(parquet.DoubleType),
// parquet.Decimal(4, 9, parquet.Int32Type), or parquet.Optional(node).
type Column struct {
	Name string
	Node parquet.Node
}

// Types a test names a column's node by.
var (
	String  = parquet.String()
	Double  = parquet.Leaf(parquet.DoubleType)
	Float   = parquet.Leaf(parquet.FloatType)
	Int32   = parquet.Leaf(parquet.Int32Type)
	Int64   = parquet.Leaf(parquet.Int64Type)
	Boolean = parquet.Leaf(parquet.BooleanType)
)

// Write writes rows (one value per column, in the order of cols; nil is
// null, for an Optional column) as a Parquet file of rowsPerGroup rows per
// row group (all in one when 0). Values are Go values of the column's
// physical type: string, int32, int64, float32, float64, bool; a DECIMAL
// column takes its unscaled integer.
func Write(w io.Writer, cols []Column, rows [][]any, rowsPerGroup int) error {
	group := parquet.Group{}
	for _, c := range cols {
		if _, dup := group[c.Name]; dup {
			return fmt.Errorf("column %q given twice", c.Name)
		}
		group[c.Name] = c.Node
	}
	schema := parquet.NewSchema("scores", group)
	// A Group's columns are in name order; the file's leaves follow it.
	order := make([]int, len(cols)) // order[k] is the index in cols of leaf k
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return cols[order[a]].Name < cols[order[b]].Name })
	opts := []parquet.WriterOption{schema}
	if rowsPerGroup > 0 {
		opts = append(opts, parquet.MaxRowsPerRowGroup(int64(rowsPerGroup)))
	}
	pw := parquet.NewWriter(w, opts...)
	for _, r := range rows {
		if len(r) != len(cols) {
			return fmt.Errorf("a row of %d values for %d columns", len(r), len(cols))
		}
		row := make(parquet.Row, len(cols))
		for leaf, i := range order {
			def := 0
			if cols[i].Node.Optional() {
				def = 1
			}
			v := parquet.ValueOf(r[i])
			if r[i] == nil {
				v, def = parquet.NullValue(), 0
			}
			row[leaf] = v.Level(0, def, leaf)
		}
		if _, err := pw.WriteRows([]parquet.Row{row}); err != nil {
			return err
		}
	}
	return pw.Close()
}
