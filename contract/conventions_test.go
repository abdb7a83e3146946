package contract

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/internal/testdata"
	"github.com/mockgql/mockgql/model"
)

// conventionSchema parses testdata/conventions/name of the repository.
func conventionSchema(t *testing.T, name string) *Schema {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(testdata.Dir(t, "conventions"), name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(doc, MaxDocumentBytes)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestConventionTables: payload, error, connection, edge, page-info and
// input types are no tables — only the types with rows are, so plan
// table limits count those alone — and noun-first and domain-verb
// mutations are writes of the table they name.
func TestConventionTables(t *testing.T) {
	cases := []struct {
		file      string
		tables    []string
		mutations string
	}{
		{"shop.graphql", []string{"Cart", "CartLine", "Customer", "Order"},
			"customerCreate:create:Customer customerUpdate:update:Customer customerDelete:delete:Customer orderUpdateStatus:update:Order cartLinesAdd:create:CartLine customerArchive:generated:"},
		{"catalog.graphql", []string{"Product", "Review"},
			"productCreate:create:Product productUpdate:update:Product productDelete:delete:Product submitReview:create:Review"},
		{"music.graphql", []string{"Album", "CurrentUser", "Playlist", "Track", "User"},
			"saveAlbums:update:Album removeSavedAlbums:update:Album createPlaylist:create:Playlist removeItemFromPlaylist:update:Track addTrackToPlaylist:update:Track followUser:update:User addStar:update:Album removeStar:update:Album"},
		{"characters.graphql", []string{"Character", "Episode"}, "characterCreate:create:Character"},
		// The cart's parts change through the cart: its lines have no
		// field back to it, so cartLinesAdd answers the cart its key names
		// (a CartLine made there would belong to no cart); CartWarning,
		// listed by warnings, is no table.
		{"cart.graphql", []string{"Cart", "CartDiscountCode", "CartLine"},
			"cartCreate:create:Cart cartNoteUpdate:update:Cart cartLinesAdd:update:Cart cartLinesUpdate:update:Cart cartLinesRemove:update:Cart cartDiscountCodesUpdate:update:Cart"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			p := Interpret(conventionSchema(t, c.file))
			if got := p.EntityNames(); !slices.Equal(got, c.tables) {
				t.Errorf("tables %v, want %v", got, c.tables)
			}
			var got []string
			for _, m := range p.Mutations {
				got = append(got, m.Name+":"+string(m.Shape)+":"+m.Entity)
			}
			if strings.Join(got, " ") != c.mutations {
				t.Errorf("mutations\n %s\nwant\n %s", strings.Join(got, " "), c.mutations)
			}
		})
	}
}

// TestMappingInputPath: a mapping names a field inside an input object by
// its path; a path to no field is refused, and so is one past MaxArgPath.
func TestMappingInputPath(t *testing.T) {
	s := conventionSchema(t, "shop.graphql")
	ok := model.ContractMapping{Field: "Mutation.customerArchive", Shape: "delete", Entity: "Customer",
		Args: []model.ContractArg{{Name: "input.customerRef", Role: "key"}}}
	if _, err := CheckMapping(s, ok); err != nil {
		t.Fatalf("input.customerRef: %v", err)
	}
	for _, name := range []string{"input.nope", "nope.id", strings.Repeat("input.", 60) + "id"} {
		m := ok
		m.Args = []model.ContractArg{{Name: name, Role: "key"}}
		if _, err := CheckMapping(s, m); model.ErrorCode(err) != model.CodeBadUserInput {
			t.Errorf("%.40s: %v, want BAD_USER_INPUT", name, err)
		}
	}
}
