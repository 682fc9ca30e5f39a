// Package uploadcheck is how a file sent by someone outside becomes an upload: which files are
// taken (PNG, JPEG and WebP, by their name; the renderer checks the bytes), and the uploads row born
// pending with its render:sanitize task in the caller's transaction, so nothing is served before
// the renderer has checked it. The bff's upload calls and the storefront's review photos both record
// their files here, the one owner of that rule (docs/uploads.md).
package uploadcheck
