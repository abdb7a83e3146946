package persistence_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/mockgql/mockgql/persistence"
)

// mustOpen opens a database in a fresh temporary folder and closes it at
// the end of the test. It returns the DB and its path.
func mustOpen(tb testing.TB) (*persistence.DB, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "mockgql.db")
	db, err := persistence.Open(path)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	return db, path
}

func mustWrite(tb testing.TB, db *persistence.DB, puts ...persistence.Put) {
	tb.Helper()
	if err := db.Write(puts...); err != nil {
		tb.Fatalf("Write: %v", err)
	}
}

func mustGet(tb testing.TB, db *persistence.DB, kind, id string) []byte {
	tb.Helper()
	v, err := db.Get(kind, id)
	if err != nil {
		tb.Fatalf("Get(%s, %s): %v", kind, id, err)
	}
	return v
}

// scanAll returns the id=value pairs Scan reports for kind and prefix.
func scanAll(tb testing.TB, db *persistence.DB, kind, prefix string) []string {
	tb.Helper()
	var out []string
	err := db.Scan(kind, prefix, func(id string, v []byte) error {
		out = append(out, id+"="+string(v))
		return nil
	})
	if err != nil {
		tb.Fatalf("Scan(%s, %q): %v", kind, prefix, err)
	}
	return out
}

func TestGetWrite(t *testing.T) {
	db, _ := mustOpen(t)
	if v := mustGet(t, db, "project", "p1"); v != nil {
		t.Errorf("Get of an unknown kind = %q, want nil", v)
	}
	mustWrite(t, db, persistence.Put{Kind: "project", ID: "p1", Value: []byte("one")})
	if v := mustGet(t, db, "project", "p2"); v != nil {
		t.Errorf("Get of an unknown id = %q, want nil", v)
	}
	v := mustGet(t, db, "project", "p1")
	if string(v) != "one" {
		t.Fatalf("Get = %q, want one", v)
	}
	v[0] = 'X' // the value is the caller's copy
	if v := mustGet(t, db, "project", "p1"); string(v) != "one" {
		t.Errorf("changing a returned value changed the store: %q", v)
	}
	mustWrite(t, db, persistence.Put{Kind: "project", ID: "p1", Value: []byte("two")})
	if v := mustGet(t, db, "project", "p1"); string(v) != "two" {
		t.Errorf("overwrite: Get = %q, want two", v)
	}
	if v := mustGet(t, db, "account", "p1"); v != nil {
		t.Errorf("kinds are separate: Get(account, p1) = %q", v)
	}
	if err := db.Write(); err != nil {
		t.Errorf("an empty Write: %v", err)
	}
}

func TestWriteIsAtomic(t *testing.T) {
	tests := []struct {
		name string
		bad  persistence.Put
	}{
		{"empty kind", persistence.Put{Kind: "", ID: "x", Value: []byte("v")}},
		{"empty id", persistence.Put{Kind: "project", ID: "", Value: []byte("v")}},
		{"id too long", persistence.Put{Kind: "project", ID: string(make([]byte, bolt.MaxKeySize+1)), Value: []byte("v")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, _ := mustOpen(t)
			mustWrite(t, db, persistence.Put{Kind: "project", ID: "keep", Value: []byte("old")})
			err := db.Write(
				persistence.Put{Kind: "project", ID: "p1", Value: []byte("new")},
				persistence.Put{Kind: "project", ID: "keep", Value: nil}, // a delete in the same batch
				persistence.Put{Kind: "overlay", ID: "p1/t/1", Value: []byte("row")},
				tt.bad,
			)
			if err == nil {
				t.Fatal("Write with an invalid put succeeded")
			}
			if v := mustGet(t, db, "project", "p1"); v != nil {
				t.Errorf("the put before the invalid one was written: %q", v)
			}
			if v := mustGet(t, db, "project", "keep"); string(v) != "old" {
				t.Errorf("the delete before the invalid one happened: %q", v)
			}
			if got := scanAll(t, db, "overlay", ""); len(got) != 0 {
				t.Errorf("a bucket created in the failed batch has %q", got)
			}
		})
	}
}

func TestDeleteWithNilValue(t *testing.T) {
	db, _ := mustOpen(t)
	mustWrite(t, db,
		persistence.Put{Kind: "key", ID: "a", Value: []byte("1")},
		persistence.Put{Kind: "key", ID: "b", Value: []byte("2")})
	mustWrite(t, db, persistence.Put{Kind: "key", ID: "a"})
	if v := mustGet(t, db, "key", "a"); v != nil {
		t.Errorf("deleted key still has %q", v)
	}
	if v := mustGet(t, db, "key", "b"); string(v) != "2" {
		t.Errorf("the other key went: %q", v)
	}
	// Deleting what is not there is not an error, in a known or unknown kind.
	mustWrite(t, db, persistence.Put{Kind: "key", ID: "zzz"}, persistence.Put{Kind: "never", ID: "x"})
	if got := scanAll(t, db, "never", ""); len(got) != 0 {
		t.Errorf("deleting created a bucket with %q", got)
	}
	// An empty, non-nil value is a value, not a delete.
	mustWrite(t, db, persistence.Put{Kind: "key", ID: "empty", Value: []byte{}})
	if got := scanAll(t, db, "key", "empty"); !reflect.DeepEqual(got, []string{"empty="}) {
		t.Errorf("empty value: Scan = %q", got)
	}
}

func TestScan(t *testing.T) {
	db, _ := mustOpen(t)
	var puts []persistence.Put
	for _, id := range []string{"p2/t/2", "p1/t/1", "p1/t/2", "p10/t/1", "p1/u/1", "q"} {
		puts = append(puts, persistence.Put{Kind: "overlay", ID: id, Value: []byte(id)})
	}
	mustWrite(t, db, puts...)
	tests := []struct {
		prefix string
		want   []string
	}{
		{"p1/", []string{"p1/t/1=p1/t/1", "p1/t/2=p1/t/2", "p1/u/1=p1/u/1"}},
		{"p1/t/", []string{"p1/t/1=p1/t/1", "p1/t/2=p1/t/2"}},
		{"p1", []string{"p1/t/1=p1/t/1", "p1/t/2=p1/t/2", "p1/u/1=p1/u/1", "p10/t/1=p10/t/1"}},
		{"p3/", nil},
		{"zz", nil},
		{"", []string{"p1/t/1=p1/t/1", "p1/t/2=p1/t/2", "p1/u/1=p1/u/1", "p10/t/1=p10/t/1", "p2/t/2=p2/t/2", "q=q"}},
	}
	for _, tt := range tests {
		t.Run(tt.prefix, func(t *testing.T) {
			if got := scanAll(t, db, "overlay", tt.prefix); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Scan = %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("unknown kind", func(t *testing.T) {
		if got := scanAll(t, db, "nothing", ""); got != nil {
			t.Errorf("Scan = %q", got)
		}
	})
	t.Run("ErrStop", func(t *testing.T) {
		var seen []string
		err := db.Scan("overlay", "p1/", func(id string, _ []byte) error {
			seen = append(seen, id)
			if len(seen) == 2 {
				return persistence.ErrStop
			}
			return nil
		})
		if err != nil {
			t.Errorf("Scan ended by ErrStop returned %v", err)
		}
		if len(seen) != 2 {
			t.Errorf("saw %q after ErrStop", seen)
		}
	})
	t.Run("wrapped ErrStop", func(t *testing.T) {
		err := db.Scan("overlay", "", func(string, []byte) error { return fmt.Errorf("enough: %w", persistence.ErrStop) })
		if err != nil {
			t.Errorf("Scan = %v", err)
		}
	})
	t.Run("other error", func(t *testing.T) {
		boom := errors.New("boom")
		n := 0
		err := db.Scan("overlay", "", func(string, []byte) error { n++; return boom })
		if !errors.Is(err, boom) || n != 1 {
			t.Errorf("Scan = %v after %d calls, want boom after 1", err, n)
		}
	})
}

func TestDeletePrefix(t *testing.T) {
	db, _ := mustOpen(t)
	var puts []persistence.Put
	for i := range 300 { // more than a bbolt page of keys
		puts = append(puts, persistence.Put{Kind: "overlay", ID: fmt.Sprintf("p1/t/%04d", i), Value: []byte("x")})
	}
	puts = append(puts,
		persistence.Put{Kind: "overlay", ID: "p0/t/1", Value: []byte("x")},
		persistence.Put{Kind: "overlay", ID: "p10/t/1", Value: []byte("x")},
		persistence.Put{Kind: "project", ID: "p1/t/1", Value: []byte("x")})
	mustWrite(t, db, puts...)

	if err := db.DeletePrefix("overlay", "p1/"); err != nil {
		t.Fatal(err)
	}
	want := []string{"p0/t/1=x", "p10/t/1=x"}
	if got := scanAll(t, db, "overlay", ""); !reflect.DeepEqual(got, want) {
		t.Errorf("after DeletePrefix: %q, want %q", got, want)
	}
	if v := mustGet(t, db, "project", "p1/t/1"); v == nil {
		t.Error("DeletePrefix reached another kind")
	}
	if err := db.DeletePrefix("nothing", "p1/"); err != nil {
		t.Errorf("DeletePrefix of an unknown kind: %v", err)
	}
	if err := db.DeletePrefix("overlay", "zz"); err != nil {
		t.Errorf("DeletePrefix matching nothing: %v", err)
	}
	if err := db.DeletePrefix("overlay", ""); err != nil {
		t.Fatal(err)
	}
	if got := scanAll(t, db, "overlay", ""); len(got) != 0 {
		t.Errorf("DeletePrefix with an empty prefix left %q", got)
	}
}

func TestReopenKeepsData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mockgql.db")
	db, err := persistence.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, db,
		persistence.Put{Kind: "project", ID: "p1", Value: []byte(`{"id":"p1"}`)},
		persistence.Put{Kind: "overlay", ID: "p1/t/1", Value: []byte("row")})
	mustWrite(t, db, persistence.Put{Kind: "overlay", ID: "p1/t/1"})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Write(persistence.Put{Kind: "project", ID: "p2", Value: []byte("x")}); err == nil {
		t.Error("Write after Close succeeded")
	}
	if _, err := db.Get("project", "p1"); err == nil {
		t.Error("Get after Close succeeded")
	}

	db, err = persistence.Open(path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if v := mustGet(t, db, "project", "p1"); string(v) != `{"id":"p1"}` {
		t.Errorf("after reopen: %q", v)
	}
	if v := mustGet(t, db, "overlay", "p1/t/1"); v != nil {
		t.Errorf("a delete was lost across reopen: %q", v)
	}
}

// TestSecondOpenFails: bbolt locks the file (flock), so a second Open of a
// file that is open gives up after its timeout instead of hanging.
func TestSecondOpenFails(t *testing.T) {
	t.Parallel()
	_, path := mustOpen(t)
	type result struct {
		db  *persistence.DB
		err error
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		db, err := persistence.Open(path)
		done <- result{db, err}
	}()
	select {
	case r := <-done:
		if r.err == nil {
			_ = r.db.Close()
			t.Fatal("a second Open of an open file succeeded")
		}
		if !errors.Is(r.err, berrors.ErrTimeout) {
			t.Errorf("second Open: %v, want a bbolt timeout", r.err)
		}
		t.Logf("second Open failed after %v: %v", time.Since(start).Round(time.Millisecond), r.err)
	case <-time.After(30 * time.Second):
		t.Fatal("a second Open is still waiting after 30 s")
	}
}

func TestOpenRefusesNewerLayout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mockgql.db")
	db, err := persistence.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, db, persistence.Put{Kind: "project", ID: "p1", Value: []byte("x")})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	// A newer binary wrote layout 2.
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(tx *bolt.Tx) error {
		m := tx.Bucket([]byte("_meta"))
		if m == nil {
			return errors.New("no _meta bucket after Open")
		}
		if v := m.Get([]byte("schema")); len(v) != 1 || v[0] != 1 {
			return fmt.Errorf("schema = %v, want [1]", v)
		}
		return m.Put([]byte("schema"), []byte{2})
	})
	if cerr := b.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}

	db, err = persistence.Open(path)
	if err == nil {
		_ = db.Close()
		t.Fatal("Open accepted a database of a newer layout")
	}
	t.Logf("Open refused: %v", err)

	// The refusal released the file: bbolt can open it again at once.
	b, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("the refused Open kept the file locked: %v", err)
	}
	_ = b.Close()
}

func TestConcurrentWrites(t *testing.T) {
	db, _ := mustOpen(t)
	const n = 20
	errs := make(chan error, n)
	for i := range n {
		go func() {
			errs <- db.Write(persistence.Put{Kind: "overlay", ID: fmt.Sprintf("p1/%02d", i), Value: []byte("x")})
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if got := scanAll(t, db, "overlay", "p1/"); len(got) != n {
		t.Errorf("got %d rows, want %d", len(got), n)
	}
}

// TestOpenDamagedLayout: an empty schema value in _meta is refused with an
// error, not a panic.
func TestOpenDamagedLayout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mockgql.db")
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(tx *bolt.Tx) error {
		m, err := tx.CreateBucketIfNotExists([]byte("_meta"))
		if err != nil {
			return err
		}
		return m.Put([]byte("schema"), []byte{})
	})
	if cerr := b.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	var db *persistence.DB
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("Open panicked on an empty schema value: %v", p)
			}
		}()
		db, err = persistence.Open(path)
	}()
	if err == nil {
		_ = db.Close()
		t.Fatal("Open accepted an empty schema value")
	}
}
