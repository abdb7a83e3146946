package model_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/mockgql/mockgql/model"
)

func TestErrorCodeAndMessage(t *testing.T) {
	notFound := model.Errorf(model.CodeNotFound, "table %q not found", "t1")
	tests := []struct {
		name string
		err  error
		code model.Code
		msg  string
	}{
		{"nil", nil, "", "internal error"},
		{"application error", notFound, model.CodeNotFound, `table "t1" not found`},
		{"no message", &model.Error{Code: model.CodeConflict}, model.CodeConflict, string(model.CodeConflict)},
		{"wrapped", fmt.Errorf("edit: %w", notFound), model.CodeNotFound, `table "t1" not found`},
		{"wrapped twice", fmt.Errorf("grain: %w", fmt.Errorf("edit: %w", notFound)), model.CodeNotFound, `table "t1" not found`},
		{"joined", errors.Join(io.EOF, notFound), model.CodeNotFound, `table "t1" not found`},
		{"plain", io.EOF, model.CodeInternal, "internal error"},
		{"wrapped with %v loses the code", fmt.Errorf("edit: %v", notFound), model.CodeInternal, "internal error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := model.ErrorCode(tt.err); got != tt.code {
				t.Errorf("ErrorCode = %q, want %q", got, tt.code)
			}
			if got := model.ErrorMessage(tt.err); got != tt.msg {
				t.Errorf("ErrorMessage = %q, want %q", got, tt.msg)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	if got := model.Errorf(model.CodeBadUserInput, "slug %q", "X").Error(); got != `BAD_USER_INPUT: slug "X"` {
		t.Errorf("Error() = %q", got)
	}
	if got := (&model.Error{Code: model.CodeNotReady}).Error(); got != "NOT_READY" {
		t.Errorf("Error() without message = %q", got)
	}
	var e *model.Error
	wrapped := fmt.Errorf("ctx: %w", &model.Error{Code: model.CodeTooManyRequests, RetryAfter: 30})
	if !errors.As(wrapped, &e) || e.RetryAfter != 30 {
		t.Errorf("errors.As lost RetryAfter: %+v", e)
	}
}
