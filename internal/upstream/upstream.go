// Package upstream asks a real GraphQL API what its schema is, for the
// drift check (docs/using/testing.md, "Has the mock drifted?"): one
// introspection request to a URL a caller names, bounded in time, bytes
// and redirects, carrying only the headers the caller gives, and refusing
// this node's own and private addresses unless the operator allows them
// (--upstream-private).
package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/mockgql/mockgql/model"
)

// Bounds of one upstream call, stated in docs/reference/bounds.md.
const (
	// Timeout bounds the whole call: connect, redirects, headers and body.
	Timeout = 10 * time.Second
	// MaxBytes bounds the answer's body: an introspection result as large
	// as the import takes.
	MaxBytes = 16 << 20
	// MaxRedirects bounds the redirects followed; each target is checked
	// like the first.
	MaxRedirects = 3
	// MaxHeaders and MaxHeaderBytes bound the headers a caller gives.
	MaxHeaders     = 20
	MaxHeaderBytes = 8 << 10
	// MaxURLBytes bounds the URL.
	MaxURLBytes = 2048
)

// Query is the introspection query sent: the classic one every GraphQL
// server answers (no isRepeatable or specifiedByURL, which older servers
// refuse), with descriptions and deprecated fields.
const Query = `query IntrospectionQuery { __schema { queryType { name } mutationType { name } subscriptionType { name }
  types { ...FullType } directives { name description locations args { ...InputValue } } } }
fragment FullType on __Type { kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue } interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason } possibleTypes { ...TypeRef } }
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`

// Header is one header the caller sends upstream (an Authorization the
// real API needs).
type Header = model.UpstreamHeader

// Client makes upstream calls. The zero value refuses private addresses.
type Client struct {
	// AllowPrivate lets calls reach loopback, private, link-local and this
	// node's own addresses (an upstream on the same network).
	AllowPrivate bool
}

// Introspect posts Query to rawURL with headers and returns the answer's
// body, an introspection result. Refusals are *model.Error: BAD_USER_INPUT
// for a URL, header or address that may not be used, UNAVAILABLE for an
// upstream that cannot be reached or answers no introspection,
// PAYLOAD_TOO_LARGE past MaxBytes, QUERY_TIMEOUT past Timeout.
func (c *Client) Introspect(ctx context.Context, rawURL string, headers []Header) ([]byte, error) {
	u, err := checkURL(rawURL)
	if err != nil {
		return nil, err
	}
	h, err := checkHeaders(headers)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	body, _ := json.Marshal(map[string]any{"query": Query, "operationName": "IntrospectionQuery"})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, model.Errorf(model.CodeBadUserInput, "url: %v", err)
	}
	req.Header = h
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/graphql-response+json, application/json")
	req.Header.Set("User-Agent", "mockgql-drift-check")
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return nil, callError(u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxBytes+1))
	if err != nil {
		return nil, callError(u, err)
	}
	if len(b) > MaxBytes {
		return nil, model.Errorf(model.CodePayloadTooLarge, "%s answered more than %s; an introspection result is at most that", u.Host, model.Bytes(MaxBytes))
	}
	var probe struct {
		Data *struct {
			Schema json.RawMessage `json:"__schema"`
		} `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(b, &probe); err != nil || probe.Data == nil || len(probe.Data.Schema) == 0 || string(probe.Data.Schema) == "null" {
		msg := fmt.Sprintf("HTTP %d", resp.StatusCode)
		if len(probe.Errors) > 0 {
			msg += ": " + model.Truncate(probe.Errors[0].Message, 200)
		}
		return nil, model.Errorf(model.CodeUnavailable, "%s answered no introspection result (%s); is it a GraphQL endpoint with introspection on, and are the headers right?", u.Host, msg)
	}
	return b, nil
}

// httpClient is a client whose every connection, redirects included, is
// checked by dial, with the bounds above and no cookies or proxy.
func (c *Client) httpClient() *http.Client {
	d := &net.Dialer{Timeout: Timeout, Control: c.control}
	tr := &http.Transport{DialContext: d.DialContext, Proxy: nil, ForceAttemptHTTP2: true,
		MaxResponseHeaderBytes: 64 << 10, TLSHandshakeTimeout: Timeout, ResponseHeaderTimeout: Timeout}
	return &http.Client{Transport: tr, Timeout: Timeout, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) > MaxRedirects {
			return model.Errorf(model.CodeUnavailable, "more than %d redirects", MaxRedirects)
		}
		if _, err := checkURL(req.URL.String()); err != nil {
			return err
		}
		// The caller's headers went to the URL it named; a redirect to
		// another host gets none of them.
		if req.URL.Host != via[0].URL.Host {
			req.Header.Del("Authorization")
			req.Header.Del("Cookie")
		}
		return nil
	}}
}

// control refuses, after the name is resolved and before connecting, an
// address the caller may not reach: so a name that resolves to a private
// address (or a redirect to one) is refused too.
func (c *Client) control(_, address string, _ syscall.RawConn) error {
	if c.AllowPrivate {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return model.Errorf(model.CodeBadUserInput, "address %s: %v", address, err)
	}
	if reason := private(ap.Addr().Unmap()); reason != "" {
		return model.Errorf(model.CodeBadUserInput, "the url resolves to %s, %s: the drift check reaches only public addresses unless the operator allows others (--upstream-private)", ap.Addr(), reason)
	}
	return nil
}

// private says why a is not public ("" when it is): loopback, private,
// link-local, unspecified, multicast, or one of this host's interfaces.
func private(a netip.Addr) string {
	switch {
	case a.IsLoopback():
		return "a loopback address"
	case a.IsPrivate(), shared.Contains(a):
		return "a private address"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "a link-local address"
	case a.IsUnspecified(), a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "not a unicast address"
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, ia := range addrs {
			if p, err := netip.ParsePrefix(ia.String()); err == nil && p.Addr().Unmap() == a {
				return "an address of this node"
			}
		}
	}
	return ""
}

// shared is the carrier-grade NAT range, which netip does not call private.
var shared = netip.MustParsePrefix("100.64.0.0/10")

// checkURL parses rawURL: http or https, a host, no user information.
func checkURL(rawURL string) (*url.URL, error) {
	if len(rawURL) > MaxURLBytes {
		return nil, model.Errorf(model.CodeBadUserInput, "url: %d bytes; the limit is %d", len(rawURL), MaxURLBytes)
	}
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, model.Errorf(model.CodeBadUserInput, "url %q: want an http or https URL of a GraphQL endpoint", model.Truncate(rawURL, 100))
	}
	if u.User != nil {
		return nil, model.Errorf(model.CodeBadUserInput, "url: credentials in the URL are not sent; give them as a header")
	}
	return u, nil
}

// checkHeaders returns the caller's headers, bounded; hop-by-hop headers
// and Host are refused.
func checkHeaders(headers []Header) (http.Header, error) {
	if len(headers) > MaxHeaders {
		return nil, model.Errorf(model.CodeBadUserInput, "headers: %d; the limit is %d", len(headers), MaxHeaders)
	}
	h := http.Header{}
	n := 0
	for _, x := range headers {
		name := http.CanonicalHeaderKey(strings.TrimSpace(x.Name))
		n += len(name) + len(x.Value)
		switch {
		case n > MaxHeaderBytes:
			return nil, model.Errorf(model.CodeBadUserInput, "headers: over %s", model.Bytes(MaxHeaderBytes))
		case name == "" || strings.ContainsAny(name, " :\r\n\t") || strings.ContainsAny(x.Value, "\r\n"):
			return nil, model.Errorf(model.CodeBadUserInput, "header %q: not a header name and value", model.Truncate(x.Name, 64))
		}
		switch name {
		case "Host", "Content-Length", "Transfer-Encoding", "Connection", "Upgrade", "Te", "Trailer", "Content-Type":
			return nil, model.Errorf(model.CodeBadUserInput, "header %s is set by the check itself", name)
		}
		h.Add(name, x.Value)
	}
	return h, nil
}

// callError turns a failed call into a refusal naming the host.
func callError(u *url.URL, err error) error {
	var me *model.Error
	if errors.As(err, &me) {
		return me
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		return model.Errorf(model.CodeQueryTimeout, "%s did not answer within %s", u.Host, Timeout)
	}
	return model.Errorf(model.CodeUnavailable, "%s could not be reached: %s", u.Host, model.Truncate(err.Error(), 200))
}
