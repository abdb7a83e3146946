package pb

import (
	"testing"

	"github.com/mockgql/mockgql/internal/protogen"
)

// TestGeneratedCurrent: the committed .pb.go files are what
// `go generate ./cluster/pb/` makes from the .proto files now.
func TestGeneratedCurrent(t *testing.T) { protogen.Check(t, "mockgql/cluster/v1") }
