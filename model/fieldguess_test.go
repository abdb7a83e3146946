package model

import (
	"strings"
	"testing"
)

// TestAttributeName: dataset paths become lowerCamelCase GraphQL names.
func TestAttributeName(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"id", "id"},
		{"_id", "id"},
		{"authorId", "authorId"},
		{"author_id", "authorId"},
		{"author.first_name", "authorFirstName"},
		{"Unit Price", "unitPrice"},
		{"URL", "url"},
		{"2nd", "f2nd"},
		{"$$$", "field"},
		{"prix.€", "prix"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			got := AttributeName(tt.path)
			if got != tt.want {
				t.Fatalf("AttributeName(%q) = %q, want %q", tt.path, got, tt.want)
			}
			if !ValidName(got) {
				t.Fatalf("AttributeName(%q) = %q is not a GraphQL name", tt.path, got)
			}
		})
	}
}

// TestTableNameFor: import codes become singular PascalCase type names.
func TestTableNameFor(t *testing.T) {
	for _, tt := range []struct{ code, want string }{
		{"products", "Product"},
		{"categories", "Category"},
		{"order_lines", "OrderLine"},
		{"boxes", "Box"},
		{"addresses", "Address"},
		{"status", "Status"},
		{"people", "People"},
		{"books-2024", "Books2024"},
		{"9lives", "T9live"},
		{"strings", "StringRecord"},
		{"---", "Record"},
	} {
		t.Run(tt.code, func(t *testing.T) {
			got := TableNameFor(tt.code)
			if got != tt.want {
				t.Fatalf("TableNameFor(%q) = %q, want %q", tt.code, got, tt.want)
			}
			if !ValidName(got) {
				t.Fatalf("TableNameFor(%q) = %q is not a GraphQL name", tt.code, got)
			}
		})
	}
}

// FuzzNames: whatever a dataset's path or import code holds, the names made
// from it are GraphQL names a table or attribute may have.
func FuzzNames(f *testing.F) {
	for _, s := range []string{"id", "author.first_name", "Query", "__typename", "9", "ñandú", strings.Repeat("ab_", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if a := AttributeName(s); CheckName("attribute name", a) != nil {
			t.Fatalf("AttributeName(%q) = %q", s, a)
		}
		if n := TableNameFor(s); CheckName("table name", n) != nil || reservedTypeNames[n] {
			t.Fatalf("TableNameFor(%q) = %q", s, n)
		}
	})
}
