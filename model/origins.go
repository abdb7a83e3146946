package model

import (
	"net/url"
	"strings"
)

// Bounds of Project.AllowedOrigins.
const (
	MaxAllowedOrigins = 20
	MaxOriginLength   = 200
)

// CheckAllowedOrigins validates the origins of an account project's CORS
// list and returns them normalized (lower-case scheme and host, no
// duplicates, in the given order). Each is scheme://host[:port] with an
// http or https scheme and nothing after the host: no path, query,
// fragment or user info. "*" is refused: an account project answers only
// to API keys, which belong in server-side code (docs/using/runtime.md), so its runtime
// opens only to the pages its owners name. Guest and session projects
// answer any origin and take no list. Errors are BAD_USER_INPUT.
func CheckAllowedOrigins(kind ProjectKind, origins []string) ([]string, error) {
	if kind != KindAccount && len(origins) > 0 {
		return nil, Errorf(CodeBadUserInput, "only account projects have allowed origins: guest and session projects answer every origin")
	}
	if len(origins) > MaxAllowedOrigins {
		return nil, Errorf(CodeBadUserInput, "at most %d allowed origins", MaxAllowedOrigins)
	}
	out := make([]string, 0, len(origins))
	seen := map[string]bool{}
	for _, o := range origins {
		n, err := normalOrigin(o)
		if err != nil {
			return nil, err
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

// normalOrigin checks one origin and returns it in lower case.
func normalOrigin(o string) (string, error) {
	if len(o) > MaxOriginLength {
		return "", Errorf(CodeBadUserInput, "an allowed origin has at most %d characters", MaxOriginLength)
	}
	if strings.TrimSpace(o) == "*" {
		return "", Errorf(CodeBadUserInput, "\"*\" is not allowed on an account project: its API keys belong in server-side code; list the origins of your own pages")
	}
	u, err := url.Parse(strings.TrimSpace(o))
	bad := err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(o, "?") ||
		strings.ContainsAny(u.Host, "*/ ")
	if bad {
		return "", Errorf(CodeBadUserInput, "allowed origin %q: use scheme://host[:port] (http or https, no path), e.g. http://localhost:5173", Clip(o, 80))
	}
	if u.Port() != "" && strings.TrimLeft(u.Port(), "0123456789") != "" {
		return "", Errorf(CodeBadUserInput, "allowed origin %q: the port is not a number", Clip(o, 80))
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}

// CORSPolicy is what a project's runtime answers a browser's Origin
// with: any origin (guest and session projects, and slugs that name no
// project) or only the listed ones (account projects).
type CORSPolicy struct {
	// Listed is true for an account project: only Origins are allowed.
	Listed  bool
	Origins []string
}

// CORS is the project's policy.
func (p *Project) CORS() CORSPolicy {
	if p.Kind != KindAccount {
		return CORSPolicy{}
	}
	return CORSPolicy{Listed: true, Origins: p.AllowedOrigins}
}

// Allows reports whether a browser's Origin header may read the answers.
func (c CORSPolicy) Allows(origin string) bool {
	if !c.Listed {
		return true
	}
	for _, o := range c.Origins {
		if strings.EqualFold(o, origin) {
			return true
		}
	}
	return false
}
