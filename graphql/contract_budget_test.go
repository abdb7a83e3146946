package graphql

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/internal/gqlattack"
	"github.com/mockgql/mockgql/model"
)

// storedContract is a contract project as a node may have stored it before
// the import bounds: imported from small, then its document replaced by
// doc (the compile must not trust the import's checks).
func storedContract(t *testing.T, id, doc string) *model.Project {
	t.Helper()
	p := &model.Project{ID: id}
	if _, err := contract.Apply(p, []byte(gqlattack.Embedded(3, 3)), time.Now()); err != nil {
		t.Fatal(err)
	}
	p.Contract.Document = doc
	return p
}

// TestCompileRemembersFailure (issue 31, finding 1): a project over the
// row-value bound is refused by its compile with LIMIT_REACHED naming the
// type, before a row is generated; the refusal is remembered for the
// model version, so the next runtime call does not compile again, and a
// new version compiles afresh.
func TestCompileRemembersFailure(t *testing.T) {
	p := storedContract(t, "premember", gqlattack.Embedded(120, 3))
	c := NewCompiles(2)
	for i := range 3 {
		_, err := Compile(p, Options{Compiles: c})
		if model.ErrorCode(err) != model.CodeLimitReached || !strings.Contains(err.Error(), "type Item") {
			t.Fatalf("compile %d: %v; want LIMIT_REACHED naming Item", i, err)
		}
	}
	if runs := c.Runs(); runs != 1 {
		t.Errorf("three calls ran %d compiles; want 1", runs)
	}
	p.Version++
	if _, err := Compile(p, Options{Compiles: c}); model.ErrorCode(err) != model.CodeLimitReached {
		t.Fatalf("the next version: %v", err)
	}
	if runs := c.Runs(); runs != 2 {
		t.Errorf("a new version ran %d compiles in all; want 2", runs)
	}
}

// TestCompileGeneratedBytes: the rows a compile generates are bounded as
// they are made; past the bound it stops with LIMIT_REACHED naming the
// type.
func TestCompileGeneratedBytes(t *testing.T) {
	p := &model.Project{ID: "pbytes"}
	if _, err := contract.Apply(p, []byte(gqlattack.Wide(20)), time.Now()); err != nil {
		t.Fatal(err)
	}
	p.Contract.Tables = []model.ContractTable{{Type: "Item", Rows: 1000}}
	_, err := Compile(p, Options{MaxGeneratedBytes: 64 << 10})
	if model.ErrorCode(err) != model.CodeLimitReached || !strings.Contains(err.Error(), "at type Item") || !strings.Contains(err.Error(), "65536") {
		t.Fatalf("1,000 rows over 64 KB: %v", err)
	}
	p.Version++
	if _, err := Compile(p, Options{}); err != nil {
		t.Fatalf("the same rows under the default bound: %v", err)
	}
}

// TestCompileDeadline: a compile honours its caller's deadline, waiting
// for a slot of the process and generating rows; a compile cut short is
// QUERY_TIMEOUT and not remembered.
func TestCompileDeadline(t *testing.T) {
	p := &model.Project{ID: "pdeadline"}
	if _, err := contract.Apply(p, []byte(gqlattack.Wide(20)), time.Now()); err != nil {
		t.Fatal(err)
	}
	p.Contract.Tables = []model.ContractTable{{Type: "Item", Rows: 2000}}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CompileContext(done, p, Options{}); model.ErrorCode(err) != model.CodeQueryTimeout {
		t.Fatalf("a compile past its deadline: %v; want QUERY_TIMEOUT", err)
	}
	if _, err := CompileContext(context.Background(), p, Options{}); err != nil {
		t.Fatalf("the next call compiles: %v", err)
	}
}
