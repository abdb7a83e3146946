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
	max := s.cfg.MaxManagementBodyBytes // importDataset carries a dataset…
	if p.UserID == "" && p.AccountID == "" {
		max = s.cfg.MaxBodyBytes // …which needs an account: an anonymous call gets the public bound
	}
	s.serveSurface(c, s.mgmt, p, max)
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
	s.serveSurface(c, s.public, p, s.cfg.MaxBodyBytes)
}

func (s *Server) serveSurface(c *gin.Context, surface *Surface, p model.Principal, max int64) {
	body, err := surfaceBody(c, max)
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
func surfaceBody(c *gin.Context, max int64) ([]byte, error) {
	if c.Request.Method == http.MethodGet {
		q := c.Query("query")
		if q == "" {
			return nil, model.Errorf(model.CodeBadRequest, "GET /graphql needs ?query=")
		}
		req := exec.Request{Query: q, OperationName: c.Query("operationName")}
		return json.Marshal(req)
	}
	var buf bytes.Buffer
	if err := readBody(c, max, &buf); err != nil {
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
