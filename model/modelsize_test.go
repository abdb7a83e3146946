package model_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

func TestModelLimitsCheckValues(t *testing.T) {
	l := model.ModelLimits{ValueBytes: 100}
	big := strings.Repeat("x", 101)
	cases := []struct {
		name string
		a    model.Attribute
		want string // substring of the refusal; "" = accepted
	}{
		{"small constant", model.Attribute{Name: "a", Constant: json.RawMessage(`"ok"`)}, ""},
		{"constant at the bound", model.Attribute{Name: "a", Constant: json.RawMessage(`"` + strings.Repeat("x", 98) + `"`)}, ""},
		{"constant over", model.Attribute{Name: "a", Constant: json.RawMessage(`"` + big + `"`)}, "constantValue has 103 bytes; the limit is 100 bytes"},
		{"computed over", model.Attribute{Name: "a", Computed: big}, "computedExpression"},
		{"source path over", model.Attribute{Name: "a", SourcePath: big}, "sourceMapping.path"},
		{"generator over", model.Attribute{Name: "a", Generator: &model.Generator{Kind: "k", Options: json.RawMessage(`"` + big + `"`)}}, "generator"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := l.CheckValues(&c.a)
			if c.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if model.ErrorCode(err) != model.CodeLimitReached || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want LIMIT_REACHED with %q", err, c.want)
			}
		})
	}
	if err := (model.ModelLimits{}).CheckValues(&model.Attribute{Constant: json.RawMessage(`"` + big + `"`)}); err != nil {
		t.Fatalf("a zero bound refused: %v", err)
	}
}

func TestModelLimitsProjectBytes(t *testing.T) {
	l := model.DefaultModelLimits()
	cases := []struct {
		kind model.ProjectKind
		plan model.Plan
		want int64
	}{
		{model.KindAccount, model.PlanStarter, 1 << 20},
		{model.KindAccount, model.PlanProfessional, 4 << 20},
		{model.KindAccount, model.PlanTeam, 8 << 20},
		{model.KindAccount, model.PlanEnterprise, 16 << 20},
		{model.KindGuest, model.PlanEnterprise, 1 << 20},
		{model.KindSession, "", 1 << 20},
	}
	for _, c := range cases {
		if got := l.ProjectBytesFor(c.kind, c.plan); got != c.want {
			t.Errorf("%s on %s: %d, want %d", c.kind, c.plan, got, c.want)
		}
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{100: "100 bytes", 16 << 10: "16 KiB", 1 << 20: "1 MiB", 3 << 19: "1.5 MiB", 1500: "1500 bytes"} {
		if got := model.Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{1: "1 byte", 900: "900 bytes", 512 << 10: "512 KB", 1 << 20: "1 MB", 3 << 19: "1.5 MB", 1 << 30: "1 GB"} {
		if got := model.Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
