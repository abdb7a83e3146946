package dataset

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// mustRead reads data as format with the import code "test".
func mustRead(tb testing.TB, format Format, data string, variantField ...string) *Dataset {
	tb.Helper()
	opt := Options{ImportCode: "test", Format: format}
	if len(variantField) > 0 {
		opt.VariantField = variantField[0]
	}
	d, err := Read(strings.NewReader(data), opt)
	if err != nil {
		tb.Fatalf("Read(%s): %v", format, err)
	}
	return d
}

// writeDoc writes doc to b as one NDJSON line.
func writeDoc(tb testing.TB, b *strings.Builder, doc any) {
	tb.Helper()
	line, err := json.Marshal(doc)
	if err != nil {
		tb.Fatal(err)
	}
	b.Write(line)
	b.WriteByte('\n')
}

// wantError fails unless err is a *model.Error of code whose message
// contains every one of parts.
func wantError(tb testing.TB, err error, code model.Code, parts ...string) {
	tb.Helper()
	var me *model.Error
	if !errors.As(err, &me) {
		tb.Fatalf("error = %v (%T), want a *model.Error %s", err, err, code)
	}
	if me.Code != code {
		tb.Fatalf("code = %s, want %s (message %q)", me.Code, code, me.Message)
	}
	for _, p := range parts {
		if !strings.Contains(me.Message, p) {
			tb.Errorf("message %q does not mention %q", me.Message, p)
		}
	}
}

func num(f float64) Value     { return Value{Kind: Number, Num: f} }
func str(s string) Value      { return Value{Kind: String, Str: s} }
func raw(s string) Value      { return Value{Kind: Raw, Str: s} }
func boolean(b bool) Value    { return Value{Kind: Bool, Bool: b} }
func rows(r ...int32) []int32 { return r }
