package http

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/model"
)

// TestWaitFault: the injected latency is waited on the HTTP side with its
// headers set, and a client that leaves ends the wait (nothing written).
func TestWaitFault(t *testing.T) {
	for _, tc := range []struct {
		name       string
		res        model.RuntimeResult
		gone       bool
		want       bool
		wantTiming string
	}{
		{name: "error only", res: model.RuntimeResult{Fault: "error=INTERNAL"}, want: true},
		{name: "short latency", res: model.RuntimeResult{Delay: time.Millisecond, Fault: "latency=1ms"}, want: true, wantTiming: "fault;dur=1"},
		{name: "client gone", res: model.RuntimeResult{Delay: model.MaxFaultLatencyMs * time.Millisecond, Fault: "latency=10000ms"}, gone: true,
			want: false, wantTiming: "fault;dur=10000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.gone {
				cancel()
			}
			w := httptest.NewRecorder()
			c, _ := gin.CreateTestContext(w)
			c.Request = httptest.NewRequest(http.MethodPost, "/mock/s/graphql", nil).WithContext(ctx)
			if got := waitFault(c, &tc.res); got != tc.want {
				t.Fatalf("waitFault = %v, want %v", got, tc.want)
			}
			h := c.Writer.Header()
			if h.Get("X-Mock-Fault-Applied") != tc.res.Fault || h.Get("Server-Timing") != tc.wantTiming {
				t.Fatalf("headers %v", h)
			}
		})
	}
}
