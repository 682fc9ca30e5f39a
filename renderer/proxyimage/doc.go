// Package proxyimage is the renderer's internal endpoint for the bff's image proxy (the contract is
// renderer/imageapi): it takes the bytes the bff fetched, sniffs their type (PNG, JPEG, WebP, GIF,
// never the upstream's Content-Type), reads the header with renderer/imagelimit to refuse images
// over the pixel cap before any pixel is allocated, and for a thumbnail decodes, fits and encodes it
// (WebP through renderer/webpenc, else JPEG when opaque and PNG when not).
//
// It is no open proxy nor an open CPU sink: every call must carry the shared key
// (PRESSROOM_RENDERER_KEY, compared in constant time), bodies over Config.MaxBytes are refused
// before they are read, at most Config.Concurrency images are worked on at once (a call beyond it
// waits for its turn while the caller waits), and decoded pixels are taken from the renderer's
// memory budget (renderer/membudget) that its render tasks share.
package proxyimage
