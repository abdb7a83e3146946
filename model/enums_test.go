package model_test

import (
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

func TestPlanRank(t *testing.T) {
	tests := []struct {
		plan  model.Plan
		rank  int
		keys  bool
		quota int64
	}{
		{model.PlanStarter, 0, false, 1000},
		{model.PlanProfessional, 1, true, 100000},
		{model.PlanTeam, 2, true, 1000000},
		{model.PlanEnterprise, 3, true, 0},
		{"FREE", -1, false, 0},
		{"starter", -1, false, 0},
		{"", -1, false, 0},
	}
	l := model.DefaultLimits()
	for _, tt := range tests {
		t.Run(string(tt.plan), func(t *testing.T) {
			if got := tt.plan.Rank(); got != tt.rank {
				t.Errorf("Rank = %d, want %d", got, tt.rank)
			}
			if got := tt.plan.Valid(); got != (tt.rank >= 0) {
				t.Errorf("Valid = %v", got)
			}
			if got := model.KeysAllowed(tt.plan); got != tt.keys {
				t.Errorf("KeysAllowed = %v, want %v", got, tt.keys)
			}
			if got := l.Quota(tt.plan); tt.rank >= 0 && got != tt.quota {
				t.Errorf("Quota = %d, want %d", got, tt.quota)
			}
		})
	}
	for plan, want := range map[model.Plan]int{model.PlanStarter: 5, model.PlanProfessional: 50, model.PlanTeam: 500, model.PlanEnterprise: 500} {
		if got := l.TableLimit(plan); got != want {
			t.Errorf("TableLimit(%s) = %d, want %d", plan, got, want)
		}
	}
}

func TestRoleRank(t *testing.T) {
	roles := []model.Role{model.RoleViewer, model.RoleEditor, model.RoleAdmin, model.RoleOwner}
	for i, r := range roles {
		if r.Rank() != i {
			t.Errorf("%s.Rank() = %d, want %d", r, r.Rank(), i)
		}
		for j, min := range roles {
			if got := r.AtLeast(min); got != (i >= j) {
				t.Errorf("%s.AtLeast(%s) = %v, want %v", r, min, got, i >= j)
			}
		}
	}
	for _, bad := range []model.Role{"", "viewer", "ROOT"} {
		t.Run("unknown "+string(bad), func(t *testing.T) {
			if bad.Rank() != -1 {
				t.Errorf("Rank = %d, want -1", bad.Rank())
			}
			for _, min := range roles {
				if bad.AtLeast(min) {
					t.Errorf("unknown role %q is at least %s", bad, min)
				}
			}
		})
	}
}

func TestScope(t *testing.T) {
	tests := []struct {
		scope                      model.Scope
		valid, runtime, management bool
	}{
		{model.ScopeRuntime, true, true, false},
		{model.ScopeFull, true, true, true},
		{model.ScopeManagement, true, false, true},
		{"ADMIN", false, false, false},
		{"", false, false, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.scope), func(t *testing.T) {
			if tt.scope.Valid() != tt.valid || tt.scope.Runtime() != tt.runtime || tt.scope.Management() != tt.management {
				t.Errorf("Valid, Runtime, Management = %v, %v, %v; want %v, %v, %v",
					tt.scope.Valid(), tt.scope.Runtime(), tt.scope.Management(), tt.valid, tt.runtime, tt.management)
			}
		})
	}
}

func TestScalarType(t *testing.T) {
	tests := []struct {
		typ   model.ScalarType
		valid bool
		gql   string
	}{
		{model.TypeID, true, "ID"},
		{model.TypeString, true, "String"},
		{model.TypeInt, true, "Int"},
		{model.TypeFloat, true, "Float"},
		{model.TypeBoolean, true, "Boolean"},
		{model.TypeDateTime, true, "String"},
		{model.TypeJSON, true, "JSON"},
		{"TEXT", false, "String"},
	}
	for _, tt := range tests {
		t.Run(string(tt.typ), func(t *testing.T) {
			if tt.typ.Valid() != tt.valid || tt.typ.GraphQLName() != tt.gql {
				t.Errorf("Valid, GraphQLName = %v, %q; want %v, %q", tt.typ.Valid(), tt.typ.GraphQLName(), tt.valid, tt.gql)
			}
		})
	}
}

func TestEnumsValid(t *testing.T) {
	for _, m := range []model.MappingType{model.MappingNone, model.MappingSource, model.MappingConstant, model.MappingComputed, model.MappingGenerated} {
		if !m.Valid() {
			t.Errorf("mapping %s not valid", m)
		}
	}
	if model.MappingType("source").Valid() {
		t.Error("mapping types are upper case")
	}
	for k, mutation := range map[model.OperationKind]bool{model.OpList: false, model.OpSingle: false, model.OpCreate: true, model.OpUpdate: true, model.OpDelete: true} {
		if !k.Valid() || k.Mutation() != mutation {
			t.Errorf("%s: Valid %v, Mutation %v", k, k.Valid(), k.Mutation())
		}
	}
	if model.OperationKind("list").Valid() || model.OperationKind("").Mutation() {
		t.Error("unknown operation kind")
	}
	for _, o := range []model.Operator{model.OpEq, model.OpNeq, model.OpGt, model.OpGte, model.OpLt, model.OpLte, model.OpIn, model.OpLike} {
		if !o.Valid() {
			t.Errorf("operator %s not valid", o)
		}
	}
	if model.Operator("EQ").Valid() || model.Operator("").Valid() {
		t.Error("operators are lower case")
	}
}

func TestExpiry(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		expires time.Time
		want    bool
	}{
		{"never", time.Time{}, false},
		{"later", now.Add(time.Second), false},
		{"now", now, true},
		{"earlier", now.Add(-time.Second), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := &model.APIKey{ExpiresAt: tt.expires}
			p := &model.Project{ExpiresAt: tt.expires}
			if k.Expired(now) != tt.want || p.Expired(now) != tt.want {
				t.Errorf("key %v, project %v, want %v", k.Expired(now), p.Expired(now), tt.want)
			}
		})
	}
}

func TestAccountMember(t *testing.T) {
	a := &model.Account{Members: []model.Member{{User: model.User{ID: "u1"}, Role: model.RoleOwner}, {User: model.User{ID: "u2"}, Role: model.RoleViewer}}}
	m := a.Member("u2")
	if m == nil || m.Role != model.RoleViewer {
		t.Fatalf("Member(u2) = %+v", m)
	}
	m.Role = model.RoleEditor
	if a.Members[1].Role != model.RoleEditor {
		t.Error("Member does not point into the account")
	}
	if a.Member("u3") != nil {
		t.Error("Member of a stranger")
	}
}

func TestPrincipalAnonymous(t *testing.T) {
	tests := []struct {
		name string
		p    model.Principal
		want bool
	}{
		{"nothing", model.Principal{}, true},
		{"system only", model.Principal{System: true}, true},
		{"account without user", model.Principal{AccountID: "a"}, true},
		{"user", model.Principal{UserID: "u", AccountID: "a"}, false},
		{"key", model.Principal{AccountID: "a", KeyProjectID: "p", KeyScope: model.ScopeFull}, false},
		{"session", model.Principal{SessionID: "s"}, false},
		{"board", model.Principal{BoardProjectID: "p"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Anonymous(); got != tt.want {
				t.Errorf("Anonymous = %v, want %v", got, tt.want)
			}
		})
	}
}
