package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/mockgql/mockgql/model"
)

// Subprotocol is the graphql-ws library's WebSocket subprotocol.
const Subprotocol = "graphql-transport-ws"

// Close codes of graphql-transport-ws, and 1013 for a slow consumer.
const (
	CloseBadRequest     websocket.StatusCode = 4400
	CloseUnauthorized   websocket.StatusCode = 4401
	CloseForbidden      websocket.StatusCode = 4403
	CloseBadSubprotocol websocket.StatusCode = 4406
	CloseInitTimeout    websocket.StatusCode = 4408
	CloseDuplicateID    websocket.StatusCode = 4409
	CloseTooManyInits   websocket.StatusCode = 4429
	CloseInternal       websocket.StatusCode = 4500
	CloseSlowConsumer   websocket.StatusCode = websocket.StatusTryAgainLater
)

// message is a graphql-transport-ws message.
type message struct {
	Type    string          `json:"type"`
	ID      string          `json:"id,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// closeError closes a connection with a code and reason.
type closeError struct {
	code   websocket.StatusCode
	reason string
}

func (e *closeError) Error() string { return fmt.Sprintf("close %d: %s", e.code, e.reason) }

func closeWith(code websocket.StatusCode, format string, args ...any) error {
	reason := fmt.Sprintf(format, args...)
	if len(reason) > 120 { // a close frame's reason is at most 123 bytes
		reason = reason[:120]
	}
	return &closeError{code, reason}
}

// serveWS runs one graphql-transport-ws connection until it closes.
//
// The origin is not checked: credentials travel in the connection_init
// payload or a header, never in a cookie, so another site's page gains
// nothing by opening the socket (the runtime's CORS rules are for reads
// by scripts, which a WebSocket carries credentials for explicitly).
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{Subprotocol}, InsecureSkipVerify: true})
	if err != nil {
		return // Accept has answered
	}
	if c.Subprotocol() != Subprotocol {
		_ = c.Close(CloseBadSubprotocol, "Subprotocol not acceptable: use "+Subprotocol)
		return
	}
	c.SetReadLimit(s.cfg.MaxMessageBytes)
	conn := &wsConn{s: s, c: c, r: r, ops: map[string]context.CancelFunc{}}
	err = conn.run(r.Context())
	var ce *closeError
	switch {
	case errors.As(err, &ce):
		_ = c.Close(ce.code, ce.reason)
	case err != nil:
		c.CloseNow()
	default:
		_ = c.Close(websocket.StatusNormalClosure, "")
	}
}

// wsConn is one WebSocket connection's state.
type wsConn struct {
	s       *Server
	c       *websocket.Conn
	r       *http.Request
	session Session
	ip      string
	ctx     context.Context // the connection's, set once it is acknowledged: writes outlive an operation's cancel

	mu     sync.Mutex
	ops    map[string]context.CancelFunc // running operations by id
	fatal  error                         // set by an operation that must close the connection
	idleAt time.Time                     // when the last operation ended
	wg     sync.WaitGroup
}

// run reads messages until the connection ends; its error says how.
func (w *wsConn) run(parent context.Context) error {
	ctx, cancel := context.WithCancel(parent)
	defer func() {
		cancel()
		w.wg.Wait()
		if w.session != nil {
			w.session.Close()
		}
	}()
	if err := w.init(ctx); err != nil {
		return err
	}
	w.idleAt = time.Now()
	w.ctx = ctx
	go w.keepAlive(ctx, cancel)
	go w.endWhenRevoked(ctx)
	for {
		msg, err := w.read(ctx)
		if err != nil {
			if f := w.fatalErr(); f != nil {
				return f
			}
			return err
		}
		if err := w.handle(ctx, msg); err != nil {
			return err
		}
	}
}

// init waits for connection_init within the InitTimeout, opens the
// session and acknowledges it. (The timeout closes the connection itself:
// a Read whose context ends drops the connection without a close frame.)
func (w *wsConn) init(ctx context.Context) error {
	late := time.AfterFunc(w.s.cfg.InitTimeout, func() {
		_ = w.c.Close(CloseInitTimeout, "Connection initialisation timeout")
	})
	msg, err := w.read(ctx)
	if !late.Stop() {
		return closeWith(CloseInitTimeout, "Connection initialisation timeout")
	}
	if err != nil {
		return err
	}
	if msg.Type != "connection_init" {
		if msg.Type == "subscribe" {
			return closeWith(CloseUnauthorized, "Unauthorized")
		}
		return closeWith(CloseBadRequest, "expected connection_init, got %q", msg.Type)
	}
	var payload map[string]any
	if len(msg.Payload) > 0 && string(msg.Payload) != "null" {
		if err := json.Unmarshal(msg.Payload, &payload); err != nil {
			return closeWith(CloseBadRequest, "connection_init payload is not an object")
		}
	}
	creds := w.s.credentials(w.r)
	creds.InitPayload = payload
	w.ip = creds.ClientIP
	sess, err := w.s.rt.Open(ctx, w.r.URL.Path, creds)
	switch {
	case err != nil && codeOf(err) == model.CodeInternal:
		// Not a refusal: the server failed (graphql-ws's servers close
		// with 4500 when connecting throws; its client does not retry).
		w.s.logInternal(w.r, err)
		return closeWith(CloseInternal, "Internal server error")
	case err != nil:
		// The code first: a close reason is cut at 123 bytes.
		return closeWith(CloseForbidden, "Forbidden: %s: %s", codeOf(err), refusalText(err))
	}
	w.session = sess
	return w.write(ctx, message{Type: "connection_ack"})
}

// read returns the next message, refusing what is not one.
func (w *wsConn) read(ctx context.Context) (message, error) {
	typ, data, err := w.c.Read(ctx)
	if err != nil {
		if websocket.CloseStatus(err) == websocket.StatusMessageTooBig {
			return message{}, closeWith(CloseBadRequest, "message over %d bytes", w.s.cfg.MaxMessageBytes)
		}
		return message{}, err
	}
	var msg message
	if typ != websocket.MessageText || json.Unmarshal(data, &msg) != nil || msg.Type == "" {
		return message{}, closeWith(CloseBadRequest, "Invalid message received")
	}
	return msg, nil
}

// handle acts on one message after the acknowledgement.
func (w *wsConn) handle(ctx context.Context, msg message) error {
	switch msg.Type {
	case "connection_init":
		return closeWith(CloseTooManyInits, "Too many initialisation requests")
	case "ping":
		return w.write(ctx, message{Type: "pong"})
	case "pong":
		return nil
	case "complete":
		w.stop(msg.ID)
		return nil
	case "subscribe":
		return w.subscribe(ctx, msg)
	}
	return closeWith(CloseBadRequest, "Invalid message received: unknown type %q", msg.Type)
}

// subscribe starts the operation msg asks for under its id.
func (w *wsConn) subscribe(ctx context.Context, msg message) error {
	var req Request
	if msg.ID == "" || json.Unmarshal(msg.Payload, &req) != nil || req.Query == "" {
		return closeWith(CloseBadRequest, "Invalid message received: subscribe needs an id and a payload with a query")
	}
	w.mu.Lock()
	_, dup := w.ops[msg.ID]
	w.mu.Unlock()
	if dup {
		return closeWith(CloseDuplicateID, "Subscriber for %s already exists", msg.ID)
	}
	if w.s.CountOperation != nil { // each start is a runtime request of the client's IP window
		if err := w.s.CountOperation(ctx, w.ip); err != nil {
			w.s.logInternal(w.r, err)
			return w.writeErrors(ctx, msg.ID, []json.RawMessage{refusalJSON(err)})
		}
	}
	w.mu.Lock() // only this goroutine adds operations: msg.ID is still free
	if len(w.ops) >= w.s.cfg.MaxSubscriptions {
		w.mu.Unlock()
		return w.writeErrors(ctx, msg.ID, limitError(w.s.cfg.MaxSubscriptions))
	}
	release, err := w.s.admit(w.ip, w.session.Project())
	if err != nil {
		w.mu.Unlock()
		return w.writeErrors(ctx, msg.ID, []json.RawMessage{refusalJSON(err)})
	}
	octx, cancel := context.WithCancel(ctx)
	w.ops[msg.ID] = cancel
	w.wg.Add(1)
	w.mu.Unlock()
	go func() {
		defer release()
		w.operate(octx, msg.ID, req)
	}()
	return nil
}

// operate runs one operation and sends its results, then complete.
func (w *wsConn) operate(ctx context.Context, id string, req Request) {
	defer w.wg.Done()
	defer w.stop(id)
	stream, err := w.session.Run(ctx, req)
	var re *RequestError
	switch {
	case ctx.Err() != nil: // completed, or ended with its session: said already
		if stream != nil {
			stream.Close()
		}
		return
	case errors.As(err, &re):
		_ = w.writeErrors(w.ctx, id, re.Errors)
		return
	case err != nil:
		w.s.logInternal(w.r, err)
		_ = w.writeErrors(w.ctx, id, []json.RawMessage{refusalJSON(err)})
		return
	}
	defer stream.Close()
	for {
		res, err := stream.Next(ctx)
		var ee *EventError
		switch {
		case ctx.Err() != nil:
			return
		case err == io.EOF:
			_ = w.write(w.ctx, message{Type: "complete", ID: id})
			return
		case errors.Is(err, ErrSlowConsumer):
			w.fail(closeWith(CloseSlowConsumer, "Slow consumer: events for %s dropped; resubscribe", id))
			return
		case errors.As(err, &ee): // one result failed: an execution error, and the operation goes on
			w.s.logInternal(w.r, ee.Err)
			res = errorsResult(ee.Err)
		case err != nil: // this operation failed: it ends, the connection's others go on
			w.s.logInternal(w.r, err)
			var errs struct{ Errors []json.RawMessage }
			_ = json.Unmarshal(errorsResult(err), &errs)
			_ = w.writeErrors(w.ctx, id, errs.Errors)
			return
		}
		if w.write(w.ctx, message{Type: "next", ID: id, Payload: res}) != nil {
			return
		}
	}
}

// endWhenRevoked ends the connection once its session ends (its
// credential no longer lets it in): an error message for each running
// operation, then close 4403, the close of a refused connection_init.
func (w *wsConn) endWhenRevoked(ctx context.Context) {
	select {
	case <-ctx.Done():
		return
	case <-w.session.Ended():
	}
	err := w.session.Err()
	w.mu.Lock()
	ids := make([]string, 0, len(w.ops))
	for id, cancel := range w.ops {
		cancel()
		ids = append(ids, id)
	}
	clear(w.ops)
	w.mu.Unlock()
	for _, id := range ids {
		if w.writeErrors(ctx, id, []json.RawMessage{refusalJSON(err)}) != nil {
			break
		}
	}
	w.fail(closeWith(CloseForbidden, "Forbidden: %s: %s", codeOf(err), refusalText(err)))
}

// stop cancels the operation id, if it runs.
func (w *wsConn) stop(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if cancel, ok := w.ops[id]; ok {
		cancel()
		delete(w.ops, id)
		if len(w.ops) == 0 {
			w.idleAt = time.Now()
		}
	}
}

// fail records why the connection must close and starts closing it,
// which ends run's read. The close handshake waits for the client (up to
// coder/websocket's 5 s), so it runs on its own goroutine and the caller
// frees what it holds at once.
func (w *wsConn) fail(err error) {
	w.mu.Lock()
	first := w.fatal == nil
	if first {
		w.fatal = err
	}
	w.mu.Unlock()
	var ce *closeError
	if first && errors.As(err, &ce) {
		go func() { _ = w.c.Close(ce.code, ce.reason) }()
	}
}

func (w *wsConn) fatalErr() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fatal
}

// keepAlive pings the client every PingInterval and closes a connection
// that does not answer, or that has run no operation for IdleTimeout.
func (w *wsConn) keepAlive(ctx context.Context, cancel context.CancelFunc) {
	t := time.NewTicker(w.s.cfg.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		w.mu.Lock()
		idle := len(w.ops) == 0 && time.Since(w.idleAt) >= w.s.cfg.IdleTimeout
		w.mu.Unlock()
		if idle {
			w.fail(closeWith(websocket.StatusNormalClosure, "idle for %s", w.s.cfg.IdleTimeout))
			return
		}
		pctx, pcancel := context.WithTimeout(ctx, w.s.cfg.PingInterval)
		err := w.c.Ping(pctx)
		pcancel()
		if err != nil && ctx.Err() == nil {
			w.fail(closeWith(websocket.StatusGoingAway, "no answer to ping"))
			return
		}
	}
}

// write sends msg within the WriteTimeout; a client that does not take it
// in time is closed as a slow consumer.
func (w *wsConn) write(ctx context.Context, msg message) error {
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, w.s.cfg.WriteTimeout)
	defer cancel()
	if err := w.c.Write(wctx, websocket.MessageText, data); err != nil {
		if wctx.Err() != nil && ctx.Err() == nil {
			w.fail(closeWith(CloseSlowConsumer, "Slow consumer: a message was not read within %s", w.s.cfg.WriteTimeout))
		}
		return err
	}
	return nil
}

func (w *wsConn) writeErrors(ctx context.Context, id string, errs []json.RawMessage) error {
	payload, err := json.Marshal(errs)
	if err != nil {
		return err
	}
	return w.write(ctx, message{Type: "error", ID: id, Payload: payload})
}
