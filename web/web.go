// Package web holds the modelling board's files, embedded in the binary.
//
// The pages are static HTML with no inline script (the pages' Content-
// Security-Policy forbids it): index.html (the landing page at /),
// board.html (the single page of /board/..., which routes itself by its
// address), preview.html (the read-only preview page),
// adopt-invalid.html (a used or expired adoption link) and graphiql.html
// (GraphiQL on a project's runtime, which a browser gets at
// /mock/{slug}/graphql; static/graphiql-runtime.js drives it). Their scripts and
// styles are plain ES modules and CSS under static/, served at
// /board/static/; vendor/<lib>@<version>/ holds the libraries the board
// uses as files at pinned versions with their licenses (GraphiQL and the
// React it needs), served at /board/vendor/ (see vendor/README.md). The board talks only to /graphql, /public-graphql and
// the dataset upload route, with the session the browser holds (the
// mgq_jwt cookie after login, the mgq_board cookie an adoption link set,
// or the mgq_session cookie of a guest project).
package web

import "embed"

// Files are the board's, the landing's and the preview page's files.
//
//go:embed *.html static vendor
var Files embed.FS
