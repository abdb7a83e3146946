package contract

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// FuzzParse feeds Parse and Interpret arbitrary documents: they must never
// panic, Parse refuses only with BAD_USER_INPUT, LIMIT_REACHED (a bound of
// bounds.go) or PAYLOAD_TOO_LARGE, and
// whatever parses is interpreted with a report line per root field.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.graphql")
	conventions, _ := filepath.Glob("../testdata/conventions/*.graphql")
	for _, file := range append(files, conventions...) {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"__schema":{"queryType":{"name":"Q"},"types":[{"kind":"OBJECT","name":"Q","fields":[{"name":"a","args":[],"type":{"kind":"LIST","ofType":{"kind":"OBJECT","name":"Q"}}}]}]}}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		s, err := Parse(doc, 64<<10)
		if err != nil {
			if c := model.ErrorCode(err); c != model.CodeBadUserInput && c != model.CodePayloadTooLarge && c != model.CodeLimitReached {
				t.Fatalf("refusal with code %s: %v", c, err)
			}
			return
		}
		p := Interpret(s)
		roots := len(p.Queries) + len(p.Mutations) + len(p.Subscriptions)
		if lines := len(p.Report()); lines < roots {
			t.Fatalf("%d report lines for %d root fields", lines, roots)
		}
	})
}
