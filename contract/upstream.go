package contract

// SDLFromIntrospection returns the SDL of an introspection result
// ({"data":{"__schema":…}} or {"__schema":…}), as the import reads one:
// the drift check compares an upstream's schema with a project's this way.
func SDLFromIntrospection(doc []byte) (string, error) {
	return introspectionSDL(doc)
}
