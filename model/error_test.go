package model_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/mockgql/mockgql/model"
)

func TestErrorCodeAndMessage(t *testing.T) {
	notFound := model.Errorf(model.ErrNotFound, "table %q not found", "t1")
	tests := []struct {
		name      string
		err       error
		code, msg string
	}{
		{"nil", nil, "", "internal error"},
		{"application error", notFound, model.ErrNotFound, `table "t1" not found`},
		{"no message", &model.Error{Code: model.ErrConflict}, model.ErrConflict, model.ErrConflict},
		{"wrapped", fmt.Errorf("edit: %w", notFound), model.ErrNotFound, `table "t1" not found`},
		{"wrapped twice", fmt.Errorf("grain: %w", fmt.Errorf("edit: %w", notFound)), model.ErrNotFound, `table "t1" not found`},
		{"joined", errors.Join(io.EOF, notFound), model.ErrNotFound, `table "t1" not found`},
		{"plain", io.EOF, model.ErrInternal, "internal error"},
		{"wrapped with %v loses the code", fmt.Errorf("edit: %v", notFound), model.ErrInternal, "internal error"},
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
	if got := model.Errorf(model.ErrBadUserInput, "slug %q", "X").Error(); got != `BAD_USER_INPUT: slug "X"` {
		t.Errorf("Error() = %q", got)
	}
	if got := (&model.Error{Code: model.ErrNotReady}).Error(); got != "NOT_READY" {
		t.Errorf("Error() without message = %q", got)
	}
	var e *model.Error
	wrapped := fmt.Errorf("ctx: %w", &model.Error{Code: model.ErrTooManyRequests, RetryAfter: 30})
	if !errors.As(wrapped, &e) || e.RetryAfter != 30 {
		t.Errorf("errors.As lost RetryAfter: %+v", e)
	}
}
