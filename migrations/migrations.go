// Package migrations holds the schema as golang-migrate files (NNNNNN_name.up.sql / .down.sql),
// embedded so the binary can migrate the database it runs on. It holds SQL only, no Go logic.
package migrations

import "embed"

// FS is every migration file, for golang-migrate's iofs source.
//
//go:embed *.sql
var FS embed.FS
