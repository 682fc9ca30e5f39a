// Package webpenc encodes images as lossy WebP, for the variants the screens load.
//
// The encoder is libwebp, compiled from the sources github.com/chai2010/webp bundles, so it needs
// cgo (a C compiler at build time; no system library at run time). No pure-Go lossy WebP encoder
// was available from the module proxy when this was written (github.com/gen2brain/webp, which
// runs libwebp under wazero without cgo, is refused by the proxy; github.com/HugoSmits86/nativewebp
// encodes lossless only). Built without cgo, Encode fails with ErrUnavailable and the renderer
// serves no variants; the renderer's image must therefore be built with CGO_ENABLED=1.
package webpenc
