package app_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/mockgql/mockgql/app"
	mhttp "github.com/mockgql/mockgql/http"
	"github.com/mockgql/mockgql/mcp"
)

// TestSurfacesMatchTheirInterfaces: each service of app.Service has
// exactly the methods of its surface's interface, no more (a use case of
// another surface leaking in through a shared part) and no fewer.
func TestSurfacesMatchTheirInterfaces(t *testing.T) {
	for _, tt := range []struct {
		name           string
		service, iface reflect.Type
	}{
		{"Edge", reflect.TypeFor[*app.Edge](), reflect.TypeFor[mhttp.Edge]()},
		{"Runtime", reflect.TypeFor[*app.Runtime](), reflect.TypeFor[mhttp.Runtime]()},
		{"Management", reflect.TypeFor[*app.Management](), reflect.TypeFor[mhttp.Management]()},
		{"Public", reflect.TypeFor[*app.Public](), reflect.TypeFor[mhttp.Public]()},
		{"Preview", reflect.TypeFor[*app.Preview](), reflect.TypeFor[mhttp.Previewer]()},
		{"Adoption", reflect.TypeFor[*app.Adoption](), reflect.TypeFor[mhttp.Adopter]()},
		{"Datasets", reflect.TypeFor[*app.Datasets](), reflect.TypeFor[mhttp.DatasetImporter]()},
		{"MCP", reflect.TypeFor[*app.MCP](), reflect.TypeFor[mcp.Backend]()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.service.Implements(tt.iface) {
				t.Errorf("%s does not implement %s", tt.service, tt.iface)
			}
			have, want := methodNames(tt.service), methodNames(tt.iface)
			if !slices.Equal(have, want) {
				t.Errorf("%s has %d methods, %s %d\nonly the service's: %v\nonly the interface's: %v", tt.service, len(have), tt.iface, len(want),
					without(have, want), without(want, have))
			}
		})
	}
}

// TestServiceHasOnlyItsSurfaces: app.Service is the services, one field
// each, and the node's one use case of no surface (the demo project).
func TestServiceHasOnlyItsSurfaces(t *testing.T) {
	if got := methodNames(reflect.TypeFor[*app.Service]()); !slices.Equal(got, []string{"KeepGuestProject"}) {
		t.Fatalf("*app.Service has methods %v, want only KeepGuestProject", got)
	}
}

// methodNames are the exported method names of t, sorted.
func methodNames(t reflect.Type) []string {
	out := make([]string, 0, t.NumMethod())
	for i := range t.NumMethod() {
		out = append(out, t.Method(i).Name)
	}
	slices.Sort(out)
	return out
}

// without is a minus b.
func without(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}
