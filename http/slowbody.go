package http

import (
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
)

// Slow clients (slowloris): a request's headers must arrive within
// ReadHeaderTimeout; its body within BodyTimeout of the headers, except a
// dataset upload's, which must only never pause longer than BodyTimeout;
// and one IP may hold at most MaxConnsPerIP connections at once.

// readDeadliner is what net/http's ResponseWriter offers to move the
// connection's read deadline (as http.ResponseController uses it).
type readDeadliner interface{ SetReadDeadline(time.Time) error }

// setBodyDeadline gives r's body BodyTimeout to arrive, measured from now;
// a dataset upload's body gets an idle timeout instead (idleBody). A
// request without a body is left alone. readBody clears the deadline once
// the body is in: a deadline that passed while the handler still ran would
// cancel its context (net/http's background read fails).
func (g *gate) setBodyDeadline(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
		return
	}
	d, ok := w.(readDeadliner)
	if !ok {
		return
	}
	timeout := g.s.cfg.BodyTimeout
	if r.Method == http.MethodPost && len(r.URL.Path) > len("/datasets/") && r.URL.Path[:len("/datasets/")] == "/datasets/" {
		r.Body = &idleBody{ReadCloser: r.Body, d: d, idle: timeout}
	}
	_ = d.SetReadDeadline(time.Now().Add(timeout))
}

// clearBodyDeadline lifts the deadline setBodyDeadline set, once the body
// has been read.
func clearBodyDeadline(c *gin.Context) {
	var w http.ResponseWriter = c.Writer
	for {
		if d, ok := w.(readDeadliner); ok {
			_ = d.SetReadDeadline(time.Time{})
			return
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return
		}
		w = u.Unwrap()
	}
}

// idleBody is a streamed body that may take as long as it likes but never
// pause longer than idle: each read that brings bytes moves the deadline;
// the end of the body lifts it.
type idleBody struct {
	io.ReadCloser
	d    readDeadliner
	idle time.Duration
	last time.Time
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == io.EOF:
		_ = b.d.SetReadDeadline(time.Time{})
	case n > 0 && time.Since(b.last) > time.Second: // at most once a second
		b.last = time.Now()
		_ = b.d.SetReadDeadline(b.last.Add(b.idle))
	}
	return n, err
}

// connLimiter is a listener that holds at most max connections of one
// peer IP at once: a further one is closed as soon as it is accepted. The
// peer is the TCP peer; a trusted proxy, which carries many clients'
// connections, is not capped. Safe for concurrent use.
type connLimiter struct {
	net.Listener
	max    int
	exempt func(ip string) bool
	mu     sync.Mutex
	n      map[string]int
}

// limitConns wraps ln; max <= 0 returns ln itself. Peers for which exempt
// (which may be nil) answers true are not capped.
func limitConns(ln net.Listener, max int, exempt func(ip string) bool) net.Listener {
	if max <= 0 {
		return ln
	}
	if exempt == nil {
		exempt = func(string) bool { return false }
	}
	return &connLimiter{Listener: ln, max: max, exempt: exempt, n: make(map[string]int)}
}

// Accept returns the next connection whose IP holds fewer than max.
func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip, _, _ := net.SplitHostPort(c.RemoteAddr().String())
		if l.exempt(ip) {
			return c, nil
		}
		if l.acquire(ip) {
			return &limitedConn{Conn: c, l: l, ip: ip}, nil
		}
		_ = c.Close()
	}
}

func (l *connLimiter) acquire(ip string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n[ip] >= l.max {
		return false
	}
	l.n[ip]++
	return true
}

func (l *connLimiter) release(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n[ip]--; l.n[ip] <= 0 {
		delete(l.n, ip)
	}
}

// limitedConn gives its IP's slot back when closed (once).
type limitedConn struct {
	net.Conn
	l    *connLimiter
	ip   string
	once sync.Once
}

func (c *limitedConn) Close() error {
	c.once.Do(func() { c.l.release(c.ip) })
	return c.Conn.Close()
}
