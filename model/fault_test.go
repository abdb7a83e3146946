package model

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestFaultSettingsCheck(t *testing.T) {
	for _, tc := range []struct {
		name    string
		s       FaultSettings
		wantErr string // a part of the message; "" for none
	}{
		{name: "zero", s: FaultSettings{}},
		{name: "fixed latency", s: FaultSettings{LatencyMinMs: 800, LatencyMaxMs: 800}},
		{name: "range at the bound", s: FaultSettings{LatencyMinMs: 0, LatencyMaxMs: MaxFaultLatencyMs}},
		{name: "graphql error", s: FaultSettings{ErrorRate: 0.5, ErrorCode: CodeInternal, Seed: -3}},
		{name: "http status", s: FaultSettings{ErrorRate: 1, HTTPStatus: 503}},
		{name: "code kept at rate 0", s: FaultSettings{ErrorCode: CodeUnavailable}},
		{name: "min above max", s: FaultSettings{LatencyMinMs: 500, LatencyMaxMs: 100}, wantErr: "faults.latencyMinMs must not be above"},
		{name: "latency above the bound", s: FaultSettings{LatencyMaxMs: MaxFaultLatencyMs + 1}, wantErr: "faults.latencyMaxMs must be 0 to 10000"},
		{name: "negative latency", s: FaultSettings{LatencyMinMs: -1}, wantErr: "faults.latencyMinMs must be 0 to 10000"},
		{name: "rate above 1", s: FaultSettings{ErrorRate: 1.5, ErrorCode: CodeInternal}, wantErr: "faults.errorRate"},
		{name: "negative rate", s: FaultSettings{ErrorRate: -0.1, ErrorCode: CodeInternal}, wantErr: "faults.errorRate"},
		{name: "NaN rate", s: FaultSettings{ErrorRate: math.NaN(), ErrorCode: CodeInternal}, wantErr: "faults.errorRate"},
		{name: "unknown code", s: FaultSettings{ErrorRate: 1, ErrorCode: "TEAPOT"}, wantErr: "faults.errorCode must be one of"},
		{name: "http-only code", s: FaultSettings{ErrorRate: 1, ErrorCode: CodeBadRequest}, wantErr: "faults.errorCode"},
		{name: "status not in the table", s: FaultSettings{ErrorRate: 1, HTTPStatus: 418}, wantErr: "faults.httpStatus must be one of"},
		{name: "both", s: FaultSettings{ErrorRate: 1, ErrorCode: CodeInternal, HTTPStatus: 500}, wantErr: "not both"},
		{name: "neither with a rate", s: FaultSettings{ErrorRate: 0.1}, wantErr: "needs errorCode or httpStatus"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.s.Check()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.wantErr != "" && (ErrorCode(err) != CodeBadUserInput || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("got %v, want BAD_USER_INPUT with %q", err, tc.wantErr)
			}
		})
	}
}

func TestParseFaultHeader(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     FaultHeader
		wantErr  string
	}{
		{name: "absent", in: "", want: FaultHeader{}},
		{name: "none", in: "none", want: FaultHeader{Set: true}},
		{name: "None spaced", in: "  None ", want: FaultHeader{Set: true}},
		{name: "latency", in: "latency=800ms", want: FaultHeader{Set: true, Forced: FaultDecision{Delay: 800 * time.Millisecond}}},
		{name: "latency seconds", in: "latency=1.5s", want: FaultHeader{Set: true, Forced: FaultDecision{Delay: 1500 * time.Millisecond}}},
		{name: "error", in: "error=INTERNAL", want: FaultHeader{Set: true, Forced: FaultDecision{ErrorCode: CodeInternal}}},
		{name: "status", in: "status=503", want: FaultHeader{Set: true, Forced: FaultDecision{HTTPStatus: 503}}},
		{name: "combined ;", in: "latency=300ms;error=UNAVAILABLE",
			want: FaultHeader{Set: true, Forced: FaultDecision{Delay: 300 * time.Millisecond, ErrorCode: CodeUnavailable}}},
		{name: "combined , spaced", in: "status=429 , latency=10ms",
			want: FaultHeader{Set: true, Forced: FaultDecision{Delay: 10 * time.Millisecond, HTTPStatus: 429}}},
		{name: "latency at the bound", in: "latency=10s", want: FaultHeader{Set: true, Forced: FaultDecision{Delay: 10 * time.Second}}},
		{name: "latency above the bound", in: "latency=10001ms", wantErr: "latency must be"},
		{name: "latency without unit", in: "latency=800", wantErr: "latency must be"},
		{name: "negative latency", in: "latency=-1ms", wantErr: "latency must be"},
		{name: "unknown code", in: "error=OOPS", wantErr: "error must be one of"},
		{name: "unknown status", in: "status=418", wantErr: "status must be one of"},
		{name: "status not a number", in: "status=abc", wantErr: "status must be one of"},
		{name: "error and status", in: "error=INTERNAL;status=500", wantErr: "not both"},
		{name: "repeated part", in: "latency=1ms;latency=2ms", wantErr: "each at most once"},
		{name: "no value", in: "latency", wantErr: "is not latency="},
		{name: "unknown part", in: "chaos=1", wantErr: "unknown part"},
		{name: "none with more", in: "none;latency=1ms", wantErr: "X-Mock-Fault"},
		{name: "only separators", in: ";;", wantErr: "nothing to inject"},
		{name: "too long", in: "latency=1ms;" + strings.Repeat(" ", 300), wantErr: "at most 256 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseFaultHeader(tc.in)
			if tc.wantErr != "" {
				if ErrorCode(err) != CodeBadUserInput || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "X-Mock-Fault") {
					t.Fatalf("got %+v, %v; want BAD_USER_INPUT naming X-Mock-Fault with %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// TestDecideFaultDeterministic: the same settings, seed and sequence give
// the same decisions; another seed gives others.
func TestDecideFaultDeterministic(t *testing.T) {
	s := &FaultSettings{LatencyMinMs: 10, LatencyMaxMs: 900, ErrorRate: 0.3, ErrorCode: CodeInternal, Seed: 42}
	other := *s
	other.Seed = 43
	var a, b, c []FaultDecision
	for seq := uint64(0); seq < 200; seq++ {
		a = append(a, DecideFault(s, seq, FaultHeader{}))
		b = append(b, DecideFault(s, seq, FaultHeader{}))
		c = append(c, DecideFault(&other, seq, FaultHeader{}))
	}
	same := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("draw %d differs between two runs: %+v, %+v", i, a[i], b[i])
		}
		if a[i] == c[i] {
			same++
		}
	}
	if same > 20 {
		t.Errorf("seeds 42 and 43 agree on %d of 200 draws", same)
	}
}

// TestDecideFaultDistribution: error rates and latency ranges hold within
// tolerance over many draws.
func TestDecideFaultDistribution(t *testing.T) {
	const n = 20000
	for _, tc := range []struct {
		name string
		s    FaultSettings
	}{
		{name: "rate 0", s: FaultSettings{ErrorRate: 0, ErrorCode: CodeInternal, Seed: 1}},
		{name: "rate 0.1", s: FaultSettings{ErrorRate: 0.1, ErrorCode: CodeInternal, Seed: 2}},
		{name: "rate 0.5 status", s: FaultSettings{ErrorRate: 0.5, HTTPStatus: 503, Seed: 3}},
		{name: "rate 1", s: FaultSettings{ErrorRate: 1, ErrorCode: CodeUnavailable, Seed: 4}},
		{name: "latency range", s: FaultSettings{LatencyMinMs: 100, LatencyMaxMs: 199, Seed: 5}},
		{name: "fixed latency", s: FaultSettings{LatencyMinMs: 800, LatencyMaxMs: 800, Seed: 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs, buckets := 0, make([]int, 10)
			for seq := uint64(0); seq < n; seq++ {
				d := DecideFault(&tc.s, seq, FaultHeader{})
				if d.Replaces() {
					errs++
					if d.ErrorCode != tc.s.ErrorCode || d.HTTPStatus != tc.s.HTTPStatus {
						t.Fatalf("draw %d: %+v", seq, d)
					}
				}
				ms := int(d.Delay / time.Millisecond)
				if ms < tc.s.LatencyMinMs || ms > tc.s.LatencyMaxMs {
					t.Fatalf("draw %d: latency %dms outside [%d, %d]", seq, ms, tc.s.LatencyMinMs, tc.s.LatencyMaxMs)
				}
				if span := tc.s.LatencyMaxMs - tc.s.LatencyMinMs; span >= 10 {
					buckets[(ms-tc.s.LatencyMinMs)*10/(span+1)]++
				}
			}
			if got := float64(errs) / n; math.Abs(got-tc.s.ErrorRate) > 0.015 {
				t.Errorf("error share %.4f, want %.2f ± 0.015", got, tc.s.ErrorRate)
			}
			if tc.s.LatencyMaxMs-tc.s.LatencyMinMs >= 10 {
				for i, b := range buckets {
					if b < n/10*85/100 || b > n/10*115/100 {
						t.Errorf("latency decile %d holds %d of %d draws, want about %d", i, b, n, n/10)
					}
				}
			}
		})
	}
}

// TestDecideFaultHeader: a header replaces the settings; none suppresses them.
func TestDecideFaultHeader(t *testing.T) {
	always := &FaultSettings{LatencyMinMs: 50, LatencyMaxMs: 50, ErrorRate: 1, HTTPStatus: 500}
	for _, tc := range []struct {
		name   string
		s      *FaultSettings
		header string
		want   FaultDecision
	}{
		{name: "no settings, no header", want: FaultDecision{}},
		{name: "settings", s: always, want: FaultDecision{Delay: 50 * time.Millisecond, HTTPStatus: 500}},
		{name: "none suppresses", s: always, header: "none", want: FaultDecision{}},
		{name: "header replaces", s: always, header: "error=NOT_FOUND", want: FaultDecision{ErrorCode: CodeNotFound}},
		{name: "header without settings", header: "latency=800ms", want: FaultDecision{Delay: 800 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := ParseFaultHeader(tc.header)
			if err != nil {
				t.Fatal(err)
			}
			if got := DecideFault(tc.s, 7, h); got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestFaultDecisionString(t *testing.T) {
	for _, tc := range []struct {
		d    FaultDecision
		want string
	}{
		{FaultDecision{}, ""},
		{FaultDecision{Delay: 800 * time.Millisecond}, "latency=800ms"},
		{FaultDecision{ErrorCode: CodeInternal}, "error=INTERNAL"},
		{FaultDecision{Delay: 300 * time.Millisecond, HTTPStatus: 503}, "latency=300ms;status=503"},
	} {
		if got := tc.d.String(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.d, got, tc.want)
		}
		// What String writes, the header reads back.
		if tc.want != "" {
			h, err := ParseFaultHeader(tc.want)
			if err != nil || h.Forced != tc.d {
				t.Errorf("%q reads back as %+v, %v", tc.want, h.Forced, err)
			}
		}
	}
}

func TestFaultRefusal(t *testing.T) {
	for status, code := range faultStatusCodes {
		e := FaultDecision{HTTPStatus: status}.Refusal()
		if e == nil || e.Code != code {
			t.Fatalf("status %d: %+v, want code %s", status, e, code)
		}
		if wantRetry := status == 429 || status == 503; (e.RetryAfter > 0) != wantRetry {
			t.Errorf("status %d: RetryAfter %d", status, e.RetryAfter)
		}
	}
	if (FaultDecision{}).Refusal() != nil {
		t.Error("no status, yet a refusal")
	}
}

// FuzzParseFaultHeader: any header parses or is BAD_USER_INPUT, and what
// parses is within the bounds.
func FuzzParseFaultHeader(f *testing.F) {
	for _, s := range []string{"none", "latency=800ms", "latency=300ms;error=UNAVAILABLE", "status=503,latency=1s", "x", ";"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseFaultHeader(s)
		if err != nil {
			if ErrorCode(err) != CodeBadUserInput {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		d := h.Forced
		if d.Delay < 0 || d.Delay > MaxFaultLatencyMs*time.Millisecond || (d.ErrorCode != "" && d.HTTPStatus != 0) {
			t.Fatalf("%q: %+v", s, d)
		}
	})
}
