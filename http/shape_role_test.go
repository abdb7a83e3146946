package http

import (
	"context"
	"testing"

	"github.com/mockgql/mockgql/model"
)

// TestShapeAccountMyRole: Account.myRole is the role of the user the
// principal names, and FORBIDDEN for a caller who is no member.
func TestShapeAccountMyRole(t *testing.T) {
	for _, tt := range []struct {
		name string
		p    Principal
		want string // the role, or the error code
	}{
		{"owner", userPrincipal, "OWNER"},
		{"editor", Principal{UserID: "u_2", AccountID: "acc_1"}, "EDITOR"},
		{"no member", Principal{UserID: "u_9", AccountID: "acc_1"}, string(model.CodeForbidden)},
		{"API key", Principal{AccountID: "acc_1", KeyProjectID: "prj_1", KeyScope: model.ScopeFull}, string(model.CodeForbidden)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sh, _ := testShaper()
			sh.principal = tt.p
			v := sh.account(fixtureAccount(), nil).(map[string]any)["myRole"].(lazy)
			got, err := v(context.Background(), nil)
			if err != nil {
				got = string(model.ErrorCode(err))
			}
			if got != tt.want {
				t.Errorf("myRole = %v (%v), want %s", got, err, tt.want)
			}
		})
	}
}
