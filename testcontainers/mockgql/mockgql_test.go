package mockgql_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/testcontainers/testcontainers-go"

	"github.com/mockgql/mockgql/testcontainers/mockgql"
)

const schema = `
type Book { id: ID! title: String! }
type Query { books: [Book!]! }
type Mutation { createBook(title: String!): Book! }
`

// image is the image under test: MOCKGQL_IMAGE (the repository's container
// test sets the tag it built) or make image's mockgql:latest.
func image() string {
	if v := os.Getenv("MOCKGQL_IMAGE"); v != "" {
		return v
	}
	return "mockgql:latest"
}

// TestRunAndReset is the example: start mockgql with a schema, query its
// runtime URL with the key, write, and reset between tests.
func TestRunAndReset(t *testing.T) {
	ctx := context.Background()
	c, err := mockgql.Run(ctx, image(), mockgql.WithSchema(schema))
	testcontainers.CleanupContainer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	books := func() int {
		var d struct{ Books []struct{ ID, Title string } }
		runtime(t, c, `{ books { id title } }`, &d)
		return len(d.Books)
	}
	before := books()
	if before == 0 {
		t.Fatalf("the schema's list serves no rows")
	}
	var created struct{ CreateBook struct{ Title string } }
	runtime(t, c, `mutation { createBook(title: "Dune") { title } }`, &created)
	if created.CreateBook.Title != "Dune" || books() != before+1 {
		t.Fatalf("createBook: %+v, %d books (before %d)", created, books(), before)
	}
	if err := c.ResetMockData(ctx); err != nil {
		t.Fatal(err)
	}
	if n := books(); n != before {
		t.Fatalf("after ResetMockData: %d books, want %d", n, before)
	}
	// Without the key the runtime refuses.
	resp, err := http.Post(c.RuntimeURL, "application/json", bytes.NewReader([]byte(`{"query":"{ books { id } }"}`)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without a key: %d, want 401", resp.StatusCode)
	}
}

// runtime posts query to the project's runtime URL with its key.
func runtime(t *testing.T, c *mockgql.Container, query string, out any) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"query": query})
	req, _ := http.NewRequest(http.MethodPost, c.RuntimeURL, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", c.Key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct {
		Data   json.RawMessage
		Errors []any
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil || resp.StatusCode != 200 || len(answer.Errors) > 0 {
		t.Fatalf("%s: %d %v %v", query, resp.StatusCode, answer.Errors, err)
	}
	if err := json.Unmarshal(answer.Data, out); err != nil {
		t.Fatal(err)
	}
}
