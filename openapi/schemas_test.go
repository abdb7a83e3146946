package openapi

import (
	"testing"
)

func TestSchemas(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"petstore-v3.0.yaml", "Error:obj Pet:obj Pets:- "},
		{"petstore-expanded-v2.0.yaml", "Error:obj NewPet:obj Pet:obj "},
	} {
		t.Run(c.file, func(t *testing.T) {
			doc := readPublicDoc(t, c.file)
			got, err := Schemas(doc, ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			s := ""
			for _, x := range got {
				kind := "-"
				if x.Object {
					kind = "obj"
				}
				s += x.Name + ":" + kind + " "
			}
			if s != c.want {
				t.Fatalf("got %q, want %q", s, c.want)
			}
		})
	}
	if _, err := Schemas([]byte(`{"swagger":"1.2"}`), ImportOptions{}); err == nil {
		t.Fatal("an unsupported version was listed")
	}
}
