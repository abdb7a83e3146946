package http

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// serveGraphiQL answers a browser's navigation to GET /mock/{slug}/graphql
// (Accept asking for text/html before JSON) with GraphiQL on the runtime
// (web/graphiql.html), under the pages' CSP and headers. It makes no grain
// call and counts against no quota: the per-IP window counts the page as
// one runtime request (the gate counts every GET of the route), and the
// introspection and queries the page sends are runtime requests, counted
// as such. It returns false, serving nothing, for any other request: GraphQL
// clients (urql's Accept lists application/graphql-response+json first)
// and GET ?query= from scripts go on to the runtime.
func (s *Server) serveGraphiQL(c *gin.Context) bool {
	if c.Request.Method != http.MethodGet || !wantsHTML(c.GetHeader("Accept")) {
		return false
	}
	c.Writer.Header().Del("Access-Control-Allow-Origin") // the page is for this origin only
	c.Writer.Header().Del("Access-Control-Expose-Headers")
	s.servePage(c, http.StatusOK, "graphiql.html")
	return true
}
