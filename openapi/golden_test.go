package openapi

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mockgql/mockgql/model"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// TestExportWithoutOptionsUnchanged pins the export of a project that opts
// into no query power (no LIST options, no AGGREGATE operation) to the
// bytes it had before query power was exported: such exports, kept in
// version control, must not change. The golden files were written by the
// export of commit 8922fca; -update rewrites them (only on purpose).
// A disabled operation with query power is not exported, so it changes
// nothing either.
func TestExportWithoutOptionsUnchanged(t *testing.T) {
	for _, format := range []string{"json", "yaml"} {
		t.Run(format, func(t *testing.T) {
			got, err := Export(fixtureProject(t), format, "")
			check(t, err)
			disabled := fixtureProject(t)
			version := disabled.Version
			check(t, disabled.AddOperation(&model.Operation{ID: "o200", TableID: "t1", Name: "productsAggregate", Kind: model.OpAggregate}))
			check(t, disabled.AddOperation(&model.Operation{ID: "o201", TableID: "t1", Name: "cheapProducts", Kind: model.OpList,
				Options: &model.OperationOptions{Relay: true, Where: true, OrderBy: true}}))
			disabled.Version = version // the model version is in the export; the rest must not change
			if b, err := Export(disabled, format, ""); err != nil || string(b) != string(got) {
				t.Errorf("disabled operations with query power change the export (err %v)", err)
			}
			golden := filepath.Join("testdata", "plain.golden."+format)
			if *update {
				check(t, os.MkdirAll("testdata", 0o755))
				check(t, os.WriteFile(golden, got, 0o644))
			}
			want, err := os.ReadFile(golden)
			check(t, err)
			if string(got) != string(want) {
				t.Errorf("the export of a project without query power changed; diff it with %s", golden)
			}
		})
	}
}
