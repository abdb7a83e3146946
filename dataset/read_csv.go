package dataset

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/mockgql/mockgql/model"
)

// readCSV reads a header row of dot paths, then records of as many fields.
func readCSV(br *bufio.Reader, t *tableBuilder) error {
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return model.Errorf(model.CodeBadUserInput, "csv: dataset is empty: the file has no header row")
	}
	if err != nil {
		return csvError(err, 0, 0)
	}
	cols, err := csvColumns(t, header)
	if err != nil {
		return err
	}
	for {
		record, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvError(err, len(cols), len(record))
		}
		if err := csvRecord(t, cols, record); err != nil {
			line, _ := cr.FieldPos(0)
			return inputError(fmt.Sprintf("csv: line %d", line), err)
		}
	}
}

// csvColumns creates the columns of the header's paths.
func csvColumns(t *tableBuilder, header []string) ([]int, error) {
	cols := make([]int, len(header))
	for i, name := range header {
		if i == 0 {
			name = strings.TrimPrefix(name, "\uFEFF")
		}
		name = strings.ToValidUTF8(name, "\uFFFD")
		if name == "" {
			return nil, model.Errorf(model.CodeBadUserInput, "csv: line 1: column %d has an empty name", i+1)
		}
		if _, dup := t.index[name]; dup {
			return nil, model.Errorf(model.CodeBadUserInput, "csv: line 1: duplicate column %q", name)
		}
		c, err := t.column(name)
		if err != nil {
			return nil, inputError("csv: line 1", err)
		}
		if rel := t.cols[c].related; len(rel) > 0 {
			return nil, model.Errorf(model.CodeBadUserInput,
				"csv: line 1: column %q conflicts with column %q: a path cannot hold both a value and an object", name, t.cols[rel[0]].path)
		}
		cols[i] = c
	}
	return cols, nil
}

// csvRecord stores one record as a row, typing each cell.
func csvRecord(t *tableBuilder, cols []int, record []string) error {
	for i, cell := range record {
		tag, num := inferCell(cell)
		var s []byte
		if tag == tagString {
			if !utf8.ValidString(cell) {
				cell = strings.ToValidUTF8(cell, "\uFFFD")
			}
			s = unsafe.Slice(unsafe.StringData(cell), len(cell)) // only read
		}
		if err := t.setColumn(cols[i], tag, num, s); err != nil {
			return err
		}
	}
	return t.endRow()
}

// inferCell types a CSV cell: empty is null, true/false a boolean, a JSON
// number (no "+1", "007", "NaN" or hex) a number, anything else a string.
func inferCell(cell string) (uint8, float64) {
	switch cell {
	case "":
		return tagNull, 0
	case "true":
		return tagTrue, 0
	case "false":
		return tagFalse, 0
	}
	b := unsafe.Slice(unsafe.StringData(cell), len(cell))
	if c := cell[0]; (c == '-' || c >= '0' && c <= '9') && jsonNumberLen(b) == len(b) {
		if f, ok := smallInt(b); ok {
			return tagNumber, f
		}
		if f, err := strconv.ParseFloat(cell, 64); err == nil && !math.IsInf(f, 0) {
			return tagNumber, f
		}
	}
	return tagString, 0
}

// csvError locates a csv.Reader error; want and got count fields.
func csvError(err error, want, got int) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return inputError("csv", err)
	}
	if errors.Is(pe.Err, csv.ErrFieldCount) {
		return model.Errorf(model.CodeBadUserInput, "csv: line %d: wrong number of fields: %d, the header has %d", pe.Line, got, want)
	}
	return model.Errorf(model.CodeBadUserInput, "csv: line %d, column %d: %v", pe.Line, pe.Column, pe.Err)
}
