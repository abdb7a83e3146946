package model_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestContractCheck: row counts are bounded per table and per project;
// settings name entities once.
func TestContractCheck(t *testing.T) {
	entities := map[string]bool{}
	var full []model.ContractTable
	for i := 0; i < 11; i++ {
		name := fmt.Sprintf("T%d", i)
		entities[name] = true
		full = append(full, model.ContractTable{Type: name, Rows: model.MaxContractTableRows})
	}
	cases := []struct {
		name string
		c    model.Contract
		code model.Code
	}{
		{"defaults", model.Contract{}, ""},
		{"a table at its bound", model.Contract{Tables: []model.ContractTable{{Type: "T1", Rows: model.MaxContractTableRows}}}, ""},
		{"a table past its bound", model.Contract{Tables: []model.ContractTable{{Type: "T1", Rows: model.MaxContractTableRows + 1}}}, model.CodeBadUserInput},
		{"negative", model.Contract{Tables: []model.ContractTable{{Type: "T1", Rows: -1}}}, model.CodeBadUserInput},
		{"the project past its bound", model.Contract{Tables: full}, model.CodeLimitReached},
		{"not an entity", model.Contract{Tables: []model.ContractTable{{Type: "Nope", Rows: 1}}}, model.CodeBadUserInput},
		{"twice", model.Contract{Tables: []model.ContractTable{{Type: "T1"}, {Type: "T1"}}}, model.CodeBadUserInput},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.c.Check(entities)
			var me *model.Error
			switch {
			case c.code == "" && err != nil:
				t.Fatal(err)
			case c.code != "" && (!errors.As(err, &me) || me.Code != c.code):
				t.Fatalf("got %v, want %s", err, c.code)
			}
		})
	}
	if got := (&model.Contract{Tables: []model.ContractTable{{Type: "T1", Rows: 3}}}).RowsOf("T2"); got != model.DefaultContractRows {
		t.Errorf("RowsOf an unset entity = %d", got)
	}
}

// TestContractImportCodeLength: the import code of an entity's rows is a
// valid import code whatever the length of the type's name (it was 71
// characters for names over 55, and such projects did not compile).
func TestContractImportCodeLength(t *testing.T) {
	for _, n := range []int{1, 55, 56, 70, 128} {
		typ := "T" + strings.Repeat("x", n-1)
		code := model.ContractImportCode(typ)
		if len(code) > 64 { // dataset.MaxImportCodeLen
			t.Errorf("a name of %d: %q has %d characters", n, code, len(code))
		}
		if other := model.ContractImportCode(typ + "y"); n > 55 && other == code {
			t.Errorf("two long names share the code %q", code)
		}
	}
}

// TestContractGeneratorsBounded: a contract holds at most
// MaxContractGenerators generator choices.
func TestContractGeneratorsBounded(t *testing.T) {
	c := &model.Contract{Generators: make([]model.ContractGenerator, model.MaxContractGenerators)}
	if err := c.Check(nil); err != nil {
		t.Fatalf("%d choices: %v", model.MaxContractGenerators, err)
	}
	c.Generators = append(c.Generators, model.ContractGenerator{})
	if err := c.Check(nil); model.ErrorCode(err) != model.CodeLimitReached {
		t.Fatalf("%d choices: %v, want LIMIT_REACHED", len(c.Generators), err)
	}
}
