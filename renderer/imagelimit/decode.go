package imagelimit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"

	"golang.org/x/image/webp"

	"github.com/pressroom/pressroom/renderer/membudget"
	"github.com/pressroom/pressroom/renderer/pngdec"
)

// Errors returned by Decode and DecodeConfig.
var (
	// ErrTooManyPixels means the header declares more than MaxPixels pixels
	// (or a non-positive size); nothing beyond the header was decoded.
	ErrTooManyPixels = errors.New("imagelimit: image has too many pixels")
	// ErrTooLarge means the input is longer than MaxBytes.
	ErrTooLarge = errors.New("imagelimit: image file too large")
	// ErrUnknownFormat means the input is not PNG, JPEG or WebP.
	ErrUnknownFormat = errors.New("imagelimit: unknown image format (want PNG, JPEG or WebP)")
	// ErrInvalidConfig means the Config failed Validate.
	ErrInvalidConfig = errors.New("imagelimit: invalid config")
)

// Format names returned by Decode and DecodeConfig, as the image package
// names them.
const (
	FormatPNG  = "png"
	FormatJPEG = "jpeg"
	FormatWebP = "webp"
)

type codec struct {
	name         string
	decode       func(io.Reader) (image.Image, error)
	decodeConfig func(io.Reader) (image.Config, error)
}

// sniff picks the codec from the first bytes.
func sniff(head []byte) (codec, bool) {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return codec{FormatPNG, pngdec.Decode, png.DecodeConfig}, true
	case bytes.HasPrefix(head, []byte("\xff\xd8")):
		return codec{FormatJPEG, func(r io.Reader) (image.Image, error) { return jpeg.Decode(r) }, jpeg.DecodeConfig}, true
	case len(head) >= 15 && string(head[:4]) == "RIFF" && string(head[8:15]) == "WEBPVP8":
		return codec{FormatWebP, webp.Decode, webp.DecodeConfig}, true
	}
	return codec{}, false
}

// DecodeConfig reads the header of a PNG, JPEG or WebP image and checks it
// against cfg. The image.Config is returned with the error when only the
// pixel limit failed, so callers can say how large the image was.
func DecodeConfig(r io.Reader, cfg Config) (image.Config, string, error) {
	if err := cfg.Validate(); err != nil {
		return image.Config{}, "", fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	cfg = cfg.withDefaults()
	lr := &limitedReader{r: r, left: cfg.MaxBytes}
	br := bufio.NewReader(lr)
	c, ic, err := decodeConfig(br, lr, cfg)
	return ic, c.name, err
}

func decodeConfig(br *bufio.Reader, lr *limitedReader, cfg Config) (codec, image.Config, error) {
	head, _ := br.Peek(16)
	c, ok := sniff(head)
	if !ok {
		if lr.exceeded {
			return c, image.Config{}, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, cfg.MaxBytes)
		}
		return c, image.Config{}, ErrUnknownFormat
	}
	ic, err := c.decodeConfig(br)
	if err != nil {
		return c, ic, lr.wrap(fmt.Errorf("imagelimit: read %s header: %w", c.name, err), cfg)
	}
	if ic.Width <= 0 || ic.Height <= 0 || int64(ic.Width) > cfg.MaxPixels/int64(ic.Height) {
		return c, ic, fmt.Errorf("%w: %s is %dx%d, limit %d pixels", ErrTooManyPixels, c.name, ic.Width, ic.Height, cfg.MaxPixels)
	}
	return c, ic, nil
}

// Decode decodes a PNG, JPEG or WebP image after checking its header against
// cfg, reading at most cfg.MaxBytes. The header bytes read for the check are
// replayed to the decoder, so r is read once and need not seek.
func Decode(r io.Reader, cfg Config) (image.Image, string, error) {
	c, _, rest, lr, cfg, err := checkHeader(r, cfg)
	if err != nil {
		return nil, c.name, err
	}
	img, err := c.decode(rest)
	if err != nil {
		return nil, c.name, lr.wrap(fmt.Errorf("imagelimit: decode %s: %w", c.name, err), cfg)
	}
	return img, c.name, nil
}

// DecodeWithin is Decode holding, from after the header check to the call of release, the decoded
// image's bytes (four a pixel) of the memory budget ctx carries (package membudget): the decoding
// waits while other tasks hold the budget. Call release once done with the image; after an error it
// is a no-op.
func DecodeWithin(ctx context.Context, r io.Reader, cfg Config) (img image.Image, format string, release func(), err error) {
	c, ic, rest, lr, cfg, err := checkHeader(r, cfg)
	if err != nil {
		return nil, c.name, func() {}, err
	}
	release, err = membudget.Acquire(ctx, membudget.RGBA(ic.Width, ic.Height))
	if err != nil {
		return nil, c.name, func() {}, err
	}
	img, err = c.decode(rest)
	if err != nil {
		release()
		return nil, c.name, func() {}, lr.wrap(fmt.Errorf("imagelimit: decode %s: %w", c.name, err), cfg)
	}
	return img, c.name, release, nil
}

// checkHeader is the header check Decode and DecodeStream share: it
// validates cfg, sniffs the format and checks the header against the limits.
// rest replays the whole input for the decoder, reading through lr, and cfg
// comes back with its defaults filled in.
func checkHeader(r io.Reader, cfg Config) (c codec, ic image.Config, rest io.Reader, lr *limitedReader, _ Config, err error) {
	if err := cfg.Validate(); err != nil {
		return c, ic, nil, nil, cfg, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	cfg = cfg.withDefaults()
	lr = &limitedReader{r: r, left: cfg.MaxBytes}
	header := new(bytes.Buffer)
	// The header check reads through a tee that records what it consumed;
	// for PNG that is a few dozen bytes, for JPEG everything up to the frame
	// header (bounded by MaxBytes).
	br := bufio.NewReader(io.TeeReader(lr, header))
	if c, ic, err = decodeConfig(br, lr, cfg); err != nil {
		return c, ic, nil, lr, cfg, err
	}
	// Replay: what the tee recorded, then the rest of the input. bufio may
	// have read ahead; the recording holds those bytes too, so the replay
	// starts from the recording and continues with the limited reader.
	return c, ic, io.MultiReader(header, lr), lr, cfg, nil
}

// Stream is an image whose rows become final top down while it decodes:
// Image returns it at once, WaitRows(n) returns nil once its first n rows
// are final, Wait returns nil once all of it is (the whole file checked).
// Close stops the decoding and waits for it; call it (or Wait) before the
// reader is closed.
type Stream interface {
	Image() image.Image
	WaitRows(n int) error
	Wait() error
	Close()
}

// DecodeStream is Decode for a consumer that works top down: after the
// same header check, a PNG decodes in the background (renderer/pngdec), so
// the consumer can start on the first rows while the rest is decoded; JPEG
// and WebP are decoded whole before DecodeStream returns. r must stay
// readable until Wait returns or Close. Errors, from DecodeStream or from
// the stream, are Decode's.
func DecodeStream(r io.Reader, cfg Config) (Stream, string, error) {
	c, _, rest, lr, cfg, err := checkHeader(r, cfg)
	if err != nil {
		return nil, c.name, err
	}
	if c.name != FormatPNG {
		img, err := c.decode(rest)
		if err != nil {
			return nil, c.name, lr.wrap(fmt.Errorf("imagelimit: decode %s: %w", c.name, err), cfg)
		}
		return decoded{img}, c.name, nil
	}
	d, err := pngdec.Start(rest)
	if err != nil {
		return nil, c.name, lr.wrap(fmt.Errorf("imagelimit: decode %s: %w", c.name, err), cfg)
	}
	return &limitedStream{Decoding: d, lr: lr, cfg: cfg}, c.name, nil
}

// decoded is a Stream that is already complete.
type decoded struct{ img image.Image }

func (d decoded) Image() image.Image { return d.img }
func (decoded) WaitRows(int) error   { return nil }
func (decoded) Wait() error          { return nil }
func (decoded) Close()               {}

// limitedStream reports a PNG stream's errors as Decode does.
type limitedStream struct {
	*pngdec.Decoding
	lr  *limitedReader
	cfg Config
}

func (s *limitedStream) WaitRows(n int) error { return s.wrap(s.Decoding.WaitRows(n)) }
func (s *limitedStream) Wait() error          { return s.wrap(s.Decoding.Wait()) }

func (s *limitedStream) wrap(err error) error {
	if err == nil {
		return nil
	}
	return s.lr.wrap(fmt.Errorf("imagelimit: decode %s: %w", FormatPNG, err), s.cfg)
}

// limitedReader reads at most left bytes and then fails with ErrTooLarge if
// the input goes on; an input of exactly the limit ends with io.EOF.
type limitedReader struct {
	r        io.Reader
	left     int64
	exceeded bool
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if l.left <= 0 {
		// At the limit: probe one byte to tell the end of the input from more.
		var one [1]byte
		n, err := io.ReadFull(l.r, one[:])
		if n == 0 && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)) {
			return 0, io.EOF
		}
		if n == 0 {
			return 0, err
		}
		l.exceeded = true
		return 0, ErrTooLarge
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// wrap reports ErrTooLarge in place of whatever a decoder made of hitting
// the byte limit (decoders wrap or replace reader errors inconsistently).
func (l *limitedReader) wrap(err error, cfg Config) error {
	if l.exceeded && !errors.Is(err, ErrTooLarge) {
		return fmt.Errorf("%w: more than %d bytes: %w", ErrTooLarge, cfg.MaxBytes, err)
	}
	if l.exceeded {
		return fmt.Errorf("%w (limit %d bytes)", err, cfg.MaxBytes)
	}
	return err
}

// ErrRowsUnsupported means DecodeRows does not read this image row by row (it is no 8-bit
// non-interlaced RGB or RGBA PNG); nothing past the header was decoded, so the caller decodes it whole.
var ErrRowsUnsupported = pngdec.ErrRowsUnsupported

// DecodeRows is Decode for a consumer that needs only a few rows at a time: after the same header
// check, an 8-bit non-interlaced RGB or RGBA PNG is read top down (pngdec.Rows), begin getting its size
// and each its rows as image.NRGBA's bytes, without the image ever being held whole. Any other
// image fails with ErrRowsUnsupported before begin is called. Errors are Decode's, or begin's or
// each's own.
func DecodeRows(r io.Reader, cfg Config, begin func(width, height int) error, each func(y int, row []byte) error) error {
	c, _, rest, lr, cfg, err := checkHeader(r, cfg)
	if err != nil {
		return err
	}
	if c.name != FormatPNG {
		return ErrRowsUnsupported
	}
	var own bool // whether the error came from begin or each
	err = pngdec.Rows(rest, func(w, h int) error {
		if err := begin(w, h); err != nil {
			own = true
			return err
		}
		return nil
	}, func(y int, row []byte) error {
		if err := each(y, row); err != nil {
			own = true
			return err
		}
		return nil
	})
	if err == nil || own || errors.Is(err, ErrRowsUnsupported) {
		return err
	}
	return lr.wrap(fmt.Errorf("imagelimit: decode %s: %w", FormatPNG, err), cfg)
}
