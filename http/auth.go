package http

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/golang-jwt/jwt/v5"

	"github.com/mockgql/mockgql/model"
)

// Cookie names (docs/reference/routes.md).
const (
	cookieJWT     = "mgq_jwt"
	cookieSession = "mgq_session"
	keyPrefix     = "mgq_"
)

// KeyChecker is what the routes that take an API key ask.
type KeyChecker interface {
	// AuthKey checks an API key value and returns its record.
	AuthKey(ctx context.Context, value string) (model.APIKey, error)
}

// claims are the JWT's: the user (subject) and their active account.
type claims struct {
	Account string `json:"acc"`
	// Version is the user's token version for the account when the token
	// was issued; the account refuses an older one (Teams.CheckSession).
	Version uint64 `json:"ver,omitempty"`
	jwt.RegisteredClaims
}

// issueJWT signs a session token for a user and account, of the user's
// current token version there.
func (s *Server) issueJWT(userID, accountID string, version uint64) (string, error) {
	now := time.Now()
	t := jwt.NewWithClaims(jwt.SigningMethodHS256, claims{Account: accountID, Version: version,
		RegisteredClaims: jwt.RegisteredClaims{Subject: userID, IssuedAt: jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(s.cfg.JWTTTL)), Issuer: "mockgql"}})
	return t.SignedString(s.cfg.JWTSecret)
}

// parseJWT checks a session token and returns its principal.
func (s *Server) parseJWT(token string) (model.Principal, error) {
	var cl claims
	_, err := jwt.ParseWithClaims(token, &cl, func(t *jwt.Token) (any, error) { return s.cfg.JWTSecret, nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithIssuer("mockgql"), jwt.WithExpirationRequired())
	if err != nil || cl.Subject == "" {
		return model.Principal{}, model.Errorf(model.CodeUnauthenticated, "the session token is invalid or expired; log in again")
	}
	return model.Principal{UserID: cl.Subject, AccountID: cl.Account, TokenVersion: cl.Version}, nil
}

// bearer returns the credential of "Authorization: Bearer <x>" or "".
func bearer(c *gin.Context) string {
	h := c.GetHeader("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// apiKeyOf returns the API key sent as Bearer or X-API-Key, or "".
func apiKeyOf(c *gin.Context) string {
	if k := c.GetHeader("X-Api-Key"); k != "" { // X-API-Key, canonical: no allocation per lookup
		return strings.TrimSpace(k)
	}
	if b := bearer(c); strings.HasPrefix(b, keyPrefix) {
		return b
	}
	return ""
}

// runtimeKeyOf returns the credential of a runtime or actor-token request:
// X-API-Key, else any Bearer value. On the runtime a Bearer can only be an
// API key, so one that does not look like a key is an invalid key
// (API_KEY_INVALID, docs/reference/errors.md), not a missing one (UNAUTHENTICATED).
func runtimeKeyOf(c *gin.Context) string {
	if k := c.GetHeader("X-Api-Key"); k != "" {
		return strings.TrimSpace(k)
	}
	return bearer(c)
}

// managementPrincipal reads the credential of /graphql and /datasets: an API
// key (FULL or MANAGEMENT scope), a Bearer JWT, or the board's mgq_jwt
// cookie; none gives an anonymous principal (signUp and login need none).
// A JWT is checked against its account on every request (membership and
// token version, Teams.CheckSession); one that fails gives a principal
// that carries only the refusal (Principal.Refused).
//
// A request that carries the board's or a session's cookie must come from
// the app's own origin when it says where it comes from (checkOrigin).
func (s *Server) managementPrincipal(c *gin.Context) (model.Principal, error) {
	if err := s.checkOrigin(c.Request); err != nil {
		return model.Principal{}, err
	}
	if k := apiKeyOf(c); k != "" {
		key, err := s.b.Edge.AuthKey(c.Request.Context(), k)
		if err != nil {
			return model.Principal{}, err
		}
		if !key.Scope.Management() {
			return model.Principal{}, model.Errorf(model.CodeScopeInsufficient, "a %s key cannot reach the management API; use a FULL or MANAGEMENT key", key.Scope)
		}
		return model.Principal{AccountID: key.AccountID, KeyProjectID: key.ProjectID, KeyScope: key.Scope}, nil
	}
	token := bearer(c)
	if token == "" {
		if ck, err := c.Cookie(cookieJWT); err == nil {
			token = ck
		}
	}
	p := model.Principal{}
	if token != "" {
		var err error
		if p, err = s.parseJWT(token); err != nil {
			return p, err
		}
		if err := s.b.Management.CheckSession(c.Request.Context(), p); err != nil {
			// Not refused here: logging in again must work with the old cookie.
			p = model.Principal{Refused: err}
		}
	}
	if sess, err := c.Cookie(cookieSession); err == nil && validSession(sess) {
		p.SessionID = sess
	}
	p.BoardProjectID = s.boardProject(c)
	return p, nil
}

// validSession accepts only values shaped like the session IDs we issue.
func validSession(s string) bool {
	if len(s) < 16 || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// cookieSetter returns the SetCookie a surface call uses: HttpOnly,
// SameSite=Lax, Secure when the public address is https.
func (s *Server) cookieSetter(c *gin.Context) func(name, value string, maxAge time.Duration) {
	secure := strings.HasPrefix(s.cfg.BaseURL, "https://")
	return func(name, value string, maxAge time.Duration) {
		ck := &http.Cookie{Name: name, Value: value, Path: "/", HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode}
		if maxAge > 0 {
			ck.MaxAge = int(maxAge / time.Second)
		} else if maxAge < 0 { // delete it (logout)
			ck.MaxAge = -1
		}
		http.SetCookie(c.Writer, ck)
	}
}
