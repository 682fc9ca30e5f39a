package webpenc

import "errors"

// ErrUnavailable is returned by Encode in a build without cgo.
var ErrUnavailable = errors.New("webpenc: WebP encoding needs a build with cgo (CGO_ENABLED=1)")
