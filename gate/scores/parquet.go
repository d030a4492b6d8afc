package scores

import (
	"errors"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
	"github.com/riskgate/riskgate/internal/inputerr"
)

// parquetMagic starts (and ends) every Parquet file.
const parquetMagic = "PAR1"

// parseParquet reads a Parquet file of per-topic scores in either layout
// Spark, BigQuery and DuckDB export a per-query table in:
//
//   - long: a topic column, a system column, a score (or value) column and
//     optionally a measure column, one row per system, topic (and measure);
//   - wide: a topic column, a system column and one column per measure,
//     named in any spelling of the registry (as csv-measures); a null cell
//     is a missing score.
//
// Columns are found by name as in a CSV header (topic, query, qid,
// query_id, topic_id; system, run, runid, run_id, name; score, value;
// measure), case-insensitively; pandas' index columns (__index_level_0__)
// are ignored. Ids are strings (BYTE_ARRAY) or integers (INT32, INT64);
// scores are DOUBLE, FLOAT, integers, or DECIMAL (scaled INT32, INT64 or
// byte arrays, as DuckDB and BigQuery write them). A number written after
// the file name is a row (1-based over the row groups), not a line.
//
// The file is read whole (it is read once and its footer is at its end);
// before any value is decoded the budget is charged its cells (rows times
// the score columns read) and the largest column chunk decompressed.
func parseParquet(r io.Reader, fs *fileSink) (err error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return err // the budget's refusal, or a read error (orChanged names a change)
	}
	// The library decodes untrusted bytes; a malformed file must be one
	// line of bad input, never a crash.
	defer func() {
		if p := recover(); p != nil {
			err = inputerr.At(fs.file, 0, "not a readable Parquet file (%v); expected a Parquet file as Spark, BigQuery, DuckDB or pandas write", p)
		}
	}()
	items, err := checkFooter(data)
	if err == nil {
		err = fs.l.budget.charge(fs.file, footerItemBytes*float64(items))
	}
	if err != nil {
		var me *MemoryError
		if errors.As(err, &me) {
			return err
		}
		return inputerr.At(fs.file, 0, "not a readable Parquet file (%v); expected a Parquet file as Spark, BigQuery, DuckDB or pandas write", err)
	}
	pf, err := parquet.OpenFile(bytesReaderAt(data), int64(len(data)), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return inputerr.At(fs.file, 0, "not a readable Parquet file (%v); expected a Parquet file as Spark, BigQuery, DuckDB or pandas write", err)
	}
	lay, err := parquetLayoutOf(pf, fs)
	if err != nil {
		return err
	}
	if err := lay.charge(pf, data, fs); err != nil {
		return err
	}
	row := 0
	for _, rg := range pf.RowGroups() {
		if err := lay.readGroup(rg, fs, row); err != nil {
			return err
		}
		row += int(rg.NumRows())
	}
	return nil
}

// bytesReaderAt is the file's bytes as the io.ReaderAt parquet.OpenFile reads.
type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(b)) {
		return 0, errors.New("offset out of the file")
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// maxDecimalScale bounds a DECIMAL's scale, and maxDecimalBytes its
// unscaled bytes (DECIMAL(76) takes 32; Spark, BigQuery and DuckDB stop at 38 digits).
const (
	maxDecimalScale = 76
	maxDecimalBytes = 32
)

// parquetColumn is a top-level column read: where it is and how its values
// become ids or scores.
type parquetColumn struct {
	name     string
	index    int // leaf column index
	kind     parquet.Kind
	decimal  bool
	scale    int
	typeName string
}

// parquetLayout is what a file's schema says is to be read.
type parquetLayout struct {
	topic, system, measure, score *parquetColumn // system, measure, score may be nil
	// measures are the wide layout's measure columns kept, each with its
	// measure; nil in the long layout.
	measures []parquetMeasure
}

type parquetMeasure struct {
	col     *parquetColumn
	measure string
}

const parquetHelp = "a topic column (topic, query, qid, query_id), a system column (system, run, name), and a score column (score, value; optionally a measure column) or one column per measure (nDCG@10, recall.100, …)"

// parquetLayoutOf finds the columns of the long or the wide layout.
func parquetLayoutOf(pf *parquet.File, fs *fileSink) (*parquetLayout, error) {
	lay := &parquetLayout{}
	var others []*parquetColumn
	var names []string
	for _, c := range pf.Root().Columns() {
		name := strings.TrimSpace(c.Name())
		names = append(names, name)
		if name == "" || strings.HasPrefix(name, "__index_level_") {
			continue
		}
		role, hasRole := columnRoles[strings.ToLower(name)]
		if !c.Leaf() || c.Repeated() {
			if hasRole {
				return nil, inputerr.At(fs.file, 0, "column %s is nested or repeated; expected a flat column", excerpt(name))
			}
			others = append(others, nil) // a measure column of the wide layout cannot be nested: refused below
			continue
		}
		col := newParquetColumn(c, name)
		var slot **parquetColumn
		switch role {
		case colTopic:
			slot = &lay.topic
		case colSystem:
			slot = &lay.system
		case colScore:
			slot = &lay.score
		case colMeasure:
			slot = &lay.measure
		default:
			others = append(others, col)
			continue
		}
		if *slot != nil {
			return nil, inputerr.At(fs.file, 0, "columns %s and %s both give the %s; expected one", excerpt((*slot).name), excerpt(name), role)
		}
		*slot = col
	}
	schema := excerpt(strings.Join(names, ","))
	if lay.topic == nil {
		return nil, inputerr.At(fs.file, 0, "no topic column (columns %s); expected %s", schema, parquetHelp)
	}
	if err := fs.systemColumn(lay.system != nil, 0); err != nil {
		return nil, err
	}
	for _, c := range []*parquetColumn{lay.topic, lay.system, lay.measure} {
		if c != nil && !c.isID() {
			return nil, inputerr.At(fs.file, 0, "column %s is of type %s; expected strings or integers", excerpt(c.name), c.typeName)
		}
	}
	if lay.score != nil { // long
		if !lay.score.isNumber() {
			return nil, inputerr.At(fs.file, 0, "column %s is of type %s; expected numbers (DOUBLE, FLOAT, integers or DECIMAL)", excerpt(lay.score.name), lay.score.typeName)
		}
		return lay, nil
	}
	if lay.measure != nil {
		return nil, inputerr.At(fs.file, 0, "a measure column and no score column (columns %s); expected %s", schema, parquetHelp)
	}
	if len(others) == 0 {
		return nil, inputerr.At(fs.file, 0, "no score or measure column (columns %s); expected %s", schema, parquetHelp)
	}
	seen := map[string]string{}
	for _, c := range others {
		if c == nil {
			return nil, inputerr.At(fs.file, 0, "a nested or repeated column (columns %s); expected flat columns of numbers, one per measure", schema)
		}
		measure, keep, err := fs.keep(c.name, 0)
		if err != nil {
			return nil, err
		}
		if first, dup := seen[measure]; dup {
			return nil, inputerr.At(fs.file, 0, "columns %s and %s both give measure %q; expected one column per measure", excerpt(first), excerpt(c.name), measure)
		}
		seen[measure] = c.name
		if !keep {
			continue
		}
		if !c.isNumber() {
			return nil, inputerr.At(fs.file, 0, "column %s is of type %s; expected numbers (DOUBLE, FLOAT, integers or DECIMAL), one column per measure", excerpt(c.name), c.typeName)
		}
		lay.measures = append(lay.measures, parquetMeasure{c, measure})
	}
	return lay, nil
}

func newParquetColumn(c *parquet.Column, name string) *parquetColumn {
	t := c.Type()
	col := &parquetColumn{name: name, index: c.Index(), kind: t.Kind(), typeName: t.String()}
	if d, ok := decimalOf(t.LogicalType()); ok {
		col.decimal, col.scale = true, int(d.Scale)
		if col.scale < 0 || col.scale > maxDecimalScale {
			col.kind = -1 // refused as not a number: no writer makes such a scale
		}
	} else if ct := t.ConvertedType(); ct != nil && *ct == deprecated.Decimal {
		col.kind = -1 // a DECIMAL whose scale the library does not give: refused as not a number
	}
	return col
}

// decimalOf returns a DECIMAL logical type's parameters.
func decimalOf(lt *format.LogicalType) (*format.DecimalType, bool) {
	if lt == nil {
		return nil, false
	}
	d, ok := lt.Value.(*format.DecimalType)
	return d, ok && d != nil
}

func (c *parquetColumn) isID() bool {
	switch c.kind {
	case parquet.ByteArray:
		return true
	case parquet.Int32, parquet.Int64:
		return !c.decimal
	}
	return false
}

func (c *parquetColumn) isNumber() bool {
	switch c.kind {
	case parquet.Double, parquet.Float, parquet.Int32, parquet.Int64:
		return true
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return c.decimal
	}
	return false
}

// footerItemBytes is what decoding a footer takes per structure or list
// element it holds (checkFooter): parquet-go's largest, a column chunk's
// metadata, is about 500 bytes.
const footerItemBytes = 512

// charge checks the pages of every column read (checkChunk) and charges
// the budget what reading takes before any value is decoded: LoadCellBytes
// per cell kept (rows × score columns) and the largest page decompressed
// (one is decoded at a time).
func (lay *parquetLayout) charge(pf *parquet.File, data []byte, fs *fileSink) error {
	read := []*parquetColumn{lay.topic, lay.system, lay.measure, lay.score}
	for _, m := range lay.measures {
		read = append(read, m.col)
	}
	var rows, page int64
	for g, rg := range pf.Metadata().RowGroups {
		if rg.NumRows < 0 {
			return inputerr.At(fs.file, 0, "row group %d has %d rows; expected a count", g+1, rg.NumRows)
		}
		rows += rg.NumRows
		for _, c := range read {
			if c == nil {
				continue
			}
			if c.index >= len(rg.Columns) {
				return inputerr.At(fs.file, 0, "column %s has no data in row group %d; expected a column chunk in every row group", excerpt(c.name), g+1)
			}
			md := rg.Columns[c.index].MetaData
			if md.NumValues != rg.NumRows {
				return inputerr.At(fs.file, 0, "column %s holds %d values in row group %d of %d rows; expected one per row", excerpt(c.name), md.NumValues, g+1, rg.NumRows)
			}
			start := md.DataPageOffset
			if md.DictionaryPageOffset != 0 {
				start = md.DictionaryPageOffset
			}
			largest, err := checkChunk(data, start, md.TotalCompressedSize, md.NumValues)
			if err != nil {
				return inputerr.At(fs.file, 0, "not a readable Parquet file (column %s, row group %d: %v); expected a Parquet file as Spark, BigQuery, DuckDB or pandas write", excerpt(c.name), g+1, err)
			}
			page = max(page, largest)
		}
	}
	cols := max(len(lay.measures), 1)
	return fs.l.budget.charge(fs.file, LoadCellBytes*float64(rows)*float64(cols)+float64(page))
}

// readGroup adds the cells of one row group, whose first row is row first+1.
func (lay *parquetLayout) readGroup(rg parquet.RowGroup, fs *fileSink, first int) error {
	n := int(rg.NumRows())
	ids := func(c *parquetColumn) ([]string, error) {
		if c == nil {
			return nil, nil
		}
		out := make([]string, 0, min(n, 1<<16))
		err := c.read(rg, fs, first, n, func(row int, v parquet.Value) error {
			if v.IsNull() {
				return inputerr.At(fs.file, row, "row %d: column %s is null; expected a value", row, excerpt(c.name))
			}
			out = append(out, c.id(v))
			return nil
		})
		return out, err
	}
	topics, err := ids(lay.topic)
	if err != nil {
		return err
	}
	systems, err := ids(lay.system)
	if err != nil {
		return err
	}
	if lay.score != nil {
		labels, err := ids(lay.measure)
		if err != nil {
			return err
		}
		i := 0
		return lay.score.read(rg, fs, first, n, func(row int, v parquet.Value) error {
			defer func() { i++ }()
			if v.IsNull() {
				return inputerr.At(fs.file, row, "row %d: column %s is null; expected a score", row, excerpt(lay.score.name))
			}
			label := ""
			if labels != nil {
				if label = labels[i]; label == "" {
					return inputerr.At(fs.file, row, "row %d: empty measure; expected a measure name", row)
				}
			}
			measure, keep, err := fs.keep(label, row)
			if err != nil || !keep {
				return err
			}
			x, err := lay.score.number(v, fs, row)
			if err != nil {
				return err
			}
			return fs.add(measure, lay.systemOf(systems, i, fs), topics[i], x, row)
		})
	}
	for _, m := range lay.measures {
		i := 0
		err := m.col.read(rg, fs, first, n, func(row int, v parquet.Value) error {
			defer func() { i++ }()
			if v.IsNull() {
				return nil // a missing cell, as an empty CSV cell
			}
			x, err := m.col.number(v, fs, row)
			if err != nil {
				return err
			}
			return fs.add(m.measure, lay.systemOf(systems, i, fs), topics[i], x, row)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// systemOf is row i's system: its system column's, else the file's (--system-per-file).
func (lay *parquetLayout) systemOf(systems []string, i int, fs *fileSink) string {
	if systems == nil {
		return fs.fileSystem()
	}
	return systems[i]
}

// read calls each with every value of the column in row group rg, which
// must hold n of them (a flat column holds one per row, null or not).
func (c *parquetColumn) read(rg parquet.RowGroup, fs *fileSink, first, n int, each func(row int, v parquet.Value) error) error {
	chunks := rg.ColumnChunks()
	if c.index < 0 || c.index >= len(chunks) {
		return inputerr.At(fs.file, 0, "column %s has no data; expected a column chunk in every row group", excerpt(c.name))
	}
	pages := chunks[c.index].Pages()
	defer pages.Close()
	buf := make([]parquet.Value, 256)
	read := 0
	for {
		page, err := pages.ReadPage()
		if err == io.EOF {
			break
		}
		if err != nil {
			return inputerr.At(fs.file, first+read+1, "row %d: column %s: %v; expected a readable Parquet page", first+read+1, excerpt(c.name), err)
		}
		values := page.Values()
		for {
			k, err := values.ReadValues(buf)
			for _, v := range buf[:k] {
				read++
				if read > n {
					return inputerr.At(fs.file, 0, "column %s holds more values than the %d rows of its row group; expected a flat column", excerpt(c.name), n)
				}
				if err := each(first+read, v); err != nil {
					return err
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return inputerr.At(fs.file, first+read+1, "row %d: column %s: %v; expected a readable Parquet page", first+read+1, excerpt(c.name), err)
			}
			if k == 0 {
				break
			}
		}
	}
	if read != n {
		return inputerr.At(fs.file, 0, "column %s holds %d values in a row group of %d rows; expected one per row", excerpt(c.name), read, n)
	}
	return nil
}

// id is a topic, system or measure value as a name: a string, or an
// integer in decimal (topic 301).
func (c *parquetColumn) id(v parquet.Value) string {
	switch c.kind {
	case parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10)
	case parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10)
	}
	return strings.TrimSpace(string(v.ByteArray()))
}

// number is a score value as a float64, which must be finite.
func (c *parquetColumn) number(v parquet.Value, fs *fileSink, row int) (float64, error) {
	if c.decimal && (c.kind == parquet.ByteArray || c.kind == parquet.FixedLenByteArray) && len(v.ByteArray()) > maxDecimalBytes {
		return 0, inputerr.At(fs.file, row, "row %d: column %s: a DECIMAL of %d bytes; expected at most %d", row, excerpt(c.name), len(v.ByteArray()), maxDecimalBytes)
	}
	x := c.float(v)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		problem := "NaN"
		if math.IsInf(x, 0) {
			problem = "infinite"
		}
		return 0, inputerr.At(fs.file, row, "row %d: column %s: score is %s; expected a finite number", row, excerpt(c.name), problem)
	}
	return x, nil
}

// float is a number column's value as a float64 (a DECIMAL's bytes must be
// within maxDecimalBytes).
func (c *parquetColumn) float(v parquet.Value) float64 {
	switch {
	case c.decimal:
		return c.decimalValue(v)
	case c.kind == parquet.Double:
		return v.Double()
	case c.kind == parquet.Float:
		return float64(v.Float())
	case c.kind == parquet.Int32:
		return float64(v.Int32())
	case c.kind == parquet.Int64:
		return float64(v.Int64())
	}
	return math.NaN()
}

// decimalValue is a DECIMAL value: its unscaled integer (INT32, INT64, or
// big-endian two's complement bytes) divided by 10^scale.
func (c *parquetColumn) decimalValue(v parquet.Value) float64 {
	unscaled := new(big.Int)
	switch c.kind {
	case parquet.Int32:
		unscaled.SetInt64(int64(v.Int32()))
	case parquet.Int64:
		unscaled.SetInt64(v.Int64())
	default:
		b := v.ByteArray()
		unscaled.SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 { // negative: subtract 2^(8·len)
			unscaled.Sub(unscaled, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
	}
	r := new(big.Rat).SetInt(unscaled)
	if c.scale != 0 {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(c.scale))), nil)
		if c.scale > 0 {
			r.Quo(r, new(big.Rat).SetInt(p))
		} else {
			r.Mul(r, new(big.Rat).SetInt(p))
		}
	}
	x, _ := r.Float64()
	return x
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
