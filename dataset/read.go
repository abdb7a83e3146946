package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/mockgql/mockgql/model"
)

// readBufferSize is the read-ahead of the readers.
const readBufferSize = 256 << 10

// Read parses a whole file of opt.Format and returns the dataset. It streams:
// only the record being parsed and the growing column store are held, never
// the whole input.
//
// JSON values keep their own type ("12" stays a String). Nested objects are
// flattened into dot paths ({"price":{"amount":1}} is price.amount); since
// a path is split at every dot, a key containing a dot reads the same as
// nested objects. Arrays and empty objects are kept as Raw JSON text. CSV
// header names are dot paths and cells are typed by inference: empty is
// Null, true/false Bool, a JSON number Number, anything else String. A
// record may not give a path twice (a duplicate key) nor give one path both
// a value and an object ({"a":1,"a.b":2}); rows may differ in shape.
// Strings are valid UTF-8: invalid bytes become U+FFFD.
//
// Errors are *model.Error: BAD_USER_INPUT saying what is wrong and where
// (record, line, byte offset), PAYLOAD_TOO_LARGE past opt.MaxBytes. Errors
// of r itself are returned wrapped. Nothing partial is returned on error.
func Read(r io.Reader, opt Options) (*Dataset, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	lr := &limitReader{r: r, max: opt.MaxBytes}
	br := bufio.NewReaderSize(lr, bufferSize(r))
	t := newTableBuilder()
	var err error
	switch opt.Format {
	case JSON:
		err = readJSON(br, t)
	case NDJSON:
		err = readNDJSON(br, t)
	case CSV:
		err = readCSV(br, t)
	}
	if lr.over {
		return nil, model.Errorf(model.CodePayloadTooLarge, "the dataset is larger than the limit of %s", model.Size(opt.MaxBytes))
	}
	if err != nil {
		return nil, err
	}
	return t.build(opt)
}

// errTooLarge is the read error past the byte limit; Read reports it.
var errTooLarge = errors.New("dataset: byte limit exceeded")

// limitReader fails once more than max bytes have been read (max <= 0: no
// limit). It reads at most one byte past max, to tell "exactly max" from
// "more".
type limitReader struct {
	r    io.Reader
	max  int64
	read int64
	over bool
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.max <= 0 {
		return l.r.Read(p)
	}
	if l.over {
		return 0, errTooLarge
	}
	if room := l.max + 1 - l.read; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := l.r.Read(p)
	if l.read += int64(n); l.read > l.max {
		l.over = true
		return n, errTooLarge
	}
	return n, err
}

// inputError returns err located by where: input errors become
// BAD_USER_INPUT, *model.Error is kept, read errors are wrapped.
func inputError(where string, err error) error {
	var me *model.Error
	var fe *fieldError
	var se *syntaxError
	switch {
	case errors.As(err, &me):
		return me
	case errors.As(err, &fe), errors.As(err, &se):
		return model.Errorf(model.CodeBadUserInput, "%s: %v", where, err)
	case errors.Is(err, errTooLarge):
		return err
	}
	return fmt.Errorf("dataset: reading %s: %w", where, err)
}

// bufferSize is the read-ahead for r: readBufferSize, or less for an
// input in memory that is shorter (a bytes or strings reader), so that
// reading many small datasets (a contract project's generated tables)
// does not allocate 256 KB each.
func bufferSize(r io.Reader) int {
	if l, ok := r.(interface{ Len() int }); ok && l.Len() < readBufferSize {
		return max(l.Len()+1, 16)
	}
	return readBufferSize
}
