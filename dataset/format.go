package dataset

import (
	"strings"

	"github.com/mockgql/mockgql/model"
)

// Format is the syntax of an imported file.
type Format string

// Formats accepted by Read.
const (
	JSON   Format = "json"   // one top-level array of objects
	NDJSON Format = "ndjson" // one object per line; blank lines are skipped
	CSV    Format = "csv"    // a header row of dot paths, then one record per row
)

// ParseFormat returns the Format named by s, case-insensitively. Any other
// name is a BAD_USER_INPUT *model.Error.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(strings.TrimSpace(s))); f {
	case JSON, NDJSON, CSV:
		return f, nil
	}
	return "", model.Errorf(model.CodeBadUserInput, "unknown dataset format %q: want json, ndjson or csv", s)
}

// MaxImportCodeLen is the longest accepted import code.
const MaxImportCodeLen = 64

// Options configure Read.
type Options struct {
	// ImportCode names the dataset: 1 to 64 characters of [A-Za-z0-9_-].
	ImportCode string
	// Name is the display name; it defaults to ImportCode.
	Name string
	// Format is the syntax of the file.
	Format Format
	// VariantField is an optional dot path. The Key of each row's value at it
	// names the row's variant; rows where it is null or absent belong to the
	// variant "default".
	VariantField string
	// MaxBytes limits the size of the file; 0 or less means no limit. A
	// larger file is refused with PAYLOAD_TOO_LARGE.
	MaxBytes int64
}

// validate checks opt and fills in defaults.
func (opt *Options) validate() error {
	if err := ValidateImportCode(opt.ImportCode); err != nil {
		return err
	}
	if opt.Name == "" {
		opt.Name = opt.ImportCode
	}
	f, err := ParseFormat(string(opt.Format))
	if err != nil {
		return err
	}
	opt.Format = f
	return nil
}

// ValidateImportCode reports, as a BAD_USER_INPUT *model.Error, whether code
// is not 1 to 64 characters of [A-Za-z0-9_-].
func ValidateImportCode(code string) error {
	if code == "" || len(code) > MaxImportCodeLen {
		return model.Errorf(model.CodeBadUserInput, "invalid importCode %q: want 1 to %d characters", code, MaxImportCodeLen)
	}
	for i := 0; i < len(code); i++ {
		c := code[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
		if !ok {
			return model.Errorf(model.CodeBadUserInput, "invalid importCode %q: character %q at position %d is not one of A-Z a-z 0-9 _ -", code, c, i+1)
		}
	}
	return nil
}
