package http

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/golang-jwt/jwt/v5"

	"github.com/mockgql/mockgql/web"
)

// cookieBoard is the board session an adoption link sets: a JWT naming the
// one project it opens, valid until the project expires.
const cookieBoard = "mgq_board"

type boardClaims struct {
	Project string `json:"proj"`
	jwt.RegisteredClaims
}

// serveBoard serves the board's single page for /board/...
func (s *Server) serveBoard(c *gin.Context) {
	b, err := web.Files.ReadFile("board.html")
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.Data(http.StatusOK, "text/html; charset=utf-8", b)
}

// serveAdopt answers the one-time adoption link: it sets the board session
// for the project and redirects to it on the board; a used or expired link
// is 410 ADOPTION_TOKEN_INVALID.
func (s *Server) serveAdopt(c *gin.Context) {
	projectID, expires, err := s.runtime.Adopt(c.Request.Context(), c.Param("token"))
	if err != nil {
		s.writeError(c, err)
		return
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, boardClaims{Project: projectID,
		RegisteredClaims: jwt.RegisteredClaims{Subject: "board", Issuer: "mockgql", ExpiresAt: jwt.NewNumericDate(expires),
			IssuedAt: jwt.NewNumericDate(time.Now())}}).SignedString(s.cfg.JWTSecret)
	if err != nil {
		s.writeError(c, err)
		return
	}
	s.cookieSetter(c)(cookieBoard, token, time.Until(expires))
	c.Redirect(http.StatusFound, "/board/projects/"+projectID)
}

// boardProject reads the board session cookie; "" when absent or invalid.
func (s *Server) boardProject(c *gin.Context) string {
	ck, err := c.Cookie(cookieBoard)
	if err != nil {
		return ""
	}
	var cl boardClaims
	_, err = jwt.ParseWithClaims(ck, &cl, func(*jwt.Token) (any, error) { return s.cfg.JWTSecret, nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithIssuer("mockgql"), jwt.WithSubject("board"), jwt.WithExpirationRequired())
	if err != nil {
		return ""
	}
	return cl.Project
}
