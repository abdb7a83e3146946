package model

// EdgeLimits are the limits that both the HTTP layer and the grains
// enforce: one type with one set of defaults, embedded in both layers'
// configurations and set once from the command line (cmd/mockgql copies
// the grains' into the HTTP layer's).
type EdgeLimits struct {
	// IPLimit is the runtime requests a minute per client IP (0 = off):
	// the IP grain's window size, and the HTTP gate's switch.
	IPLimit int
	// MaxDatasetBytes bounds one dataset upload (the HTTP layer refuses a
	// larger Content-Length at once; the import stops at it).
	MaxDatasetBytes int64
}

// DefaultEdgeLimits returns the defaults of docs/reference/bounds.md.
func DefaultEdgeLimits() EdgeLimits { return EdgeLimits{IPLimit: 60, MaxDatasetBytes: 1 << 30} }
