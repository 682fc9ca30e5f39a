// Package imageapi is the contract of the renderer's internal image endpoint, which does the pixel
// work of the bff's image proxy (bff/imageproxy): the bff fetches a foreign image under its own
// guards, then posts the bytes here; the renderer checks the header and, for a thumbnail, decodes,
// fits and encodes it within its memory budget. The package holds the path, the shared key's rules
// and the client; it links no image codec, so the bff may import it. The handler is
// renderer/proxyimage.
//
// POST Path?variant=original|thumb|webp&max_pixels=N, body the image bytes, with
// "Authorization: Bearer <PRESSROOM_RENDERER_KEY>". Answers: 200 with the thumbnail and its
// Content-Type; for variant original 204 with the sniffed type in Content-Type (the bff serves the
// bytes it has). Refusals carry RefusalHeader: 401 bad key, 413 too many bytes or pixels, 415 not an
// image, 503 busy.
package imageapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Path is the endpoint on the renderer's HTTP server (PRESSROOM_RENDERER_HTTP_ADDR).
const Path = "/internal/image-proxy"

// DevKey authenticates the bff to the renderer when PRESSROOM_RENDERER_KEY is unset. It is public
// (it is in the source): a renderer whose HTTP server other machines reach, or in production,
// refuses it.
const DevKey = "pressroom-dev-renderer-key-not-secret-0123456789"

// MinKeyLen is the shortest PRESSROOM_RENDERER_KEY accepted where real keys are required, in bytes.
const MinKeyLen = 32

// KeyVar is the variable both sides read the shared key from.
const KeyVar = "PRESSROOM_RENDERER_KEY"

// Variants the endpoint makes.
const (
	// Original checks the header only: the bff serves the bytes as fetched.
	Original = "original"
	// Thumb fits the image in ThumbWidth x ThumbHeight, JPEG when opaque, PNG otherwise.
	Thumb = "thumb"
	// ThumbWebP is the thumbnail as WebP.
	ThumbWebP = "webp"
)

// Thumbnail box: the "thumb" image size of the screens.
const (
	ThumbWidth  = 160
	ThumbHeight = 200
)

// RefusalHeader names why the renderer refused, one of the Refused* values.
const RefusalHeader = "Pressroom-Refusal"

// Refusal codes.
const (
	RefusedKey    = "key"
	RefusedBytes  = "bytes"
	RefusedPixels = "pixels"
	RefusedType   = "type"
	RefusedBusy   = "busy"
	RefusedInput  = "input"
)

// Errors of a call, as the client reports them.
var (
	ErrTooLarge      = errors.New("imageapi: image too large")
	ErrTooManyPixels = errors.New("imageapi: image has too many pixels")
	ErrNotImage      = errors.New("imageapi: not a PNG, JPEG, WebP or GIF image")
	ErrBusy          = errors.New("imageapi: renderer busy")
	// ErrUnavailable: the renderer could not be reached, refused the key, or failed.
	ErrUnavailable = errors.New("imageapi: renderer unavailable")
)

// Result is a successful answer: the thumbnail (nil for Original) and its type.
type Result struct {
	Body        []byte
	ContentType string
}

// Client calls the endpoint of one renderer.
type Client struct {
	// BaseURL is the renderer's HTTP server, e.g. http://127.0.0.1:8081.
	BaseURL string
	// Key is the shared key (DevKey when empty).
	Key  string
	HTTP *http.Client
}

// Do posts body for variant, refusing images over maxPixels.
func (c *Client) Do(ctx context.Context, body []byte, variant string, maxPixels int64) (Result, error) {
	q := url.Values{"variant": {variant}, "max_pixels": {strconv.FormatInt(maxPixels, 10)}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(c.BaseURL, "/")+Path+"?"+q.Encode(), bytes.NewReader(body))
	if err != nil {
		return Result{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	key := c.Key
	if key == "" {
		key = DevKey
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return Result{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return Result{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	switch resp.StatusCode {
	case http.StatusOK, http.StatusNoContent:
		return Result{Body: out, ContentType: resp.Header.Get("Content-Type")}, nil
	}
	switch resp.Header.Get(RefusalHeader) {
	case RefusedBytes:
		return Result{}, ErrTooLarge
	case RefusedPixels:
		return Result{}, ErrTooManyPixels
	case RefusedType:
		return Result{}, ErrNotImage
	case RefusedBusy:
		return Result{}, ErrBusy
	}
	return Result{}, fmt.Errorf("%w: status %d %s", ErrUnavailable, resp.StatusCode, bytes.TrimSpace(out))
}
