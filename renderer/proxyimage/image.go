package proxyimage

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"

	"github.com/pressroom/pressroom/renderer/imageapi"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/raster"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

// ThumbWebPQuality is the quality of WebP thumbnails, as of every WebP image size.
const ThumbWebPQuality = 90

// ErrNotImage is returned when the upstream bytes are not PNG, JPEG, WebP or GIF.
var ErrNotImage = errors.New("proxyimage: not a PNG, JPEG, WebP or GIF image")

// ErrTooManyPixels is returned when an image declares more than Config.MaxPixels pixels.
var ErrTooManyPixels = errors.New("proxyimage: image has too many pixels")

// sniffType names the image type by its first bytes; the upstream Content-Type is never trusted.
func sniffType(b []byte) (string, bool) {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png", true
	case bytes.HasPrefix(b, []byte("\xff\xd8\xff")):
		return "image/jpeg", true
	case len(b) >= 15 && string(b[:4]) == "RIFF" && string(b[8:15]) == "WEBPVP8":
		return "image/webp", true
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return "image/gif", true
	}
	return "", false
}

// checkImage reads the header of body (of type ct) and refuses images over maxPixels or whose
// header does not decode, without decoding pixels; it answers the declared size.
func checkImage(body []byte, ct string, maxPixels int64) (w, h int, err error) {
	if ct == "image/gif" {
		cfg, err := gif.DecodeConfig(bytes.NewReader(body))
		if err != nil {
			return 0, 0, fmt.Errorf("%w: %w", ErrNotImage, err)
		}
		if int64(cfg.Width)*int64(cfg.Height) > maxPixels {
			return 0, 0, ErrTooManyPixels
		}
		return cfg.Width, cfg.Height, nil
	}
	cfg, _, err := imagelimit.DecodeConfig(bytes.NewReader(body), limits(body, maxPixels))
	switch {
	case errors.Is(err, imagelimit.ErrTooManyPixels):
		return 0, 0, ErrTooManyPixels
	case err != nil:
		return 0, 0, fmt.Errorf("%w: %w", ErrNotImage, err)
	}
	return cfg.Width, cfg.Height, nil
}

func limits(body []byte, maxPixels int64) imagelimit.Config {
	return imagelimit.Config{MaxPixels: maxPixels, MaxBytes: int64(len(body)) + 1}
}

// thumbnail decodes body (already passed by checkImage) and fits it in the thumbnail box,
// never enlarging. asWebP makes it WebP (renderer/webpenc: a cgo build); otherwise opaque results
// are JPEG, others PNG. Only the first frame of a GIF is decoded (gif.Decode stops there), so an
// animation cannot multiply the memory.
func thumbnail(body []byte, ct string, maxPixels int64, asWebP bool) (imageapi.Result, error) {
	var img image.Image
	var err error
	if ct == "image/gif" {
		img, err = gif.Decode(bytes.NewReader(body))
	} else {
		img, _, err = imagelimit.Decode(bytes.NewReader(body), limits(body, maxPixels))
	}
	if errors.Is(err, imagelimit.ErrTooManyPixels) {
		return imageapi.Result{}, ErrTooManyPixels
	}
	if err != nil {
		return imageapi.Result{}, fmt.Errorf("%w: %w", ErrNotImage, err)
	}
	b := img.Bounds()
	var out *image.NRGBA
	if b.Dx() <= imageapi.ThumbWidth && b.Dy() <= imageapi.ThumbHeight {
		out = raster.NRGBA(img)
	} else {
		out = raster.Fit(img, imageapi.ThumbWidth, imageapi.ThumbHeight)
	}
	var buf bytes.Buffer
	var e imageapi.Result
	switch {
	case asWebP:
		e.ContentType = "image/webp"
		err = webpenc.Encode(&buf, out, ThumbWebPQuality)
	case out.Opaque():
		e.ContentType = "image/jpeg"
		err = jpeg.Encode(&buf, out, &jpeg.Options{Quality: 85})
	default:
		e.ContentType = "image/png"
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, out)
	}
	if err != nil {
		return imageapi.Result{}, fmt.Errorf("encode thumbnail: %w", err)
	}
	e.Body = buf.Bytes()
	return e, nil
}
