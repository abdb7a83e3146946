// Package pb holds the generated messages of the replication protocol
// between nodes' replica actors (mockgql/cluster/v1/replica.proto).
package pb

//go:generate sh ../../internal/protogen/gen.sh mockgql/cluster/v1
