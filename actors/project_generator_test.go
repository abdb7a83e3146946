package actors

import (
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// TestContractGeneratorEdit: an editor's generator for a field of a
// contract project is checked against the document and the runtime's
// generators, stored by type and field (one per field), shown as the
// field's attribute generator, removed by an empty generator, bounded in
// number, and kept by a new version while the field remains.
func TestContractGeneratorEdit(t *testing.T) {
	p := contractFixture(t)
	gen := func(kind, opts string) []byte {
		g := model.Generator{Kind: kind}
		if opts != "" {
			g.Options = []byte(opts)
		}
		return encodeDoc(g)
	}
	for _, tc := range []struct {
		name string
		req  *pb.EditSetContractGenerator
		code model.Code
		says string
	}{
		{"a kind with options", &pb.EditSetContractGenerator{Type: "Author", Field: "email", Generator: gen("examples", `{"values":["a@b.c"]}`)}, "", ""},
		{"an unknown kind", &pb.EditSetContractGenerator{Type: "Author", Field: "email", Generator: gen("nope", "")}, model.CodeBadUserInput, "unknown generator kind"},
		{"bad options", &pb.EditSetContractGenerator{Type: "Book", Field: "pages", Generator: gen("number.int", `{"min":9,"max":1}`)}, model.CodeBadUserInput, "min 9 is greater than max 1"},
		{"the key", &pb.EditSetContractGenerator{Type: "Book", Field: "id", Generator: gen("uuid", "")}, model.CodeBadUserInput, "is the key"},
		{"an enum", &pb.EditSetContractGenerator{Type: "Book", Field: "genre", Generator: gen("uuid", "")}, model.CodeBadUserInput, "is an enum"},
		{"no such field", &pb.EditSetContractGenerator{Type: "Book", Field: "nope", Generator: gen("uuid", "")}, model.CodeBadUserInput, "has no field nope"},
		{"no such type", &pb.EditSetContractGenerator{Type: "PageInfo", Field: "hasNextPage", Generator: gen("boolean", "")}, model.CodeBadUserInput, "not a type whose rows are generated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := p.Clone()
			_, err := applyEditAt(next, tc.req, time.Unix(60, 0))
			if tc.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if model.ErrorCode(err) != tc.code || !strings.Contains(model.ErrorMessage(err), tc.says) {
				t.Fatalf("error %v, want %s saying %q", err, tc.code, tc.says)
			}
		})
	}

	set := func(p *model.Project, req grainRequest) {
		t.Helper()
		if _, err := applyEditAt(p, req, time.Unix(60, 0)); err != nil {
			t.Fatal(err)
		}
	}
	version := p.Version
	set(p, &pb.EditSetContractGenerator{Type: "Author", Field: "email", Generator: gen("person.email", "")})
	set(p, &pb.EditSetContractGenerator{Type: "Author", Field: "email", Generator: gen("examples", `{"values":["x@y.z"]}`)})
	if len(p.Contract.Generators) != 1 || p.Contract.Generators[0].Kind != "examples" || p.Version != version+2 {
		t.Fatalf("generators %+v at version %d (from %d)", p.Contract.Generators, p.Version, version)
	}
	attr := p.TableByName("Author").Attribute("email")
	if attr.Mapping != model.MappingSource || attr.Generator == nil || attr.Generator.Kind != "examples" {
		t.Fatalf("Author.email's attribute: %+v", attr)
	}
	set(p, &pb.EditImportContract{Document: p.Contract.Document, ExpectVersion: int32(p.Contract.Version)})
	if g := p.Contract.GeneratorOf("Author", "email"); g == nil || g.Kind != "examples" {
		t.Fatalf("a new version dropped the choice: %+v", p.Contract.Generators)
	}
	set(p, &pb.EditSetContractGenerator{Type: "Author", Field: "email"})
	if len(p.Contract.Generators) != 0 || p.TableByName("Author").Attribute("email").Generator != nil {
		t.Fatalf("after the reset: %+v", p.Contract.Generators)
	}
}
