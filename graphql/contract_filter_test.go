package graphql

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// filterBook is one row of filters.graphql's Book as the tests read it.
type filterBook struct {
	id, title, genre string
	price            float64
}

// filterHarness serves filters.graphql with 200 books.
func filterHarness(t *testing.T) (*rtHarness, []filterBook) {
	t.Helper()
	p := contractProject(t, "testdata/contract/filters.graphql")
	p.Contract.Tables = []model.ContractTable{{Type: "Book", Rows: 200}}
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	var all []filterBook
	for _, x := range jsonAt(h.do(`{ books(limit: 1000) { id title price genre } }`, nil), "data.books").([]any) {
		m := x.(map[string]any)
		all = append(all, filterBook{id: m["id"].(string), title: m["title"].(string), genre: m["genre"].(string), price: m["price"].(float64)})
	}
	if len(all) != 200 {
		t.Fatalf("%d books, want 200", len(all))
	}
	return h, all
}

// listIDs runs a query for field and returns the ids it lists.
func listIDs(t *testing.T, h *rtHarness, field, query string) []string {
	t.Helper()
	out := h.do(query, nil)
	list, ok := jsonAt(out, "data."+field).([]any)
	if !ok {
		t.Fatalf("%s: %v", query, out)
	}
	var ids []string
	for _, x := range list {
		ids = append(ids, x.(map[string]any)["id"].(string))
	}
	return ids
}

// TestContractFilterDialects: equality and range arguments, Hasura,
// Prisma and plain filter inputs select the same rows as the condition
// evaluated on every row, in storage order or the order asked.
func TestContractFilterDialects(t *testing.T) {
	h, all := filterHarness(t)
	contains := func(s, sub string) bool { return strings.Contains(strings.ToLower(s), sub) }
	cases := []struct {
		name    string
		want    func(b filterBook) bool
		queries map[string]string // field → query
	}{
		{"genre and price range", func(b filterBook) bool { return b.genre == "FICTION" && b.price >= 100 && b.price <= 600 }, map[string]string{
			"books":       `{ books(genre: FICTION, minPrice: 100, maxPrice: 600, limit: 1000) { id } }`,
			"hasuraBooks": `{ hasuraBooks(where: {genre: {_eq: FICTION}, price: {_gte: 100, _lte: 600}}) { id } }`,
			"prismaBooks": `{ prismaBooks(where: {genre: {equals: FICTION}, price: {gte: 100, lte: 600}}) { id } }`,
			"plainBooks":  `{ plainBooks(filter: {genre: FICTION, minPrice: 100, maxPrice: 600}) { id } }`,
		}},
		{"or and not", func(b filterBook) bool { return (b.genre == "SCIENCE" || b.price < 50) && b.genre != "HISTORY" }, map[string]string{
			"hasuraBooks": `{ hasuraBooks(where: {_or: [{genre: {_eq: SCIENCE}}, {price: {_lt: 50}}], _not: {genre: {_eq: HISTORY}}}) { id } }`,
			"prismaBooks": `{ prismaBooks(where: {OR: [{genre: {equals: SCIENCE}}, {price: {lt: 50}}], NOT: [{genre: {equals: HISTORY}}]}) { id } }`,
		}},
		{"in and not in", func(b filterBook) bool { return b.genre != "SCIENCE" && b.price > 900 }, map[string]string{
			"hasuraBooks": `{ hasuraBooks(where: {genre: {_nin: [SCIENCE]}, price: {_gt: 900}}) { id } }`,
			"prismaBooks": `{ prismaBooks(where: {genre: {in: [FICTION, HISTORY]}, price: {gt: 900}}) { id } }`,
		}},
		{"contains", func(b filterBook) bool { return contains(b.title, "qui") }, map[string]string{
			"hasuraBooks": `{ hasuraBooks(where: {title: {_ilike: "%qui%"}}) { id } }`,
			"prismaBooks": `{ prismaBooks(where: {title: {contains: "qui", mode: insensitive}}) { id } }`,
			"searchBooks": `{ searchBooks(search: "QUI") { id } }`,
		}},
		{"starts and ends with", func(b filterBook) bool {
			return strings.HasPrefix(strings.ToLower(b.title), "s") && strings.HasSuffix(b.title, "s")
		}, map[string]string{
			"hasuraBooks": `{ hasuraBooks(where: {_and: [{title: {_ilike: "s%"}}, {title: {_like: "%s"}}]}) { id } }`,
			"prismaBooks": `{ prismaBooks(where: {AND: [{title: {startsWith: "s"}}, {title: {endsWith: "S"}}]}) { id } }`,
		}},
	}
	for _, c := range cases {
		var want []string
		for _, b := range all {
			if c.want(b) {
				want = append(want, b.id)
			}
		}
		if len(want) == 0 {
			t.Fatalf("%s: no book matches; the case tests nothing", c.name)
		}
		for field, q := range c.queries {
			t.Run(c.name+"/"+field, func(t *testing.T) {
				if got := listIDs(t, h, field, q); !slices.Equal(got, want) {
					t.Errorf("%s\n got %v\nwant %v", q, got, want)
				}
			})
		}
	}
}

// TestContractSortAndPaging: sort enums, Hasura order_by and Prisma
// orderBy give the order of the values; offset, page and Relay windows cut
// it where they say.
func TestContractSortAndPaging(t *testing.T) {
	h, all := filterHarness(t)
	byPrice := slices.Clone(all)
	sort.SliceStable(byPrice, func(i, j int) bool { return byPrice[i].price > byPrice[j].price })
	var want []string
	for _, b := range byPrice[10:15] {
		want = append(want, b.id)
	}
	for field, q := range map[string]string{
		"books":       `{ books(sort: PRICE_DESC, offset: 10, limit: 5) { id } }`,
		"hasuraBooks": `{ hasuraBooks(order_by: [{price: desc}], offset: 10, limit: 5) { id } }`,
		"prismaBooks": `{ prismaBooks(orderBy: [{price: desc}], skip: 10, take: 5) { id } }`,
	} {
		if got := listIDs(t, h, field, q); !slices.Equal(got, want) {
			t.Errorf("%s\n got %v\nwant %v", q, got, want)
		}
	}
	page := h.do(`{ bookPage(page: 3, perPage: 7) { items { id } total page perPage totalPages } }`, nil)
	if got := fmt.Sprint(jsonAt(page, "data.bookPage.total"), jsonAt(page, "data.bookPage.page"), jsonAt(page, "data.bookPage.totalPages"),
		itemIDs(page, "data.bookPage.items")); got != fmt.Sprint(200, 3, 29, idList(all[14:21])) {
		t.Errorf("bookPage = %s", got)
	}
	first := h.do(`{ bookConnection(first: 3) { totalCount pageInfo { endCursor hasNextPage } } }`, nil)
	after := jsonAt(first, "data.bookConnection.pageInfo.endCursor").(string)
	next := h.do(`query($a: String) { bookConnection(first: 2, after: $a) { edges { node { id } } pageInfo { hasPreviousPage } } }`, map[string]any{"a": after})
	if got := fmt.Sprint(jsonAt(next, "data.bookConnection.edges.0.node.id"), jsonAt(next, "data.bookConnection.edges.1.node.id"),
		jsonAt(next, "data.bookConnection.pageInfo.hasPreviousPage")); got != fmt.Sprint(all[3].id, all[4].id, true) {
		t.Errorf("the page after %s = %s", after, got)
	}
}

func idList(books []filterBook) string {
	var ids []string
	for _, b := range books {
		ids = append(ids, b.id)
	}
	return strings.Join(ids, ",")
}

// TestContractRelationArguments: a relation field's where, orderBy, skip
// and take apply to the related rows (Prisma's User.posts).
func TestContractRelationArguments(t *testing.T) {
	p := contractProject(t, "../contract/testdata/prisma.graphql")
	p.Contract.Tables = []model.ContractTable{{Type: "Post", Rows: 200}}
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	type post struct {
		id    float64
		title string
		views float64
	}
	var authorID any
	var posts []post
	for _, u := range jsonAt(h.do(`{ users(take: 100) { id posts { id title viewCount } } }`, nil), "data.users").([]any) {
		list := jsonAt(u, "posts").([]any)
		if len(list) < 3 {
			continue
		}
		authorID = jsonAt(u, "id")
		for _, x := range list {
			posts = append(posts, post{jsonAt(x, "id").(float64), jsonAt(x, "title").(string), jsonAt(x, "viewCount").(float64)})
		}
		break
	}
	if authorID == nil {
		t.Fatal("no user has three posts; the test checks nothing")
	}
	sort.SliceStable(posts, func(i, j int) bool { return posts[i].views > posts[j].views })
	want := fmt.Sprint(posts[1].id, ",", posts[2].id)
	q := fmt.Sprintf(`{ user(where: {id: %v}) { posts(orderBy: [{viewCount: desc}], skip: 1, take: 2) { id } } }`, authorID)
	if got := itemIDs(h.do(q, nil), "data.user.posts"); got != want {
		t.Errorf("%s = %s, want %s", q, got, want)
	}
	q = fmt.Sprintf(`{ user(where: {id: %v}) { posts(where: {viewCount: {gte: %v}}) { id } } }`, authorID, posts[1].views)
	if got := itemIDs(h.do(q, nil), "data.user.posts"); strings.Count(got, ",") != 1 {
		t.Errorf("%s = %s, want the two posts with the most views", q, got)
	}
}

// TestContractMappings: an editor's mapping changes how the runtime
// serves a field: here books(title:) compares as a range, not equality,
// and searchBooks answers generated rows, not a search.
func TestContractMappings(t *testing.T) {
	p := contractProject(t, "testdata/contract/filters.graphql")
	p.Contract.Mappings = []model.ContractMapping{
		{Field: "Query.books", Args: []model.ContractArg{{Name: "title", Role: "range", Field: "title", Op: "gte"}}},
		{Field: "Query.searchBooks", Shape: "generated"},
	}
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	out := h.do(`{ books(title: "T", limit: 1000) { title } }`, nil)
	list, _ := jsonAt(out, "data.books").([]any)
	if len(list) == 0 {
		t.Fatalf("no book has a title from T on: %v", out)
	}
	for _, b := range list {
		if title := jsonAt(b, "title").(string); title < "T" {
			t.Fatalf("%q is before T", title)
		}
	}
	if h.rt.contract.Plan().Queries[6].Name != "searchBooks" || h.rt.contract.Plan().Queries[6].Shape != "generated" {
		t.Errorf("searchBooks is served as %+v", h.rt.contract.Plan().Queries[6])
	}
}

// TestContractLongLists: a list or page without paging arguments serves
// at most the page size limit, with the total of all matches.
func TestContractLongLists(t *testing.T) {
	p := contractProject(t, "testdata/contract/filters.graphql")
	p.Contract.Tables = []model.ContractTable{{Type: "Book", Rows: 30}}
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{MaxPageSize: 25}), pool: memPool{}, ov: engine.NewOverlay()}
	out := h.do(`{ books { id } bookPage { total items { id } } }`, nil)
	books, _ := jsonAt(out, "data.books").([]any)
	items, _ := jsonAt(out, "data.bookPage.items").([]any)
	if len(books) != 25 || len(items) != 25 || jsonAt(out, "data.bookPage.total") != 30.0 {
		t.Errorf("%d books, %d items: %v", len(books), len(items), out)
	}
}

// TestContractRelationFilters: a filter on the row a to-one relation
// names (Hasura's nesting, Prisma's is/isNot) selects the rows whose
// related row matches, also inside _or and NOT.
func TestContractRelationFilters(t *testing.T) {
	h, _ := filterHarness(t)
	type pair struct{ id, author string }
	var books []pair
	for _, x := range jsonAt(h.do(`{ books(limit: 1000) { id author { name } } }`, nil), "data.books").([]any) {
		books = append(books, pair{jsonAt(x, "id").(string), jsonAt(x, "author.name").(string)})
	}
	name := books[0].author
	var by, notBy []string
	for _, b := range books {
		if b.author == name {
			by = append(by, b.id)
		} else {
			notBy = append(notBy, b.id)
		}
	}
	for q, want := range map[string][]string{
		fmt.Sprintf(`{ hasuraBooks(where: {author: {name: {_eq: %q}}}) { id } }`, name):                              by,
		fmt.Sprintf(`{ prismaBooks(where: {author: {is: {name: {equals: %q}}}}) { id } }`, name):                     by,
		fmt.Sprintf(`{ hasuraBooks(where: {_not: {author: {name: {_eq: %q}}}}) { id } }`, name):                      notBy,
		fmt.Sprintf(`{ prismaBooks(where: {author: {isNot: {name: {equals: %q}}}}) { id } }`, name):                  notBy,
		fmt.Sprintf(`{ hasuraBooks(where: {_or: [{author: {name: {_eq: %q}}}, {price: {_lt: -1}}]}) { id } }`, name): by,
	} {
		field := "hasuraBooks"
		if strings.Contains(q, "prisma") {
			field = "prismaBooks"
		}
		if got := listIDs(t, h, field, q); !slices.Equal(got, want) {
			t.Errorf("%s\n got %v\nwant %v", q, got, want)
		}
	}
	if len(by) == 0 || len(notBy) == 0 {
		t.Fatal("the case tests nothing")
	}
}

// TestContractToManyFilters: a filter over a to-many relation selects
// the rows some related row matches (Hasura's nesting, Prisma's some),
// none matches (none, and Hasura's _not), or all match (every, true for a
// row with none), as the condition evaluated on every row.
func TestContractToManyFilters(t *testing.T) {
	h, _ := filterHarness(t)
	type author struct {
		id       string
		genres   []string
		minPrice float64
	}
	var all []author
	floor := 0.0 // the highest of the authors' cheapest books: every book of one author costs at least that
	for _, x := range jsonAt(h.do(`{ authors { id books { genre price } } }`, nil), "data.authors").([]any) {
		a := author{id: jsonAt(x, "id").(string), minPrice: math.Inf(1)}
		for _, b := range jsonAt(x, "books").([]any) {
			a.genres = append(a.genres, jsonAt(b, "genre").(string))
			a.minPrice = min(a.minPrice, jsonAt(b, "price").(float64))
		}
		floor = max(floor, a.minPrice)
		all = append(all, a)
	}
	some := func(a author) bool { return slices.Contains(a.genres, "SCIENCE") }
	cases := []struct {
		name, field, query string
		want               func(author) bool
	}{
		{"hasura exists", "hasuraAuthors", `{ hasuraAuthors(where: {books: {genre: {_eq: SCIENCE}}}) { id } }`, some},
		{"hasura not exists", "hasuraAuthors", `{ hasuraAuthors(where: {_not: {books: {genre: {_eq: SCIENCE}}}}) { id } }`, func(a author) bool { return !some(a) }},
		{"prisma some", "prismaAuthors", `{ prismaAuthors(where: {books: {some: {genre: {equals: SCIENCE}}}}) { id } }`, some},
		{"prisma none", "prismaAuthors", `{ prismaAuthors(where: {books: {none: {genre: {equals: SCIENCE}}}}) { id } }`, func(a author) bool { return !some(a) }},
		{"prisma every", "prismaAuthors", fmt.Sprintf(`{ prismaAuthors(where: {books: {every: {price: {gte: %v}}}}) { id } }`, floor/2),
			func(a author) bool { return a.minPrice >= floor/2 }},
		{"prisma some and every", "prismaAuthors", fmt.Sprintf(`{ prismaAuthors(where: {books: {some: {genre: {equals: SCIENCE}}, every: {price: {gte: %v}}}}) { id } }`, floor/2),
			func(a author) bool { return some(a) && a.minPrice >= floor/2 }},
	}
	for _, c := range cases {
		var want []string
		for _, a := range all {
			if c.want(a) {
				want = append(want, a.id)
			}
		}
		if len(want) == 0 || len(want) == len(all) {
			t.Fatalf("%s: %d of %d authors match: the case tests nothing", c.name, len(want), len(all))
		}
		if got := listIDs(t, h, c.field, c.query); !slices.Equal(got, want) {
			t.Errorf("%s: %s\n got %v\nwant %v", c.name, c.query, got, want)
		}
	}
}

// TestContractToManyEmpty: every holds for a row with no related rows,
// some {} for a row with any, none {} for a row with none.
func TestContractToManyEmpty(t *testing.T) {
	p := contractProject(t, "testdata/contract/filters.graphql")
	p.Contract.Tables = []model.ContractTable{{Type: "Book", Rows: 5}}
	h := &rtHarness{tb: t, rt: rtCompile(t, p, Options{}), pool: memPool{}, ov: engine.NewOverlay()}
	var with, without []string
	for _, x := range jsonAt(h.do(`{ authors { id books { id } } }`, nil), "data.authors").([]any) {
		if len(jsonAt(x, "books").([]any)) > 0 {
			with = append(with, jsonAt(x, "id").(string))
		} else {
			without = append(without, jsonAt(x, "id").(string))
		}
	}
	if len(with) == 0 || len(without) == 0 {
		t.Fatalf("%d authors with books, %d without: the case tests nothing", len(with), len(without))
	}
	for q, want := range map[string][]string{
		`{ prismaAuthors(where: {books: {every: {price: {lt: -1}}}}) { id } }`: without,
		`{ prismaAuthors(where: {books: {none: {}}}) { id } }`:                 without,
		`{ prismaAuthors(where: {books: {some: {}}}) { id } }`:                 with,
		`{ hasuraAuthors(where: {books: {}}) { id } }`:                         with,
	} {
		field := "prismaAuthors"
		if strings.Contains(q, "hasura") {
			field = "hasuraAuthors"
		}
		if got := listIDs(t, h, field, q); !slices.Equal(got, want) {
			t.Errorf("%s\n got %v\nwant %v", q, got, want)
		}
	}
}
