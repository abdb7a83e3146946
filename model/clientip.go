package model

import "context"

type clientIPKey struct{}

// WithClientIP returns ctx carrying the client address that the per-IP
// windows count (the HTTP layer sets it on surfaces it hands a plain
// net/http request to, such as /mcp, so that their use cases count
// creations per client like the GraphQL surfaces do).
func WithClientIP(ctx context.Context, ip string) context.Context {
	return context.WithValue(ctx, clientIPKey{}, ip)
}

// ClientIP is the address WithClientIP put in ctx, "" when none.
func ClientIP(ctx context.Context) string {
	ip, _ := ctx.Value(clientIPKey{}).(string)
	return ip
}
