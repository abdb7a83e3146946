package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSchemaFixture: graphql's copy of the schema group's SDL and queries
// is the group's (regenerate it with go run ./cmd/benchmark schema-fixture).
func TestSchemaFixture(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", schemaFixtureFile))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != schemaFixture() {
		t.Fatalf("%s is not the schema group's; go run ./cmd/benchmark schema-fixture > %s", schemaFixtureFile, schemaFixtureFile)
	}
}

// TestSchemaQueries: the group sends 50 distinct queries over 24 types.
func TestSchemaQueries(t *testing.T) {
	q := schemaQueries()
	seen := map[string]bool{}
	for _, x := range q {
		seen[x] = true
	}
	if len(q) != 50 || len(seen) != 50 || len(schemaTypes) != 24 {
		t.Fatalf("%d queries, %d distinct, %d types", len(q), len(seen), len(schemaTypes))
	}
	if !strings.Contains(schemaSDL(), "related: [") {
		t.Fatal("no link without a field back")
	}
}
