package main

import (
	"flag"
	"testing"
	"time"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/model"
)

// TestPlanFlags: the per-plan caps come from four numbers a flag (or its
// MGQ_ variable); left alone they are model.DefaultLimits'.
func TestPlanFlags(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		env     map[string]string
		check   func(a actors.Config) bool
		wantErr bool
	}{
		{"defaults", nil, nil, func(a actors.Config) bool {
			d := model.DefaultLimits()
			return a.Limits.Projects == d.Projects && a.Limits.KeysPerProject == d.KeysPerProject &&
				a.Limits.Datasets == d.Datasets && a.Limits.DatasetBytes == d.DatasetBytes && a.UploadHold == time.Hour
		}, false},
		{"flags", []string{"--plan-projects", "1,2,3,0", "--plan-dataset-mb", "5,6,7,0", "--upload-hold", "5m"}, nil, func(a actors.Config) bool {
			return a.Limits.Projects == [4]int{1, 2, 3, 0} && a.Limits.DatasetBytes == [4]int64{5 << 20, 6 << 20, 7 << 20, 0} && a.UploadHold == 5*time.Minute
		}, false},
		{"environment", nil, map[string]string{"MGQ_PLAN_KEYS": "9, 8, 7, 6"}, func(a actors.Config) bool {
			return a.Limits.KeysPerProject == [4]int{9, 8, 7, 6}
		}, false},
		{"three numbers", []string{"--plan-datasets", "1,2,3"}, nil, nil, true},
		{"negative", []string{"--plan-datasets", "1,2,3,-1"}, nil, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			var c serveConfig
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			fs.SetOutput(testWriter{t})
			serveFlags(fs, &c)
			err := parse(fs, tc.args)
			if (err != nil) != tc.wantErr {
				t.Fatalf("parse: %v", err)
			}
			if err != nil {
				return
			}
			a := actors.DefaultConfig()
			c.Plans.apply(&a)
			if !tc.check(a) {
				t.Fatalf("config %+v, upload hold %s", a.Limits, a.UploadHold)
			}
		})
	}
}

// testWriter sends a flag set's complaints to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }
