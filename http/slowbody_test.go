package http

import (
	"net"
	"testing"
	"time"
)

// TestConnLimiter: one peer IP holds at most max connections; a closed
// one frees its slot (once, however often it is closed).
func TestConnLimiter(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := limitConns(ln, 2, nil)
	defer l.Close()
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	held := func(first func(net.Conn)) int {
		n := 0
		for {
			select {
			case c := <-accepted:
				if n == 0 && first != nil {
					first(c)
				}
				n++
			case <-time.After(200 * time.Millisecond):
				return n
			}
		}
	}
	for range 4 {
		dial()
	}
	var first net.Conn
	if n := held(func(c net.Conn) { first = c }); n != 2 {
		t.Fatalf("%d connections accepted, want 2", n)
	}
	_ = first.Close()
	_ = first.Close() // frees one slot, not two
	dial()
	dial()
	if n := held(nil); n != 1 {
		t.Fatalf("%d more connections accepted after one closed, want 1", n)
	}
}

// TestConnLimiterExempt: a trusted proxy's connections are not capped. A
// connection the limiter drops would leave Accept waiting for the next, so
// the listener's deadline turns that into a failure instead of a hang.
func TestConnLimiterExempt(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := limitConns(ln, 1, func(ip string) bool { return ip == "127.0.0.1" })
	defer l.Close()
	if err := ln.(*net.TCPListener).SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		a, err := l.Accept()
		if err != nil {
			t.Fatalf("connection %d of an exempt peer not accepted: %v", i+1, err)
		}
		defer a.Close()
	}
}
