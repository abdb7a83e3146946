package http

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/internal/placeholder"
	"github.com/mockgql/mockgql/model"
)

// serveImage answers GET /img/{width}x{height}.{png|svg}?seed=&text= with
// a placeholder image (internal/placeholder): generated image fields point
// here, so pictures load offline and from any origin. The address names
// the bytes, so they are cached for a year; a request that is not such an
// image is 400 BAD_REQUEST saying why.
func (s *Server) serveImage(c *gin.Context) {
	spec, err := placeholder.Parse(c.Param("spec"), c.Query("seed"), c.Query("text"))
	if err != nil {
		s.writeError(c, model.Errorf(model.CodeBadRequest, "placeholder image: %v", err))
		return
	}
	etag := `"` + strconv.Itoa(spec.Width) + "x" + strconv.Itoa(spec.Height) + "." + spec.Format + "-" +
		strconv.FormatUint(spec.Seed, 10) + "-" + strconv.FormatUint(fnv(spec.Text), 16) + `"`
	h := c.Writer.Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", etag)
	h.Set("Access-Control-Allow-Origin", "*") // a picture for any app's page, canvas included
	h.Set("X-Content-Type-Options", "nosniff")
	if spec.Format == "svg" {
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	}
	if c.GetHeader("If-None-Match") == etag {
		c.Status(http.StatusNotModified)
		return
	}
	c.Data(http.StatusOK, spec.ContentType(), spec.Bytes())
}

// fnv is FNV-1a over s.
func fnv(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
