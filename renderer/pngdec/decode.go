package pngdec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"sync"
	"sync/atomic"
)

// Errors besides the format errors, which name what is wrong.
var (
	// ErrStopped is what Wait returns after Close stopped a decoding before
	// its end.
	ErrStopped = errors.New("pngdec: decoding stopped")
	errOrder   = errors.New("pngdec: chunk out of order")
)

const pngHeader = "\x89PNG\r\n\x1a\n"

// Colour types (PNG specification, section 11.2.2).
const (
	ctGray      = 0
	ctTrueColor = 2
	ctPaletted  = 3
	ctGrayAlpha = 4
	ctRGBA      = 6
)

// Decoding stages, in the order the chunks must come (as image/png checks).
const (
	dsSeenIHDR = iota + 1
	dsSeenPLTE
	dsSeentRNS
	dsSeenIDAT
)

// batchRows is how many filtered rows the inflating goroutine hands over at a
// time: few enough that a consumer starts early, enough that the hand-over
// costs nothing next to the rows.
const batchRows = 16

// Decoding is a PNG image being decoded in the background, top row first.
// Image returns the image at once; its first n rows are final when WaitRows(n)
// returns nil, all of it when Wait returns nil. A *image.Paletted image's
// Palette may still grow (for indices past the PLTE entries, as image/png
// grows it) until Wait returns.
type Decoding struct {
	img    image.Image
	height int

	mu    sync.Mutex
	cond  sync.Cond
	ready int // rows final
	done  bool
	err   error

	stop atomic.Bool
}

// Image returns the image being decoded.
func (d *Decoding) Image() image.Image { return d.img }

// WaitRows blocks until the first n rows of the image are final and returns
// nil, or returns the decoding's error if it fails first.
func (d *Decoding) WaitRows(n int) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.ready < min(n, d.height) && !d.done {
		d.cond.Wait()
	}
	if d.ready >= min(n, d.height) && (d.err == nil || !d.done) {
		return nil
	}
	return d.err
}

// Wait blocks until the decoding ends and returns its error: nil when the
// whole file, up to and including IEND, is valid.
func (d *Decoding) Wait() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for !d.done {
		d.cond.Wait()
	}
	return d.err
}

// Close stops the decoding if it is still running and waits for its
// goroutines to end. The reader given to Start is not read after Close.
func (d *Decoding) Close() {
	d.stop.Store(true)
	_ = d.Wait()
}

func (d *Decoding) publish(rows int) {
	d.mu.Lock()
	d.ready = rows
	d.mu.Unlock()
	d.cond.Broadcast()
}

func (d *Decoding) finish(err error) {
	d.mu.Lock()
	d.done = true
	if d.err == nil {
		d.err = err
	}
	d.mu.Unlock()
	d.cond.Broadcast()
}

func finished(img image.Image) *Decoding {
	d := &Decoding{img: img, height: img.Bounds().Dy(), done: true}
	d.ready = d.height
	d.cond.L = &d.mu
	return d
}

// Decode decodes a whole PNG image: image/png's Decode, faster.
func Decode(r io.Reader) (image.Image, error) {
	d, err := Start(r)
	if err != nil {
		return nil, err
	}
	if err := d.Wait(); err != nil {
		return nil, err
	}
	return d.Image(), nil
}

// Start reads the PNG header and the chunks before the image data from r,
// allocates the image and decodes the pixels on two goroutines that read
// the rest of r; r must stay readable until Wait returns (or Close). Images
// this package does not decode itself (bit depths other than 8, interlaced)
// are decoded by image/png before Start returns.
func Start(r io.Reader) (*Decoding, error) {
	var rec bytes.Buffer
	p := &parser{r: io.TeeReader(r, &rec), crc: crc32.NewIEEE()}
	if err := p.readIHDR(); err != nil || p.depth != 8 || p.interlace != 0 {
		// Not ours, or broken: image/png decodes it, or says exactly what is wrong.
		img, err := png.Decode(io.MultiReader(&rec, r))
		if err != nil {
			return nil, err
		}
		return finished(img), nil
	}
	p.r = r
	if err := p.readUntilIDAT(); err != nil {
		return nil, err
	}
	dec, err := p.newImage()
	if err != nil {
		return nil, err
	}
	dec.run(p)
	return dec.d, nil
}

// parser reads chunks the way image/png does, with the same checks.
type parser struct {
	r          io.Reader
	crc        hash.Hash32
	tmp        [3 * 256]byte
	stage      int
	width      int
	height     int
	depth      int
	colorType  int
	interlace  int
	palette    color.Palette
	trns       bool
	transp     [6]byte
	idatLength uint32
}

// chunkHeader reads a chunk's length and type and starts its CRC.
func (p *parser) chunkHeader() (uint32, string, error) {
	if _, err := io.ReadFull(p.r, p.tmp[:8]); err != nil {
		return 0, "", err
	}
	p.crc.Reset()
	p.crc.Write(p.tmp[4:8])
	return binary.BigEndian.Uint32(p.tmp[:4]), string(p.tmp[4:8]), nil
}

func (p *parser) verifyChecksum() error {
	if _, err := io.ReadFull(p.r, p.tmp[:4]); err != nil {
		return err
	}
	if binary.BigEndian.Uint32(p.tmp[:4]) != p.crc.Sum32() {
		return errors.New("pngdec: invalid checksum")
	}
	return nil
}

// readFull reads n bytes of chunk data into tmp and adds them to the CRC.
func (p *parser) readFull(n int) ([]byte, error) {
	b := p.tmp[:n]
	if _, err := io.ReadFull(p.r, b); err != nil {
		return nil, err
	}
	p.crc.Write(b)
	return b, nil
}

// readIHDR reads the signature and the IHDR chunk. Any error sends the file
// to image/png, which reports it.
func (p *parser) readIHDR() error {
	if _, err := io.ReadFull(p.r, p.tmp[:len(pngHeader)]); err != nil || string(p.tmp[:len(pngHeader)]) != pngHeader {
		return errors.New("pngdec: not a PNG file")
	}
	length, typ, err := p.chunkHeader()
	if err != nil {
		return err
	}
	if typ != "IHDR" || length != 13 {
		return errOrder
	}
	b, err := p.readFull(13)
	if err != nil {
		return err
	}
	w, h := int32(binary.BigEndian.Uint32(b[0:4])), int32(binary.BigEndian.Uint32(b[4:8]))
	p.depth, p.colorType, p.interlace = int(b[8]), int(b[9]), int(b[12])
	switch {
	case b[10] != 0 || b[11] != 0 || (p.interlace != 0 && p.interlace != 1):
		return errors.New("pngdec: unsupported compression, filter or interlace method")
	case w <= 0 || h <= 0:
		return errors.New("pngdec: non-positive dimension")
	case int64(w)*int64(h) > (1<<63-1)/8:
		return errors.New("pngdec: dimension overflow")
	}
	switch p.colorType {
	case ctGray, ctTrueColor, ctPaletted, ctGrayAlpha, ctRGBA:
	default:
		return fmt.Errorf("pngdec: colour type %d", p.colorType)
	}
	p.width, p.height = int(w), int(h)
	p.stage = dsSeenIHDR
	return p.verifyChecksum()
}

// readPixels reads the next len(b) bytes of the inflated pixel data; the data ending first is
// "not enough pixel data", as image/png says.
func readPixels(zr io.Reader, b []byte) error {
	if _, err := io.ReadFull(zr, b); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return errors.New("pngdec: not enough pixel data")
		}
		return err
	}
	return nil
}

// readUntilIDAT reads the chunks between IHDR and the first IDAT; a file ending before is
// io.ErrUnexpectedEOF.
func (p *parser) readUntilIDAT() (err error) {
	defer func() {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
	}()
	for {
		length, typ, err := p.chunkHeader()
		if err != nil {
			return err
		}
		switch typ {
		case "IHDR", "IEND":
			return errOrder
		case "PLTE":
			if p.stage != dsSeenIHDR {
				return errOrder
			}
			p.stage = dsSeenPLTE
			err = p.parsePLTE(length)
		case "tRNS":
			if (p.colorType == ctPaletted && p.stage != dsSeenPLTE) ||
				(p.colorType == ctTrueColor && p.stage != dsSeenIHDR && p.stage != dsSeenPLTE) ||
				(p.colorType != ctPaletted && p.colorType != ctTrueColor && p.stage != dsSeenIHDR) {
				return errOrder
			}
			p.stage = dsSeentRNS
			err = p.parsetRNS(length)
		case "IDAT":
			if p.stage == dsSeenIHDR && p.colorType == ctPaletted {
				return errOrder
			}
			p.stage = dsSeenIDAT
			p.idatLength = length
			return nil
		default:
			err = p.skip(length)
		}
		if err != nil {
			return err
		}
	}
}

// skip reads over an ancillary chunk, checking its CRC.
func (p *parser) skip(length uint32) error {
	if length > 0x7fffffff {
		return fmt.Errorf("pngdec: bad chunk length %d", length)
	}
	for length > 0 {
		b, err := p.readFull(min(len(p.tmp), int(length)))
		if err != nil {
			return err
		}
		length -= uint32(len(b))
	}
	return p.verifyChecksum()
}

func (p *parser) parsePLTE(length uint32) error {
	np := int(length / 3)
	if length%3 != 0 || np <= 0 || np > 256 {
		return errors.New("pngdec: bad PLTE length")
	}
	b, err := p.readFull(3 * np)
	if err != nil {
		return err
	}
	switch p.colorType {
	case ctPaletted:
		p.palette = make(color.Palette, 256)
		for i := range p.palette {
			p.palette[i] = color.RGBA{0, 0, 0, 0xff} // out-of-range indices: opaque black, as image/png
		}
		for i := range np {
			p.palette[i] = color.RGBA{b[3*i], b[3*i+1], b[3*i+2], 0xff}
		}
		p.palette = p.palette[:np]
	case ctTrueColor, ctRGBA:
		// optional and ignorable for these colour types
	default:
		return errors.New("pngdec: PLTE, colour type mismatch")
	}
	return p.verifyChecksum()
}

func (p *parser) parsetRNS(length uint32) error {
	switch p.colorType {
	case ctGray, ctTrueColor:
		want := uint32(2)
		if p.colorType == ctTrueColor {
			want = 6
		}
		if length != want {
			return errors.New("pngdec: bad tRNS length")
		}
		b, err := p.readFull(int(length))
		if err != nil {
			return err
		}
		copy(p.transp[:], b)
		p.trns = true
	case ctPaletted:
		if length > 256 {
			return errors.New("pngdec: bad tRNS length")
		}
		b, err := p.readFull(int(length))
		if err != nil {
			return err
		}
		if len(p.palette) < len(b) {
			p.palette = p.palette[:len(b)]
		}
		for i, a := range b {
			c := p.palette[i].(color.RGBA)
			p.palette[i] = color.NRGBA{c.R, c.G, c.B, a}
		}
	default:
		return errors.New("pngdec: tRNS, colour type mismatch")
	}
	return p.verifyChecksum()
}

// Read presents the IDAT chunks as one stream, as image/png does: at the end
// of one IDAT it checks the CRC and continues with the next chunk, which must
// be an IDAT.
func (p *parser) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	for p.idatLength == 0 {
		if err := p.verifyChecksum(); err != nil {
			return 0, err
		}
		length, typ, err := p.chunkHeader()
		if err != nil {
			return 0, err
		}
		if typ != "IDAT" {
			return 0, errors.New("pngdec: not enough pixel data")
		}
		p.idatLength = length
	}
	if int(p.idatLength) < 0 {
		return 0, errors.New("pngdec: IDAT chunk length overflow")
	}
	n, err := p.r.Read(b[:min(len(b), int(p.idatLength))])
	p.crc.Write(b[:n])
	p.idatLength -= uint32(n)
	return n, err
}

// readAfterIDAT checks the end of the zlib stream and reads the chunks after
// the image data up to IEND.
func (p *parser) readAfterIDAT(zr io.Reader) error {
	n, err := 0, error(nil)
	for i := 0; n == 0 && err == nil; i++ {
		if i == 100 {
			return io.ErrNoProgress
		}
		n, err = zr.Read(p.tmp[:1])
	}
	if err != nil && err != io.EOF {
		return fmt.Errorf("pngdec: %w", err)
	}
	if n != 0 || p.idatLength != 0 {
		return errors.New("pngdec: too much pixel data")
	}
	if err := p.verifyChecksum(); err != nil {
		return err
	}
	for {
		length, typ, err := p.chunkHeader()
		if err != nil {
			return err
		}
		switch typ {
		case "IHDR", "PLTE", "tRNS":
			return errOrder
		case "IEND":
			if length != 0 {
				return errors.New("pngdec: bad IEND length")
			}
			return p.verifyChecksum()
		}
		// trailing IDAT chunks are ignored, as image/png ignores them
		if err := p.skip(length); err != nil {
			return err
		}
	}
}
