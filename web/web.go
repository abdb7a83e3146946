// Package web holds the modelling board's files, embedded in the binary.
// The board is a single page (board.html) that talks to /graphql with the
// session the browser holds (the mgq_jwt cookie after login, or the
// mgq_board cookie an adoption link set). The read-only preview page
// (preview.html) reads /preview/{slug}/data with the share token of its
// address.
package web

import "embed"

// Files are the board's and the preview page's static files.
//
//go:embed board.html preview.html
var Files embed.FS
