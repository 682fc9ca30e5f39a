// Package schema holds what Pressroom's processes share as data rather than code: the SQL migrations
// (applied with goose by every binary on start) and the JSON schema of the design document with its
// fixtures. It holds no Go logic beyond embedding.
package schema

import "embed"

// Migrations are the goose SQL migrations, in version order, under the folder "migrations".
//
//go:embed migrations/*.sql
var Migrations embed.FS
