// Package web holds the modelling board's files, embedded in the binary.
// The board is a single page (board.html) that talks to /graphql with the
// session the browser holds (the mgq_jwt cookie after login, or the
// mgq_board cookie an adoption link set).
package web

import "embed"

// Files are the board's static files.
//
//go:embed board.html
var Files embed.FS
