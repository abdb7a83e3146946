package graphql

import (
	"github.com/mockgql/mockgql/graphql/exec"
)

// contractResolvers are the resolvers of a contract project's schema.
func (rt *Runtime) contractResolvers() map[string]exec.Resolver {
	m := map[string]exec.Resolver{}
	return m
}
