package pb

import (
	"testing"

	"github.com/mockgql/mockgql/internal/protogen"
)

// TestGeneratedCurrent: the committed .pb.go files are what
// `go generate ./actors/internal/pb/` makes from the .proto files now.
func TestGeneratedCurrent(t *testing.T) { protogen.Check(t, "mockgql/actors/v1") }
