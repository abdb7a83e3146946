package http

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// deadlineManagement is the fake management backend, recording the time
// its calls had left.
type deadlineManagement struct {
	*fakeManagement
	left map[string]time.Duration
}

func (d *deadlineManagement) Projects(ctx context.Context, p Principal) ([]*model.Project, error) {
	d.note(ctx, "query")
	return d.fakeManagement.Projects(ctx, p)
}

func (d *deadlineManagement) CreateProject(ctx context.Context, p Principal, name, slug string) (*model.Project, error) {
	d.note(ctx, "mutation")
	return d.fakeManagement.CreateProject(ctx, p, name, slug)
}

func (d *deadlineManagement) note(ctx context.Context, what string) {
	if dl, ok := ctx.Deadline(); ok {
		d.left[what] = time.Until(dl)
	}
}

// TestSurfaceDeadlines checks that a query runs within the surface's
// QueryTimeout and a mutation within the caller's longer context.
func TestSurfaceDeadlines(t *testing.T) {
	f := &deadlineManagement{fakeManagement: newFakeManagement(), left: map[string]time.Duration{}}
	cfg := testSurfaceConfig()
	cfg.QueryTimeout = time.Hour
	s, err := NewManagementSurface(cfg, f)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Hour)
	defer cancel()
	for _, q := range []string{`{ projects { id } }`, `mutation { createProject(name: "n") { id } }`} {
		body, _ := json.Marshal(exec.Request{Query: q})
		res, err := s.Execute(ctx, &Call{Principal: userPrincipal, Body: body})
		if err != nil || res.Refused || len(res.Errors) > 0 {
			t.Fatalf("%s: %v %+v", q, err, res)
		}
	}
	if q, m := f.left["query"], f.left["mutation"]; q <= 0 || q > time.Hour || m <= 2*time.Hour {
		t.Fatalf("time left: query %v (want at most the hour of QueryTimeout), mutation %v (want the caller's 3 h)", q, m)
	}
}

// TestSurfaceCost checks that both surfaces carry the cost budget, with
// the prices of surfaceCosts, and that MaxCost moves it or (negative)
// turns it off.
func TestSurfaceCost(t *testing.T) {
	lists := func(n int) string { return "{" + aliasList(n, "projects { id }") + " }" } // 10 each
	tests := []struct {
		name    string
		make    surfaceMaker
		maxCost int
		query   string
		refused bool
	}{
		{"management, 10 lists", managementSurface, 0, lists(10), false},
		{"management, 11 lists", managementSurface, 0, lists(11), true},
		{"management, off", managementSurface, -1, lists(11), false},
		{"management, raised", managementSurface, 200, lists(20), false},
		{"public, 20 dataset lists", publicSurface, 0, "{" + aliasList(20, "availableDataSources { importCode }") + " }", false},
		{"public, 21", publicSurface, 0, "{" + aliasList(21, "availableDataSources { importCode }") + " }", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testSurfaceConfig()
			cfg.MaxCost = tt.maxCost
			s, _, err := tt.make(cfg)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := json.Marshal(exec.Request{Query: tt.query})
			res, err := s.Execute(context.Background(), &Call{Principal: userPrincipal, Body: body})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Refused && strings.Contains(res.Errors[0].Message, "costs more than the limit"); got != tt.refused {
				t.Fatalf("refused by the cost budget: %v, want %v: %v", got, tt.refused, res.Errors)
			}
		})
	}
}

// aliasList is n aliases a0: … of sel.
func aliasList(n int, sel string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, " a%d: %s", i, sel)
	}
	return b.String()
}
