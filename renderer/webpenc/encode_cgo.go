//go:build cgo

package webpenc

import (
	"fmt"
	"image"
	"io"

	"github.com/chai2010/webp"
)

// Available reports whether this build can encode.
const Available = true

// Encode writes img as lossy WebP at quality 0-100.
func Encode(w io.Writer, img image.Image, quality int) error {
	if err := webp.Encode(w, img, &webp.Options{Quality: float32(quality)}); err != nil {
		return fmt.Errorf("webpenc: %w", err)
	}
	return nil
}
