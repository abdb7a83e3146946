package contractrt

import (
	"context"
	"testing"
	"time"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/internal/gqlattack"
	"github.com/mockgql/mockgql/model"
)

// TestCompileSlots: contract compiles share the node's slots; with every
// slot taken, a compile waits within its deadline and then answers
// QUERY_TIMEOUT.
func TestCompileSlots(t *testing.T) {
	p := &model.Project{ID: "pslots"}
	if _, err := contract.Apply(p, []byte(gqlattack.Wide(3)), time.Now()); err != nil {
		t.Fatal(err)
	}
	c := NewCompiles(2)
	for range cap(c.slots) {
		c.slots <- struct{}{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := c.Compile(ctx, p, nil, &engine.Env{}, testOptions)
	for range cap(c.slots) {
		<-c.slots
	}
	if model.ErrorCode(err) != model.CodeQueryTimeout {
		t.Fatalf("a compile with every slot taken: %v; want QUERY_TIMEOUT", err)
	}
	if _, err := c.Compile(context.Background(), p, nil, &engine.Env{}, testOptions); err != nil || c.Runs() != 1 {
		t.Fatalf("with a slot free: %v, %d compiles", err, c.Runs())
	}
}

// testOptions are graphql.Options' defaults.
var testOptions = Options{MaxDepth: 10, MaxFields: 1000, MaxPageSize: 1000, MaxGeneratedBytes: MaxGeneratedBytes}
