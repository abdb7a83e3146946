package main

import (
	"io"
	"net"
	"net/http"
	_ "net/http/pprof" // BENCH_BARE_PPROF
	"os"

	"github.com/gin-gonic/gin"
)

// serveBare is the reference server: a bare gin handler that answers every
// POST with the same bytes, read once at start from a file. It is what the
// fastest possible mock of the same response costs through the same HTTP
// stack.
func serveBare(addrFile, bodyFile string) error {
	body, err := os.ReadFile(bodyFile)
	if err != nil {
		return err
	}
	return serveGin(addrFile, func(c *gin.Context) {
		_, _ = io.Copy(io.Discard, c.Request.Body)
		c.Data(http.StatusOK, "application/json", body)
	})
}

// serveGin serves handle for every POST on a loopback port, which it
// writes to addrFile.
func serveGin(addrFile string, handle gin.HandlerFunc) error {
	if pp := os.Getenv("BENCH_BARE_PPROF"); pp != "" { // profile the ceiling too
		go func() { _ = http.ListenAndServe(pp, nil) }()
	}
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.POST("/*any", handle)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	if err := os.WriteFile(addrFile, []byte(ln.Addr().String()), 0o600); err != nil {
		return err
	}
	return http.Serve(ln, r)
}
