// Package pb holds the generated messages of the grain protocol: one
// request message per grain method, the Header each carries, and the
// Reply every grain answers with (mockgql/actors/v1/*.proto).
package pb

//go:generate sh ../../../internal/protogen/gen.sh mockgql/actors/v1
