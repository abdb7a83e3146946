package graphql

import (
	"fmt"
	"slices"
	"testing"
)

// TestContractLinks: a many-to-many that no foreign key holds agrees both
// ways (every character of a film has the film among its films), its
// connection pages like a relation's (first, totalCount, the convenience
// list equal to the edges' nodes), a list with no field back is rows of
// its type, and a deleted row leaves every link.
func TestContractLinks(t *testing.T) {
	h := newContractHarness(t, "testdata/contract/links.graphql")
	films := h.do(`{ films { id characterConnection { totalCount edges { node { id } } characters { id } } } }`, nil)
	people := h.do(`{ people { id filmConnection { totalCount edges { node { id } } } favouriteColours { id } } }`, nil)
	charactersOf := map[string][]string{}
	links, colours := 0, 0
	for _, f := range jsonAt(films, "data.films").([]any) {
		id := jsonAt(f, "id").(string)
		var edges, list []string
		for _, e := range jsonAt(f, "characterConnection.edges").([]any) {
			edges = append(edges, jsonAt(e, "node.id").(string))
		}
		for _, c := range jsonAt(f, "characterConnection.characters").([]any) {
			list = append(list, jsonAt(c, "id").(string))
		}
		if !slices.Equal(edges, list) || fmt.Sprint(jsonAt(f, "characterConnection.totalCount")) != fmt.Sprint(len(edges)) {
			t.Errorf("%s: edges %v, characters %v, totalCount %v", id, edges, list, jsonAt(f, "characterConnection.totalCount"))
		}
		charactersOf[id] = edges
		links += len(edges)
	}
	filmsOf := map[string][]string{}
	for _, p := range jsonAt(people, "data.people").([]any) {
		id := jsonAt(p, "id").(string)
		for _, e := range jsonAt(p, "filmConnection.edges").([]any) {
			filmsOf[id] = append(filmsOf[id], jsonAt(e, "node.id").(string))
		}
		for _, c := range jsonAt(p, "favouriteColours").([]any) {
			if cid, _ := jsonAt(c, "id").(string); len(cid) < 7 || cid[:7] != "colour-" {
				t.Errorf("%s: a favourite colour %v", id, c)
			}
			colours++
		}
	}
	if links == 0 || colours == 0 {
		t.Fatalf("no links: %d characters, %d colours", links, colours)
	}
	back := 0
	for film, chars := range charactersOf {
		for _, p := range chars {
			if !slices.Contains(filmsOf[p], film) {
				t.Errorf("%s lists %s, whose films are %v", film, p, filmsOf[p])
			}
		}
	}
	for _, fs := range filmsOf {
		back += len(fs)
	}
	if back != links {
		t.Errorf("%d film→person links, %d person→film links", links, back)
	}

	// Paging: first 1 of a film with at least two characters.
	for film, chars := range charactersOf {
		if len(chars) < 2 {
			continue
		}
		out := h.do(`{ films { id characterConnection(first: 1) { totalCount pageInfo { hasNextPage } edges { node { id } } characters { id } } } }`, nil)
		for _, f := range jsonAt(out, "data.films").([]any) {
			if jsonAt(f, "id") != film {
				continue
			}
			got := fmt.Sprint(jsonAt(f, "characterConnection.totalCount"), jsonAt(f, "characterConnection.pageInfo.hasNextPage"), len(jsonAt(f, "characterConnection.edges").([]any)), len(jsonAt(f, "characterConnection.characters").([]any)))
			if want := fmt.Sprint(len(chars), true, 1, 1); got != want {
				t.Errorf("%s first 1: %s, want %s", film, got, want)
			}
		}
		// A deleted character leaves the film's list.
		h.do(`mutation($p: ID!) { deletePerson(id: $p) { id } }`, map[string]any{"p": chars[0]})
		out = h.do(`{ films { id characterConnection { totalCount edges { node { id } } } } }`, nil)
		for _, f := range jsonAt(out, "data.films").([]any) {
			if jsonAt(f, "id") == film && fmt.Sprint(jsonAt(f, "characterConnection.totalCount")) != fmt.Sprint(len(chars)-1) {
				t.Errorf("after deleting %s, %s lists %v", chars[0], film, jsonAt(f, "characterConnection"))
			}
		}
		break
	}
}
