package app

import "context"

// CheckWindow counts a request of client ip against the named per-IP
// window ("management", "public", "create"): 429 TOO_MANY_REQUESTS with
// Retry-After once it is full. A window set to 0, or an unknown IP (""),
// is not counted.
func (s *Edge) CheckWindow(ctx context.Context, window, ip string) error {
	return s.grains.CheckWindow(ctx, window, ip)
}
