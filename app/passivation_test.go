package app_test

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/model"
)

// grainCounter is a test-only actors.Metrics that counts activations and
// passivations by kind.
type grainCounter struct {
	mu        sync.Mutex
	activated map[string]int
	stopped   map[string]int
}

func (c *grainCounter) GrainActivated(kind string) {
	c.mu.Lock()
	c.activated[kind]++
	c.mu.Unlock()
}

func (c *grainCounter) GrainPassivated(kind string) {
	c.mu.Lock()
	c.stopped[kind]++
	c.mu.Unlock()
}

func (c *grainCounter) counts(kind string) (activated, stopped int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.activated[kind], c.stopped[kind]
}

// TestPassivation: grains idle past IdleAfter (by the test clock) stop and
// withdraw their local snapshots; the next call activates them again from
// the store, with nothing lost and nothing stale.
func TestPassivation(t *testing.T) {
	metrics := &grainCounter{activated: map[string]int{}, stopped: map[string]int{}}
	nd := startNode(t, "", nil, func(env *actors.Env) {
		env.Config.IdleAfter = 200 * time.Millisecond // ticks every 50 ms; the clock decides
		env.Metrics = metrics
	})
	svc := nd.svc
	ctx := context.Background()
	importProducts(t, svc, "products")
	s := newShop(t, nd, "idle@example.com", "idle", "products")
	mutate(t, svc, "idle", s.runtime.Value, "", `mutation { createProduct(input: {name: "Kept"}) { id } }`, "createProduct")
	want := []string{"Laptop", "Mouse", "Desk", "Kept"}
	if got := productNames(t, svc, "idle", s.runtime.Value, ""); !reflect.DeepEqual(got, want) {
		t.Fatalf("before: %q", got)
	}
	projActivated, _ := metrics.counts("project")
	keyActivated, _ := metrics.counts("apikey")

	// Not idle yet by the clock: nothing stops however long we wait.
	time.Sleep(150 * time.Millisecond)
	if _, stopped := metrics.counts("project"); stopped != 0 {
		t.Fatalf("%d project grains stopped before the clock moved", stopped)
	}

	nd.clock.Add(time.Hour)
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, ps := metrics.counts("project")
		_, ks := metrics.counts("apikey")
		if ps >= projActivated && ks >= keyActivated {
			t.Logf("passivated: %d project, %d key grains", ps, ks)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 5 s, %d of %d project and %d of %d key grains passivated", ps, projActivated, ks, keyActivated)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// Revoke a key while its grain is passive: the revocation is loaded
	// and published by the fresh activation.
	if _, err := svc.Management.RevokeAPIKey(ctx, s.owner.p, s.full.Key.ID); err != nil {
		t.Fatal(err)
	}
	_, err := runtime(ctx, svc, "idle", s.full.Value, "", `{ products { total } }`)
	wantCode(t, err, model.CodeAPIKeyInvalid)

	if got := productNames(t, svc, "idle", s.runtime.Value, ""); !reflect.DeepEqual(got, want) {
		t.Errorf("after passivation: %q, want %q", got, want)
	}
	mutate(t, svc, "idle", s.runtime.Value, "", `mutation { deleteProduct(id: "p1") { id } }`, "deleteProduct")
	if got := productNames(t, svc, "idle", s.runtime.Value, ""); !reflect.DeepEqual(got, want[1:]) {
		t.Errorf("after a mutation on the new activation: %q", got)
	}
	if a, _ := metrics.counts("project"); a <= projActivated {
		t.Errorf("project grains activated %d times, want more than %d", a, projActivated)
	}
}
