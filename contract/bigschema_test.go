package contract

import (
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestSchemaByteBounds: SDL up to MaxSDLBytes and an introspection result
// up to MaxDocumentBytes are read; past them the refusal is
// PAYLOAD_TOO_LARGE naming the limit.
func TestSchemaByteBounds(t *testing.T) {
	t.Parallel()
	pad := func(n int, doc string) string { return "# " + strings.Repeat("x", n-len(doc)-3) + "\n" + doc }
	small := "type Query { a: Int }"
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"SDL at the bound", pad(MaxSDLBytes, small), ""},
		{"GitHub's schema twice over", string(githubSchema(t)) + "\n" + pad(2<<20, "scalar Padding"), ""},
		{"SDL past the bound", pad(MaxSDLBytes+1, small), "over the limit of 4194304"},
		{"introspection past the bound", `{"__schema":{"queryType":{"name":"Query"},"description":"` + strings.Repeat("x", MaxDocumentBytes) + `"}}`, "over the limit of 16777216"},
		{"introspection that prints past the SDL bound", `{"__schema":{"queryType":{"name":"Query"},"description":"` + strings.Repeat("x", MaxSDLBytes) + `","types":[{"kind":"OBJECT","name":"Query","fields":[{"name":"a","args":[],"type":{"kind":"SCALAR","name":"Int"}}],"interfaces":[]}]}}`, "prints as"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc), MaxDocumentBytes)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("%d bytes: %v", len(tc.doc), err)
				}
				return
			}
			if e := model.AsError(err); e == nil || e.Code != model.CodePayloadTooLarge || !strings.Contains(e.Message, tc.want) {
				t.Fatalf("%d bytes: %v, want PAYLOAD_TOO_LARGE containing %q", len(tc.doc), err, tc.want)
			}
		})
	}
}

// TestRepeatedFields: a field defined twice with one signature is served
// once (GitHub's schema does it); with two signatures it is refused.
func TestRepeatedFields(t *testing.T) {
	t.Parallel()
	same := "type Query {\n  \"one\"\n  a(x: Int = 1): Int\n  b: String\n  \"two\"\n  a(x: Int = 1): Int\n}\n"
	s, err := Parse([]byte(same), MaxDocumentBytes)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.AST.Query.Fields {
		if !strings.HasPrefix(f.Name, "__") {
			names = append(names, f.Name+":"+f.Description)
		}
	}
	if got := strings.Join(names, " "); got != "a:one b:" {
		t.Errorf("fields %q, want the first a and b", got)
	}
	if s.SDL != same {
		t.Errorf("the stored document changed")
	}
	for _, doc := range []string{
		"type Query {\n  a: Int\n  a: String\n}\n",
		"type Query {\n  a(x: Int): Int\n  a(x: Int = 2): Int\n}\n",
		"type Query {\n  a: Int\n  a: Int @deprecated\n}\n",
	} {
		if _, err := Parse([]byte(doc), MaxDocumentBytes); model.AsError(err) == nil || model.AsError(err).Code != model.CodeBadUserInput {
			t.Errorf("%q: %v, want BAD_USER_INPUT", doc, err)
		}
	}
}
