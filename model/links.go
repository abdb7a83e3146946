package model

import "net/url"

// The public links of a project, built in one place for every surface
// (the management and public GraphQL APIs, the demo's startup lines, MCP).
// base and app are the configured {base_url} and {app_url}, with no
// trailing slash; an empty token leaves the ?token= out.

// RuntimeURL is the mock runtime's address of slug (/mock/{slug}/graphql, docs/reference/routes.md).
func RuntimeURL(base, slug, token string) string {
	return base + "/mock/" + url.PathEscape(slug) + "/graphql" + tokenQuery(token)
}

// PreviewURL is the read-only preview page of slug (/preview/{slug}?token=).
func PreviewURL(app, slug, token string) string {
	return app + "/preview/" + url.PathEscape(slug) + tokenQuery(token)
}

// AdoptionURL is the one-time adoption link of token (/auth/adopt/{token}).
func AdoptionURL(app, token string) string { return app + "/auth/adopt/" + token }

func tokenQuery(token string) string {
	if token == "" {
		return ""
	}
	return "?token=" + url.QueryEscape(token)
}
