package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/mockgql/mockgql/model"
)

// serveSSE runs one operation over Server-Sent Events (graphql-sse's
// distinct connections mode): results as "next" events, then "complete";
// a document that cannot run is a "next" event with its errors, as the
// protocol asks, so that EventSource clients can read them. The client
// ends a subscription by closing the connection.
func (s *Server) serveSSE(w http.ResponseWriter, r *http.Request) {
	req, err := sseRequest(r, s.cfg.MaxMessageBytes)
	if err != nil {
		s.refuse(w, r, model.Errorf(model.CodeBadRequest, "%v", err))
		return
	}
	creds := s.credentials(r)
	sess, err := s.rt.Open(r.Context(), r.URL.Path, creds)
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	defer sess.Close()
	release, err := s.admit(creds.ClientIP, sess.Project())
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	defer release()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // proxies must not hold events back
	w.WriteHeader(http.StatusOK)
	out := &sseWriter{w: w, rc: http.NewResponseController(w), timeout: s.cfg.WriteTimeout}
	if out.comment() != nil { // headers out now: EventSource's open event
		return
	}
	s.streamSSE(r, sess, req, out)
}

// streamSSE runs req and writes its results until it completes, the
// client leaves, or the client reads too slowly.
func (s *Server) streamSSE(r *http.Request, sess Session, req Request, out *sseWriter) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stream, err := sess.Run(ctx, req)
	var re *RequestError
	switch {
	case errors.As(err, &re):
		body, _ := json.Marshal(map[string]any{"errors": re.Errors})
		_ = out.event("next", body)
		_ = out.event("complete", nil)
		return
	case err != nil:
		s.logInternal(r, err)
		body, _ := json.Marshal(map[string]any{"errors": []json.RawMessage{refusalJSON(err)}})
		_ = out.event("next", body)
		_ = out.event("complete", nil)
		return
	}
	defer stream.Close()
	results := make(chan json.RawMessage)
	done := make(chan error, 1)
	go func() {
		for {
			res, err := stream.Next(ctx)
			var ee *EventError
			if errors.As(err, &ee) && ctx.Err() == nil { // one result failed: sent with its errors, and on
				s.logInternal(r, ee.Err)
				res, err = errorsResult(ee.Err), nil
			}
			if err != nil {
				done <- err
				return
			}
			select {
			case results <- res:
			case <-ctx.Done():
				done <- ctx.Err()
				return
			}
		}
	}()
	ping := time.NewTicker(s.cfg.PingInterval)
	defer ping.Stop()
	for {
		select {
		case res := <-results:
			if out.event("next", res) != nil {
				return
			}
		case err := <-done:
			switch {
			case err == io.EOF:
				_ = out.event("complete", nil)
			case errors.Is(err, ErrSlowConsumer) || ctx.Err() != nil:
				// a slow consumer's connection just ends: SSE has no close code
			default: // the operation failed: its error, then the end
				s.logInternal(r, err)
				if out.event("next", errorsResult(err)) == nil {
					_ = out.event("complete", nil)
				}
			}
			return
		case <-sess.Ended(): // the credential no longer lets it in: why, then the end
			if out.event("next", errorsResult(sess.Err())) == nil {
				_ = out.event("complete", nil)
			}
			return
		case <-ping.C:
			if out.comment() != nil {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// sseWriter writes events, each within a timeout, flushed at once.
type sseWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (o *sseWriter) event(name string, data []byte) error {
	return o.send("event: " + name + "\ndata: " + string(data) + "\n\n")
}

// comment writes a keep-alive comment line.
func (o *sseWriter) comment() error { return o.send(":\n\n") }

func (o *sseWriter) send(s string) error {
	_ = o.rc.SetWriteDeadline(time.Now().Add(o.timeout))
	if _, err := io.WriteString(o.w, s); err != nil {
		return err
	}
	return o.rc.Flush()
}

// sseRequest reads the operation of an SSE request: a JSON body (POST) or
// the query string (GET: query, variables, operationName, extensions).
func sseRequest(r *http.Request, max int64) (Request, error) {
	var req Request
	if r.Method == http.MethodGet {
		q := r.URL.Query()
		req.Query, req.OperationName = q.Get("query"), q.Get("operationName")
		if v := q.Get("variables"); v != "" {
			req.Variables = json.RawMessage(v)
		}
		if v := q.Get("extensions"); v != "" {
			req.Extensions = json.RawMessage(v)
		}
	} else {
		body, err := io.ReadAll(io.LimitReader(r.Body, max+1))
		if err != nil {
			return req, errors.New("the request body could not be read")
		}
		if int64(len(body)) > max {
			return req, errors.New("the request body is too large")
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return req, errors.New("the request body is not a GraphQL request (JSON with a query)")
		}
	}
	if req.Query == "" {
		return req, errors.New("the request has no query")
	}
	if len(req.Variables) > 0 && !json.Valid(req.Variables) {
		return req, errors.New("variables are not JSON")
	}
	return req, nil
}
