package graphql

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/internal/testdata"
	"github.com/mockgql/mockgql/model"
)

// conventionHarness serves the schema testdata/conventions/name (written
// in the style of a real API's) with rows rows a table (0: the default).
func conventionHarness(t testing.TB, name string, rows map[string]int, maps ...model.ContractMapping) *rtHarness {
	t.Helper()
	p := contractProject(t, filepath.Join(testdata.Dir(t, "conventions"), name))
	for typ, n := range rows {
		p.Contract.Tables = append(p.Contract.Tables, model.ContractTable{Type: typ, Rows: n})
	}
	p.Contract.Mappings = maps
	return &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
}

// must runs q and fails on any error of the answer.
func (h *rtHarness) must(q string) map[string]any {
	h.tb.Helper()
	out := h.do(q, nil)
	if out["errors"] != nil {
		h.tb.Fatalf("%s: %v", q, out["errors"])
	}
	return out
}

// TestContractNounFirstWrites: noun-first mutations (customerCreate,
// customerUpdate(input: {id}), customerDelete(input: {id}),
// orderUpdateStatus, cartLinesAdd, productCreate/Update/Delete) write,
// and the rows they write are read back through lookups and lists.
func TestContractNounFirstWrites(t *testing.T) {
	t.Run("shop", func(t *testing.T) {
		h := conventionHarness(t, "shop.graphql", nil)
		id := fmt.Sprint(jsonAt(h.must(`mutation { customerCreate(input: {email: "zed@example.com", firstName: "Zed"}) { customer { id } } }`), "data.customerCreate.customer.id"))
		if got := fmt.Sprint(jsonAt(h.must(`{ customer(id: "`+id+`") { email firstName } }`), "data.customer")); got != "map[email:zed@example.com firstName:Zed]" {
			t.Errorf("the created customer reads back as %s", got)
		}
		h.must(`mutation { customerUpdate(input: {id: "` + id + `", lastName: "Quinn"}) { customer { id } } }`)
		if got := fmt.Sprint(jsonAt(h.must(`{ customer(id: "`+id+`") { firstName lastName } }`), "data.customer")); got != "map[firstName:Zed lastName:Quinn]" {
			t.Errorf("the updated customer reads back as %s", got)
		}
		h.must(`mutation { orderUpdateStatus(id: "order-2", input: {status: CANCELLED}) { order { id } } }`)
		if got := fmt.Sprint(jsonAt(h.must(`{ order(id: "order-2") { status } }`), "data.order.status")); got != "CANCELLED" {
			t.Errorf("order-2's status reads back as %s", got)
		}
		h.must(`mutation { cartLinesAdd(cartId: "cart-3", lines: [{merchandiseId: "variant-9", quantity: 4}]) { cart { id } } }`)
		if got := fmt.Sprint(jsonAt(h.must(`{ cart(id: "cart-3") { lines { merchandiseId quantity } } }`), "data.cart.lines")); !strings.Contains(got, "map[merchandiseId:variant-9 quantity:4]") {
			t.Errorf("cart-3's lines are %s, without the line added", got)
		}
		h.must(`mutation { customerDelete(input: {id: "` + id + `"}) { deletedCustomerId } }`)
		if got := jsonAt(h.must(`{ customer(id: "`+id+`") { id } }`), "data.customer"); got != nil {
			t.Errorf("the deleted customer reads back as %v", got)
		}
		if body := string(h.raw(`{ customers(first: 100) { edges { node { id } } } }`, nil)); strings.Contains(body, id) {
			t.Errorf("the customers still list the deleted %s", id)
		}
	})
	t.Run("catalog", func(t *testing.T) {
		h := conventionHarness(t, "catalog.graphql", nil)
		id := fmt.Sprint(jsonAt(h.must(`mutation { productCreate(input: {name: "Brass lamp", slug: "brass-lamp"}) { product { id } } }`), "data.productCreate.product.id"))
		h.must(`mutation { productUpdate(id: "` + id + `", input: {description: "Warm light"}) { product { id } } }`)
		if got := fmt.Sprint(jsonAt(h.must(`{ product(id: "`+id+`") { name slug description } }`), "data.product")); got != "map[description:Warm light name:Brass lamp slug:brass-lamp]" {
			t.Errorf("the product reads back as %s", got)
		}
		rid := fmt.Sprint(jsonAt(h.must(`mutation { submitReview(input: {productId: "`+id+`", rating: 4, body: "Good"}) { review { id } } }`), "data.submitReview.review.id"))
		if got := fmt.Sprint(jsonAt(h.must(`{ product(id: "`+id+`") { reviews { id rating } } }`), "data.product.reviews")); got != "[map[id:"+rid+" rating:4]]" {
			t.Errorf("the product's reviews are %s, want the one submitted", got)
		}
		h.must(`mutation { productDelete(id: "` + id + `") { product { id } } }`)
		if got := jsonAt(h.must(`{ product(id: "`+id+`") { id } }`), "data.product"); got != nil {
			t.Errorf("the deleted product reads back as %v", got)
		}
	})
}

// TestContractUserErrors: a payload's list of user errors is empty when
// the mutation succeeds, and holds the refusal — NOT_FOUND's message and
// the path of the argument — when a key names no row, with no error
// beside the data and nothing changed.
func TestContractUserErrors(t *testing.T) {
	cases := []struct {
		file, ok, refused, list, want string
	}{
		{"shop.graphql",
			`mutation { customerUpdate(input: {id: "customer-1", firstName: "Ada"}) { customer { id } userErrors { field message } } }`,
			`mutation { customerDelete(input: {id: "customer-999"}) { deletedCustomerId userErrors { field message } } }`,
			"data.customerDelete.userErrors", `[map[field:[input id] message:customerDelete: no Customer has the id "customer-999"]]`},
		{"catalog.graphql",
			`mutation { productCreate(input: {name: "Lamp"}) { product { id } errors { field message code } } }`,
			`mutation { productUpdate(id: "product-999", input: {name: "x"}) { product { id } errors { field message code } } }`,
			"data.productUpdate.errors", `[map[code:NOT_FOUND field:id message:productUpdate: no Product has the id "product-999"]]`},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			h := conventionHarness(t, c.file, nil)
			out := h.must(c.ok)
			for _, x := range out["data"].(map[string]any) {
				for k, v := range x.(map[string]any) {
					if strings.HasSuffix(strings.ToLower(k), "errors") && fmt.Sprint(v) != "[]" {
						t.Errorf("%s: %s = %v on success, want []", c.ok, k, v)
					}
				}
			}
			before := string(h.raw(`{ __typename }`, nil))
			out = h.must(c.refused)
			if got := fmt.Sprint(jsonAt(out, c.list)); got != c.want {
				t.Errorf("%s: %s = %s, want %s", c.refused, c.list, got, c.want)
			}
			if after := string(h.raw(`{ __typename }`, nil)); after != before {
				t.Errorf("the refusal changed the answer")
			}
		})
	}
}

// TestContractPageInfo: a page wrapper's info (Rick and Morty's count,
// pages, next, prev) is computed from the rows and the page asked, on
// every page, and the pages together list every row once.
func TestContractPageInfo(t *testing.T) {
	h := conventionHarness(t, "characters.graphql", map[string]int{"Character": 45})
	seen := map[string]bool{}
	for page := 1; page <= 3; page++ {
		out := h.must(fmt.Sprintf(`{ characters(page: %d) { info { count pages next prev } results { id } } }`, page))
		next, prev := any(float64(page+1)), any(float64(page-1))
		if page == 3 {
			next = nil
		}
		if page == 1 {
			prev = nil
		}
		want := fmt.Sprint(map[string]any{"count": float64(45), "pages": float64(3), "next": next, "prev": prev})
		if got := fmt.Sprint(jsonAt(out, "data.characters.info")); got != want {
			t.Errorf("page %d: info %s, want %s", page, got, want)
		}
		for _, r := range jsonAt(out, "data.characters.results").([]any) {
			id := fmt.Sprint(jsonAt(r, "id"))
			if seen[id] {
				t.Errorf("page %d lists %s again", page, id)
			}
			seen[id] = true
		}
	}
	if len(seen) != 45 {
		t.Errorf("the pages list %d characters, want 45", len(seen))
	}
}

// TestContractCartParts: Shopify's cart mutations, named after the cart
// and given its key (cartNoteUpdate(cartId:, note:), cartLinesAdd,
// cartDiscountCodesUpdate), answer the cart the key names with empty
// userErrors and warnings, a note is written, and an unknown cartId is
// the payload's refusal; a generated payload's lists are empty too.
func TestContractCartParts(t *testing.T) {
	h := conventionHarness(t, "cart.graphql", nil)
	id := fmt.Sprint(jsonAt(h.must(`mutation { cartCreate(input: {note: "first"}) { cart { id } userErrors { message } warnings { code } } }`), "data.cartCreate.cart.id"))
	for _, q := range []string{
		`mutation { cartNoteUpdate(cartId: "` + id + `", note: "leave at the door") { cart { id note } userErrors { message } warnings { code } } }`,
		`mutation { cartLinesAdd(cartId: "` + id + `", lines: [{merchandiseId: "v1", quantity: 2}]) { cart { id } userErrors { message } warnings { code } } }`,
		`mutation { cartDiscountCodesUpdate(cartId: "` + id + `", discountCodes: ["SPRING"]) { cart { id } userErrors { message } warnings { code } } }`,
	} {
		out := h.must(q)
		for _, p := range out["data"].(map[string]any) {
			if got := fmt.Sprint(p); !strings.Contains(got, "id:"+id) || !strings.Contains(got, "userErrors:[]") || !strings.Contains(got, "warnings:[]") {
				t.Errorf("%s answered %s; want cart %s, no userErrors, no warnings", q, got, id)
			}
		}
	}
	if got := jsonAt(h.must(`{ cart(id: "`+id+`") { note } }`), "data.cart.note"); got != "leave at the door" {
		t.Errorf("the cart's note reads back as %v", got)
	}
	out := h.must(`mutation { cartNoteUpdate(cartId: "no-such-cart", note: "x") { cart { id } userErrors { message code } } }`)
	if got := fmt.Sprint(jsonAt(out, "data.cartNoteUpdate")); !strings.Contains(got, "cart:<nil>") || !strings.Contains(got, "no-such-cart") {
		t.Errorf("an unknown cart: %s; want no cart and a userError naming it", got)
	}
	// The lines: added with their values, read back through the cart,
	// changed and removed by their ids; an id not of this cart is refused
	// with a userError naming it, and changes nothing.
	lines := func(q string, path string) string {
		var out []string
		for _, l := range jsonAt(h.must(q), path).([]any) {
			out = append(out, fmt.Sprintf("%v×%v", jsonAt(l, "id"), jsonAt(l, "quantity")))
		}
		return strings.Join(out, " ")
	}
	if got, want := lines(`{ cart(id: "`+id+`") { lines { id quantity } } }`, "data.cart.lines"), id+"/lines/1×2"; got != want {
		t.Errorf("a new cart's lines: %q; want only the one cartLinesAdd added above, %q", got, want)
	}
	add := `mutation { cartLinesAdd(cartId: "` + id + `", lines: [{merchandiseId: "v2", quantity: 3}, {merchandiseId: "v3", quantity: 1}]) { cart { lines { id quantity } } userErrors { message } } }`
	if got, want := lines(add, "data.cartLinesAdd.cart.lines"), id+"/lines/2×3 "+id+"/lines/3×1"; !strings.HasSuffix(got, want) {
		t.Errorf("cartLinesAdd answered the lines %q; want them to end with %q", got, want)
	}
	update := `mutation { cartLinesUpdate(cartId: "` + id + `", lines: [{id: "` + id + `/lines/2", quantity: 5}]) { cart { lines { id quantity } } userErrors { message } } }`
	if got := lines(update, "data.cartLinesUpdate.cart.lines"); !strings.Contains(got, id+"/lines/2×5") {
		t.Errorf("cartLinesUpdate answered the lines %q; want line 2 with quantity 5", got)
	}
	remove := `mutation { cartLinesRemove(cartId: "` + id + `", lineIds: ["` + id + `/lines/3"]) { cart { lines { id quantity } } userErrors { message } } }`
	if got := lines(remove, "data.cartLinesRemove.cart.lines"); strings.Contains(got, "/lines/3") || !strings.Contains(got, "/lines/2×5") {
		t.Errorf("cartLinesRemove answered the lines %q; want line 3 gone, line 2 kept", got)
	}
	before := lines(`{ cart(id: "`+id+`") { lines { id quantity } } }`, "data.cart.lines")
	out = h.must(`mutation { cartLinesRemove(cartId: "` + id + `", lineIds: ["` + id + `/lines/2", "cart-1/lines/1"]) { cart { id } userErrors { message field code } } }`)
	if got := fmt.Sprint(jsonAt(out, "data.cartLinesRemove.userErrors")); !strings.Contains(got, "code:NOT_FOUND") || !strings.Contains(got, "field:[lineIds 1]") {
		t.Errorf("removing another cart's line: userErrors %s; want NOT_FOUND at lineIds 1", got)
	}
	if after := lines(`{ cart(id: "`+id+`") { lines { id quantity } } }`, "data.cart.lines"); after != before {
		t.Errorf("a refused cartLinesRemove changed the lines: %q, then %q", before, after)
	}
}

// TestContractSearch: a text search argument (Saleor's search and
// filter: {search}, Shopify's query) finds a row a mutation created, by
// any part of its text ignoring case, and only the rows that hold it.
func TestContractSearch(t *testing.T) {
	h := conventionHarness(t, "catalog.graphql", nil)
	id := fmt.Sprint(jsonAt(h.must(`mutation { productCreate(input: {name: "Zyxxy brass lamp"}) { product { id } } }`), "data.productCreate.product.id"))
	for _, q := range []string{
		`{ products(first: 100, search: "ZYXXY") { totalCount edges { node { id } } } }`,
		`{ products(first: 100, filter: {search: "xxy BRASS"}) { totalCount edges { node { id } } } }`,
	} {
		out := h.must(q)
		if got := fmt.Sprint(jsonAt(out, "data.products.totalCount"), jsonAt(out, "data.products.edges")); got != "1 [map[node:map[id:"+id+"]]]" {
			t.Errorf("%s: %s, want the created product alone", q, got)
		}
	}
	s := conventionHarness(t, "shop.graphql", nil)
	cid := fmt.Sprint(jsonAt(s.must(`mutation { customerCreate(input: {firstName: "Qwyzzle", email: "q@example.com"}) { customer { id } } }`), "data.customerCreate.customer.id"))
	if got := fmt.Sprint(jsonAt(s.must(`{ customers(first: 100, query: "qwyz") { edges { node { id } } } }`), "data.customers.edges")); got != "[map[node:map[id:"+cid+"]]]" {
		t.Errorf("customers(query:) = %s, want the created customer", got)
	}
}

// TestContractDomainVerbs: saveAlbums, removeSavedAlbums, followUser and
// addStar set the flag their verb names on the rows their input names,
// and echo clientMutationId.
func TestContractDomainVerbs(t *testing.T) {
	h := conventionHarness(t, "music.graphql", nil)
	h.must(`mutation { saveAlbums(input: {ids: ["album-1", "album-2"]}) { savedAlbums { id } } }`)
	h.must(`mutation { removeSavedAlbums(input: {ids: ["album-2"]}) { removedAlbums { id } } }`)
	if got := fmt.Sprint(jsonAt(h.must(`{ a: album(id: "album-1") { saved } b: album(id: "album-2") { saved } }`), "data")); got != "map[a:map[saved:true] b:map[saved:false]]" {
		t.Errorf("saved flags: %s", got)
	}
	for _, c := range []struct{ q, path, want string }{
		{`mutation { followUser(input: {userId: "user-3", clientMutationId: "f1"}) { user { id } clientMutationId } }`, "data.followUser.clientMutationId", "f1"},
		{`mutation { addStar(input: {starrableId: "album-4", clientMutationId: "s1"}) { starrable { id } clientMutationId } }`, "data.addStar.clientMutationId", "s1"},
		{`mutation { removeStar(input: {starrableId: "album-5"}) { starrable { id } } }`, "data.removeStar.starrable.id", "album-5"},
		{`{ users { id followed } }`, "data.users", "map[followed:true id:user-3]"},
		{`{ album(id: "album-4") { starred } }`, "data.album.starred", "true"},
		{`{ album(id: "album-5") { starred } }`, "data.album.starred", "false"},
	} {
		if got := fmt.Sprint(jsonAt(h.must(c.q), c.path)); !strings.Contains(got, c.want) {
			t.Errorf("%s: %s is %s, want %s", c.q, c.path, got, c.want)
		}
	}
}

// TestContractLinkMutations: addTrackToPlaylist and
// removeItemFromPlaylist(input: {playlistId, trackId}) move the track
// into the playlist and out of it, answer the playlist, and delete
// neither.
func TestContractLinkMutations(t *testing.T) {
	h := conventionHarness(t, "music.graphql", nil)
	tracks := func() string {
		return fmt.Sprint(jsonAt(h.must(`{ playlist(id: "playlist-2") { tracks { id } } }`), "data.playlist.tracks"))
	}
	out := h.must(`mutation { addTrackToPlaylist(input: {playlistId: "playlist-2", trackId: "track-7"}) { playlist { id } } }`)
	if got := fmt.Sprint(jsonAt(out, "data.addTrackToPlaylist.playlist.id")); got != "playlist-2" {
		t.Errorf("addTrackToPlaylist answers playlist %s", got)
	}
	if got := tracks(); !strings.Contains(got, "map[id:track-7]") {
		t.Fatalf("playlist-2's tracks after adding track-7: %s", got)
	}
	out = h.must(`mutation { removeItemFromPlaylist(input: {playlistId: "playlist-2", trackId: "track-7"}) { playlist { id } } }`)
	if got := fmt.Sprint(jsonAt(out, "data.removeItemFromPlaylist.playlist.id")); got != "playlist-2" {
		t.Errorf("removeItemFromPlaylist answers playlist %s", got)
	}
	if got := tracks(); strings.Contains(got, "map[id:track-7]") {
		t.Errorf("playlist-2's tracks after removing track-7: %s", got)
	}
	if got := fmt.Sprint(jsonAt(h.must(`{ playlist(id: "playlist-2") { id } }`), "data.playlist.id")); got != "playlist-2" {
		t.Errorf("the playlist is gone: %s", got)
	}
}

// TestContractMapInputField: setContractMapping gives a field inside an
// input object its role — a mutation the import left generated,
// mapped to delete with input.customerRef as the key, deletes the row it
// names; mapped to create, it writes its input.
func TestContractMapInputField(t *testing.T) {
	h := conventionHarness(t, "shop.graphql", nil, model.ContractMapping{
		Field: "Mutation.customerArchive", Shape: "delete", Entity: "Customer",
		Args: []model.ContractArg{{Name: "input.customerRef", Role: "key"}}})
	h.must(`mutation { customerArchive(input: {customerRef: "customer-4"}) { deletedCustomerId userErrors { message } } }`)
	if got := jsonAt(h.must(`{ customer(id: "customer-4") { id } }`), "data.customer"); got != nil {
		t.Errorf("customer-4 was not deleted: %v", got)
	}
}

// FuzzContractConventionInputs sends arbitrary JSON as the input objects
// of noun-first, flag and input-keyed mutations: every answer is data or
// a client error, never INTERNAL (a panic the executor caught).
func FuzzContractConventionInputs(f *testing.F) {
	for _, seed := range []string{
		`{"id": "customer-1", "email": "a@b.c"}`, `{"id": null}`, `{"id": ["x"]}`, `{"ids": [1, "album-2", null, {}]}`,
		`{"customerRef": {"id": 1}}`, `{"starrableId": 3, "clientMutationId": {"a": 1}}`, `[]`, `"x"`, `{}`,
	} {
		f.Add(seed)
	}
	shop := conventionHarness(f, "shop.graphql", nil, model.ContractMapping{Field: "Mutation.customerArchive", Shape: "delete", Entity: "Customer",
		Args: []model.ContractArg{{Name: "input.customerRef", Role: "key"}}})
	music := conventionHarness(f, "music.graphql", nil)
	queries := []struct {
		h *rtHarness
		q string
	}{
		{shop, `mutation($v: CustomerInput!) { customerUpdate(input: $v) { customer { id } userErrors { field message } } }`},
		{shop, `mutation($v: CustomerDeleteInput!) { customerDelete(input: $v) { deletedCustomerId userErrors { field message } } }`},
		{shop, `mutation($v: CustomerArchiveInput!) { customerArchive(input: $v) { deletedCustomerId userErrors { field message } } }`},
		{shop, `mutation($v: [CartLineInput!]!) { cartLinesAdd(cartId: "cart-1", lines: $v) { cart { id } userErrors { message } } }`},
		{music, `mutation($v: SaveAlbumsInput!) { saveAlbums(input: $v) { savedAlbums { id saved } } }`},
		{music, `mutation($v: AddStarInput!) { addStar(input: $v) { starrable { id } clientMutationId } }`},
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var v any
		if json.Unmarshal([]byte(raw), &v) != nil {
			return
		}
		for _, c := range queries {
			h := &rtHarness{tb: t, rt: c.h.rt, pool: c.h.pool, ov: engine.NewOverlay()}
			if body := string(h.raw(c.q, map[string]any{"v": v})); strings.Contains(body, `"INTERNAL"`) {
				t.Fatalf("%s with %s: %s", c.q, raw, body)
			}
		}
	})
}

// TestContractLookupByNaturalKey: GitHub's repository(owner: "login",
// name: "repo") finds the repository by its owner's login (an interface,
// whose generated link the owner field picks) or id, and nothing for an
// unknown owner; a plural list argument (states: [OPEN]) filters by its
// singular field, on a root list and on a relation.
func TestContractLookupByNaturalKey(t *testing.T) {
	h := conventionHarness(t, "repos.graphql", nil)
	repos := jsonAt(h.must(`{ repositories(first: 8) { id name owner { id login } } }`), "data.repositories").([]any)
	if len(repos) < 3 {
		t.Fatalf("%d repositories", len(repos))
	}
	for _, r := range repos {
		id, name := jsonAt(r, "id"), jsonAt(r, "name").(string)
		for _, owner := range []any{jsonAt(r, "owner.login"), jsonAt(r, "owner.id")} {
			q := fmt.Sprintf(`{ repository(owner: %q, name: %q) { id owner { login } } }`, owner, name)
			if got := jsonAt(h.must(q), "data.repository.id"); got != id {
				t.Errorf("%s answered repository %v; want %v", q, got, id)
			}
		}
		if strings.Contains(name, " ") {
			t.Errorf("repository name %q is not a slug", name)
		}
	}
	q := fmt.Sprintf(`{ repository(owner: "no-such-owner", name: %q) { id } }`, jsonAt(repos[0], "name"))
	if got := jsonAt(h.must(q), "data.repository"); got != nil {
		t.Errorf("%s answered %v; want null", q, got)
	}
	for _, state := range []string{"OPEN", "CLOSED"} {
		issues := jsonAt(h.must(`{ issues(states: [`+state+`], first: 50) { state } }`), "data.issues").([]any)
		if len(issues) == 0 {
			t.Errorf("no %s issues", state)
		}
		for _, is := range issues {
			if jsonAt(is, "state") != state {
				t.Errorf("issues(states: [%s]) answered a %v issue", state, jsonAt(is, "state"))
			}
		}
		for _, r := range jsonAt(h.must(`{ repositories(first: 20) { issues(states: [`+state+`]) { state } } }`), "data.repositories").([]any) {
			for _, is := range jsonAt(r, "issues").([]any) {
				if jsonAt(is, "state") != state {
					t.Errorf("Repository.issues(states: [%s]) answered a %v issue", state, jsonAt(is, "state"))
				}
			}
		}
	}
}

// TestContractShopifyCartLines: on Shopify's Storefront API, whose
// Cart.lines is a connection of an interface (BaseCartLine) with no field
// back to the cart, cartLinesAdd adds lines holding the merchandise the
// input names, cartLinesUpdate and cartLinesRemove change and remove
// them, and the cart's totalQuantity is their sum.
func TestContractShopifyCartLines(t *testing.T) {
	raw, err := os.ReadFile("../contract/testdata/shopify-storefront.introspection.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	p := &model.Project{ID: "pcart1", Slug: "cart", Name: "cart", Kind: model.KindAccount}
	if _, err := contract.Apply(p, doc, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	var variants []string
	for _, p := range jsonAt(h.must(`{ products(first: 20) { nodes { variants(first: 1) { nodes { id } } } } }`), "data.products.nodes").([]any) {
		for _, v := range jsonAt(p, "variants.nodes").([]any) {
			variants = append(variants, fmt.Sprint(jsonAt(v, "id")))
		}
	}
	if len(variants) < 2 {
		t.Fatalf("%d variants in 20 products", len(variants))
	}
	id := fmt.Sprint(jsonAt(h.must(`mutation { cartCreate(input: {}) { cart { id } } }`), "data.cartCreate.cart.id"))
	const sel = `cart { totalQuantity lines(first: 10) { nodes { id quantity merchandise { ... on ProductVariant { id } } } } } userErrors { message }`
	state := func(out map[string]any, root string) string {
		var lines []string
		for _, l := range jsonAt(out, "data."+root+".cart.lines.nodes").([]any) {
			lines = append(lines, fmt.Sprintf("%v:%v×%v", jsonAt(l, "id"), jsonAt(l, "merchandise.id"), jsonAt(l, "quantity")))
		}
		return fmt.Sprintf("%v %s", jsonAt(out, "data."+root+".cart.totalQuantity"), strings.Join(lines, " "))
	}
	add := fmt.Sprintf(`mutation { cartLinesAdd(cartId: %q, lines: [{merchandiseId: %q, quantity: 2}, {merchandiseId: %q, quantity: 1}]) { %s } }`, id, variants[0], variants[1], sel)
	if got, want := state(h.must(add), "cartLinesAdd"), fmt.Sprintf("3 %s/lines/1:%s×2 %s/lines/2:%s×1", id, variants[0], id, variants[1]); got != want {
		t.Errorf("cartLinesAdd: %s; want %s", got, want)
	}
	update := fmt.Sprintf(`mutation { cartLinesUpdate(cartId: %q, lines: [{id: "%s/lines/2", quantity: 4}]) { %s } }`, id, id, sel)
	if got, want := state(h.must(update), "cartLinesUpdate"), fmt.Sprintf("6 %s/lines/1:%s×2 %s/lines/2:%s×4", id, variants[0], id, variants[1]); got != want {
		t.Errorf("cartLinesUpdate: %s; want %s", got, want)
	}
	remove := fmt.Sprintf(`mutation { cartLinesRemove(cartId: %q, lineIds: ["%s/lines/1"]) { %s } }`, id, id, sel)
	if got, want := state(h.must(remove), "cartLinesRemove"), fmt.Sprintf("4 %s/lines/2:%s×4", id, variants[1]); got != want {
		t.Errorf("cartLinesRemove: %s; want %s", got, want)
	}
	out := h.must(fmt.Sprintf(`{ cart(id: %q) { totalQuantity lines(first: 10) { nodes { id quantity merchandise { ... on ProductVariant { id } } } } } }`, id))
	if got := fmt.Sprint(jsonAt(out, "data.cart.totalQuantity")); got != "4" {
		t.Errorf("the cart reads back with totalQuantity %s; want 4", got)
	}
}
