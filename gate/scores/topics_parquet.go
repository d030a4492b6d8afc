package scores

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/riskgate/riskgate/internal/inputerr"
)

// maxTopicsParquetBytes bounds a Parquet topics file, which is read whole
// (its footer is at its end): a million topics with three segment columns
// and a weight take about 20 MB as pandas or DuckDB write them.
const maxTopicsParquetBytes = 256 << 20

// maxTopicsParquetMemory bounds what decoding a Parquet topics file may take
// beside its bytes, checked before any value is decoded: the footer's
// structures (footerItemBytes each), every cell read (LoadCellBytes) and the
// largest page decompressed.
const maxTopicsParquetMemory = 1 << 30

// readTopicAttributesParquet reads a topics file in Parquet: columns found
// by name as in a CSV header (the topic column by its names, weight, every
// other flat column a dimension; pandas' index columns ignored), ids and
// segments as strings or integers, the weight as a number (DOUBLE, FLOAT,
// an integer, DECIMAL) or a string holding one. A null is an empty cell.
// Every rule of the CSV form applies (topicsBuilder), positions are rows
// counted from 1 over the row groups, and the metadata is checked as the
// score loader checks it (checkFooter, checkChunk) before anything is
// decoded.
func readTopicAttributesParquet(r io.Reader, file string) (ta *TopicAttributes, err error) {
	data, err := io.ReadAll(io.LimitReader(r, maxTopicsParquetBytes+1))
	if err != nil {
		return nil, inputerr.At(file, 0, "read error: %v", err)
	}
	if len(data) > maxTopicsParquetBytes {
		return nil, inputerr.At(file, 0, "a Parquet topics file of more than %d MB; expected a smaller file (one row per topic)", maxTopicsParquetBytes>>20)
	}
	unreadable := func(why any) error {
		return inputerr.At(file, 0, "not a readable Parquet file (%v); expected a Parquet file as Spark, BigQuery, DuckDB or pandas write", why)
	}
	// The library decodes untrusted bytes; a malformed file must be one
	// line of bad input, never a crash.
	defer func() {
		if p := recover(); p != nil {
			ta, err = nil, unreadable(p)
		}
	}()
	items, err := checkFooter(data)
	if err != nil {
		return nil, unreadable(err)
	}
	if footerItemBytes*float64(items) > maxTopicsParquetMemory {
		return nil, unreadable(fmt.Sprintf("a footer of %d structures", items))
	}
	pf, err := parquet.OpenFile(bytesReaderAt(data), int64(len(data)), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, unreadable(err)
	}
	fs := &fileSink{file: file}
	cols, err := topicsParquetColumns(pf, file)
	if err != nil {
		return nil, err
	}
	header := make([]string, len(cols))
	for i, c := range cols {
		header[i] = c.name
	}
	b, err := newTopicsBuilder(file, rowOf, header, ",")
	if err != nil {
		return nil, err
	}
	if err := checkTopicsParquetColumns(pf, data, cols, b, file); err != nil {
		return nil, err
	}
	first := 0
	for _, rg := range pf.RowGroups() {
		n := int(rg.NumRows())
		cells := make([][]string, len(cols))
		for i, c := range cols {
			cells[i] = make([]string, 0, n)
			err := c.read(rg, fs, first, n, func(row int, v parquet.Value) error {
				if c.decimal && (c.kind == parquet.ByteArray || c.kind == parquet.FixedLenByteArray) && !v.IsNull() && len(v.ByteArray()) > maxDecimalBytes {
					return inputerr.At(file, row, "row %d: column %s: a DECIMAL of %d bytes; expected at most %d", row, excerpt(c.name), len(v.ByteArray()), maxDecimalBytes)
				}
				cells[i] = append(cells[i], c.text(v, i == b.wi))
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
		rec := make([]string, len(cols))
		for j := range n {
			for i := range cols {
				rec[i] = cells[i][j]
			}
			if err := b.row(first+j+1, rec); err != nil {
				return nil, err
			}
		}
		first += n
	}
	return b.done()
}

// topicsParquetColumns returns the file's flat top-level columns, pandas'
// index columns left out; a nested or repeated one is refused.
func topicsParquetColumns(pf *parquet.File, file string) ([]*parquetColumn, error) {
	var cols []*parquetColumn
	for _, c := range pf.Root().Columns() {
		name := strings.TrimSpace(c.Name())
		if strings.HasPrefix(name, "__index_level_") {
			continue
		}
		if !c.Leaf() || c.Repeated() {
			return nil, inputerr.At(file, 0, "column %s is nested or repeated; expected flat columns: %s", excerpt(name), topicsHelp)
		}
		cols = append(cols, newParquetColumn(c, name))
	}
	return cols, nil
}

// checkTopicsParquetColumns checks each column's type (ids and segments
// strings or integers; the weight a number or a string) and its pages
// (checkChunk), and what reading them all takes against
// maxTopicsParquetMemory, before any value is decoded.
func checkTopicsParquetColumns(pf *parquet.File, data []byte, cols []*parquetColumn, b *topicsBuilder, file string) error {
	for i, c := range cols {
		switch {
		case i == b.wi && !c.isNumber() && c.kind != parquet.ByteArray:
			return inputerr.At(file, 0, "column %s is of type %s; expected numbers (DOUBLE, FLOAT, integers or DECIMAL)", excerpt(c.name), c.typeName)
		case i != b.wi && !c.isID():
			return inputerr.At(file, 0, "column %s is of type %s; expected strings or integers", excerpt(c.name), c.typeName)
		}
	}
	var rows, page int64
	for g, rg := range pf.Metadata().RowGroups {
		if rg.NumRows < 0 {
			return inputerr.At(file, 0, "row group %d has %d rows; expected a count", g+1, rg.NumRows)
		}
		rows += rg.NumRows
		for _, c := range cols {
			if c.index >= len(rg.Columns) {
				return inputerr.At(file, 0, "column %s has no data in row group %d; expected a column chunk in every row group", excerpt(c.name), g+1)
			}
			md := rg.Columns[c.index].MetaData
			if md.NumValues != rg.NumRows {
				return inputerr.At(file, 0, "column %s holds %d values in row group %d of %d rows; expected one per row", excerpt(c.name), md.NumValues, g+1, rg.NumRows)
			}
			start := md.DataPageOffset
			if md.DictionaryPageOffset != 0 {
				start = md.DictionaryPageOffset
			}
			largest, err := checkChunk(data, start, md.TotalCompressedSize, md.NumValues)
			if err != nil {
				return inputerr.At(file, 0, "not a readable Parquet file (column %s, row group %d: %v); expected a Parquet file as Spark, BigQuery, DuckDB or pandas write", excerpt(c.name), g+1, err)
			}
			page = max(page, largest)
		}
	}
	if need := LoadCellBytes*float64(rows)*float64(len(cols)) + float64(page); need > maxTopicsParquetMemory {
		return inputerr.At(file, 0, "%d rows of %d columns would take %.0f MB to read; expected a topics file within %d MB", rows, len(cols), need/(1<<20), maxTopicsParquetMemory>>20)
	}
	return nil
}

// text is a cell as the topics builder reads it: an id or segment as
// column.id gives it, a weight in its shortest exact decimal (a string
// weight as written), a null as an empty cell.
func (c *parquetColumn) text(v parquet.Value, weight bool) string {
	switch {
	case v.IsNull():
		return ""
	case !weight || (c.kind == parquet.ByteArray && !c.decimal):
		return c.id(v)
	}
	return strconv.FormatFloat(c.float(v), 'g', -1, 64)
}
