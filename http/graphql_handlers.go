package http

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// serveManagement answers /graphql (GET with ?query= or POST with a JSON body).
func (s *Server) serveManagement(c *gin.Context) {
	if err := requireJSON(c.Request); err != nil {
		s.writeError(c, err)
		return
	}
	p, err := s.managementPrincipal(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	max, big := s.cfg.MaxManagementBodyBytes, s.cfg.MaxSchemaBodyBytes // importDataset carries a dataset…
	if p.UserID == "" && p.AccountID == "" {
		max, big = s.cfg.MaxBodyBytes, 0 // …which needs an account: an anonymous call gets the public bound
	}
	s.serveSurface(c, s.mgmt, p, max, big)
}

// servePublic answers /public-graphql; the credential is the mgq_session cookie.
func (s *Server) servePublic(c *gin.Context) {
	err := requireJSON(c.Request)
	if err == nil {
		err = s.checkOrigin(c.Request)
	}
	if err != nil {
		s.writeError(c, err)
		return
	}
	p := model.Principal{}
	if sess, err := c.Cookie(cookieSession); err == nil && validSession(sess) {
		p.SessionID = sess
	}
	big := s.cfg.MaxSchemaBodyBytes // a schema import needs a session
	if p.SessionID == "" {
		big = 0
	}
	s.serveSurface(c, s.public, p, s.cfg.MaxBodyBytes, big)
}

// serveSurface answers a request of surface; its body is at most max
// bytes, or big for a schema import (schema_body.go; 0: never more).
func (s *Server) serveSurface(c *gin.Context, surface *Surface, p model.Principal, max, big int64) {
	body, err := s.surfaceBody(c, max, big)
	if err != nil {
		s.writeError(c, err)
		return
	}
	// A mutation's time; Surface.execute bounds validation and queries by
	// the shorter ManagementQueryTimeout.
	ctx, cancel := context.WithTimeout(c.Request.Context(), s.cfg.ManagementMutationTimeout)
	defer cancel()
	res, err := surface.execute(ctx, &Call{Principal: p, Body: body, SetCookie: s.cookieSetter(c),
		QueryOnly: c.Request.Method == http.MethodGet, ClientIP: c.ClientIP()}, true)
	if err != nil {
		s.writeError(c, err)
		return
	}
	s.writeResult(c, res)
	if res.Held > 0 { // written (or the connection is gone): the budget gets its bytes back
		s.cfg.Bounds.Budget.Give(res.Held)
	}
}

// surfaceBody is the POST body, or for GET the query string as a JSON body.
func (s *Server) surfaceBody(c *gin.Context, max, big int64) ([]byte, error) {
	if c.Request.Method == http.MethodGet {
		q := c.Query("query")
		if q == "" {
			return nil, model.Errorf(model.CodeBadRequest, "GET /graphql needs ?query=")
		}
		req := exec.Request{Query: q, OperationName: c.Query("operationName")}
		return json.Marshal(req)
	}
	var buf bytes.Buffer
	if err := s.readSurfaceBody(c, max, big, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeResult answers a surface's GraphQL result: 400 with the error body
// when the document was refused, else 200 (a large one in pieces, see
// writeAnswer).
func (s *Server) writeResult(c *gin.Context, res *exec.Result) {
	out := res.AppendJSON(nil)
	if res.Refused {
		s.writeRefusedGraphQL(c, out, res.Code)
		return
	}
	writeAnswer(c, out, s.cfg.BodyTimeout)
}
