//go:build !cgo

package webpenc

import (
	"image"
	"io"
)

// Available reports whether this build can encode.
const Available = false

// Encode fails: this build has no WebP encoder.
func Encode(io.Writer, image.Image, int) error { return ErrUnavailable }
