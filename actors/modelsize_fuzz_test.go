package actors

import (
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// FuzzModelSize is the model-size attack of issue 20 (attributes with
// large constants, generator options and expressions, one after another)
// against a guest project grain over a real store: whatever the sizes and
// the text, an edit is either refused with LIMIT_REACHED or
// BAD_USER_INPUT and changes nothing, or stored, and the stored record
// never passes the project's bound.
func FuzzModelSize(f *testing.F) {
	f.Add(uint16(900), uint8(8), "x", uint8(0))
	f.Add(uint16(64), uint8(40), `"quoted\"`, uint8(1))
	f.Add(uint16(4000), uint8(3), "\u00e9", uint8(2))
	f.Add(uint16(4000), uint8(47), "y", uint8(0)) // past the record bound
	f.Fuzz(func(t *testing.T, size uint16, n uint8, text string, kind uint8) {
		g, p := modelSizeGrain(t)
		table := editOK[model.Table](t, g, &pb.EditCreateTable{Access: systemAccess, Name: "Thing"})
		bound := g.env.Config.Limits.Model.SessionProjectBytes
		for i := 0; i < int(n%48); i++ {
			a := model.Attribute{TableID: table.ID, Name: "a" + string(rune('a'+i%26)) + strings.Repeat("x", i/26), Type: model.TypeString}
			value := strings.Repeat(text, 1+int(size)/max(1, len(text)))
			switch kind % 3 {
			case 0:
				b, _ := json.Marshal(value)
				a.Mapping, a.Constant = model.MappingConstant, b
			case 1:
				a.Mapping, a.Computed = model.MappingComputed, value
			case 2:
				opts, _ := json.Marshal(map[string]string{"pattern": value})
				a.Mapping, a.Generator = model.MappingGenerated, &model.Generator{Kind: "lorem.word", Options: opts}
			}
			before, _ := json.Marshal(p.st)
			_, err := g.safeHandle(&call{req: &pb.EditCreateAttribute{Access: systemAccess, Attribute: &pb.AttributeDoc{Json: encodeDoc(a)}}})
			after, _ := json.Marshal(p.st)
			switch code := model.ErrorCode(err); code {
			case "":
				if int64(len(after)) > bound {
					t.Fatalf("edit %d stored a record of %d bytes, over the bound of %d", i, len(after), bound)
				}
			case model.CodeLimitReached, model.CodeBadUserInput, model.CodeConflict:
				if string(before) != string(after) {
					t.Fatalf("edit %d was refused (%v) but changed the project", i, err)
				}
			default:
				t.Fatalf("edit %d: refusal %s: %v", i, code, err)
			}
		}
	})
}

// modelSizeGrain returns a guest project grain over a real store, its
// record bounded to 64 KiB and each value to 4 KiB.
func modelSizeGrain(t *testing.T) (*grain, *projectGrain) {
	t.Helper()
	db, err := persistence.Open(filepath.Join(t.TempDir(), "mockgql.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cfg := DefaultConfig()
	cfg.Limits.Model.SessionProjectBytes, cfg.Limits.Model.ValueBytes = 64<<10, 4<<10
	cfg.Limits.SessionAttributes = 1000
	env := &Env{Store: db, Pool: NewPool(db), Local: &Local{}, Clock: &movingClock{t: time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)},
		Config: cfg, Log: slog.New(slog.DiscardHandler)}
	id := ids.NewProjectID()
	p := &projectGrain{}
	g := &grain{env: env, kind: kindProject, id: id, b: p}
	pr := model.Project{ID: id, Slug: "fuzz-" + strings.ToLower(id[len(id)-6:]), Name: "Fuzz", Kind: model.KindGuest}
	if _, err := g.safeHandle(&call{req: &pb.ProjectCreate{Project: &pb.ProjectDoc{Json: encodeDoc(pr)}, Session: "s"}}); err != nil {
		t.Fatal(err)
	}
	return g, p
}

// editOK runs an edit that must succeed and returns its result.
func editOK[T any](t *testing.T, g *grain, req grainRequest) *T {
	t.Helper()
	r, err := g.safeHandle(&call{req: req})
	if err != nil {
		t.Fatal(err)
	}
	v, err := editResult[T](r, nil)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
