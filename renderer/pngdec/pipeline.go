package pngdec

import (
	"errors"
	"image"
	"io"

	"github.com/klauspost/compress/zlib"
)

// decoder is one decoding's two stages: inflate (run) and unfilter (unfilterRows).
type decoder struct {
	d       *Decoding
	rowSize int // filtered bytes per row, without the filter type byte
	bpp     int // bytes per pixel of the filtered data
	// into returns where row y's unfiltered bytes go: the image's own pixels
	// when their layout is PNG's (RGBA, grey, palette indices), else a scratch
	// row that convert then writes into the image.
	into    func(y int) []byte
	convert func(y int, raw []byte)
	pal     *image.Paletted // grows its Palette for out-of-range indices
}

type batch struct {
	buf  []byte
	y, n int
}

// newImage allocates the image image/png would return for the header.
func (p *parser) newImage() (*decoder, error) {
	w, h := p.width, p.height
	r := image.Rect(0, 0, w, h)
	dec := &decoder{}
	var img image.Image
	switch p.colorType {
	case ctRGBA:
		m := image.NewNRGBA(r)
		img, dec.bpp = m, 4
		dec.into = func(y int) []byte { return m.Pix[y*m.Stride : y*m.Stride+4*w] }
	case ctGray:
		dec.bpp = 1
		if p.trns {
			m := image.NewNRGBA(r)
			img = m
			ty := p.transp[1]
			dec.convert = func(y int, raw []byte) {
				px := m.Pix[y*m.Stride : y*m.Stride+4*w]
				for x, v := range raw[:w] {
					a := uint8(0xff)
					if v == ty {
						a = 0
					}
					px[4*x], px[4*x+1], px[4*x+2], px[4*x+3] = v, v, v, a
				}
			}
		} else {
			m := image.NewGray(r)
			img = m
			dec.into = func(y int) []byte { return m.Pix[y*m.Stride : y*m.Stride+w] }
		}
	case ctGrayAlpha:
		m := image.NewNRGBA(r)
		img, dec.bpp = m, 2
		dec.convert = func(y int, raw []byte) {
			px := m.Pix[y*m.Stride : y*m.Stride+4*w]
			for x := range w {
				v := raw[2*x]
				px[4*x], px[4*x+1], px[4*x+2], px[4*x+3] = v, v, v, raw[2*x+1]
			}
		}
	case ctTrueColor:
		dec.bpp = 3
		// With a transparent colour some pixels are clear (NRGBA); without, all are opaque, and the
		// bytes are the same as RGBA's.
		var pix []byte
		var stride int
		if p.trns {
			m := image.NewNRGBA(r)
			img, pix, stride = m, m.Pix, m.Stride
		} else {
			m := image.NewRGBA(r)
			img, pix, stride = m, m.Pix, m.Stride
		}
		dec.convert = func(y int, raw []byte) { expandRGB(pix[y*stride:y*stride+4*w], raw, p.trns, p.transp) }
	case ctPaletted:
		m := image.NewPaletted(r, p.palette)
		img, dec.bpp, dec.pal = m, 1, m
		dec.into = func(y int) []byte { return m.Pix[y*m.Stride : y*m.Stride+w] }
	}
	dec.rowSize = dec.bpp * w
	if int64(dec.rowSize) != int64(dec.bpp)*int64(w) {
		return nil, errors.New("pngdec: dimension overflow")
	}
	dec.d = &Decoding{img: img, height: h}
	dec.d.cond.L = &dec.d.mu
	return dec, nil
}

// expandRGB writes the 8-bit RGB pixels raw into dst as RGBA: opaque, or clear where a pixel is the
// tRNS chunk's colour (trns; transp holds it as three 16-bit samples).
func expandRGB(dst, raw []byte, trns bool, transp [6]byte) {
	tr, tg, tb := transp[1], transp[3], transp[5]
	for x := range len(raw) / 3 {
		c := raw[3*x : 3*x+3 : 3*x+3]
		a := uint8(0xff)
		if trns && c[0] == tr && c[1] == tg && c[2] == tb {
			a = 0
		}
		q := dst[4*x : 4*x+4 : 4*x+4]
		q[0], q[1], q[2], q[3] = c[0], c[1], c[2], a
	}
}

// run starts the two stages.
func (dec *decoder) run(p *parser) {
	const inFlight = 4
	free := make(chan []byte, inFlight)
	for range inFlight {
		free <- make([]byte, batchRows*(1+dec.rowSize))
	}
	batches := make(chan batch, inFlight)
	var unfilterErr = make(chan error, 1)
	go func() { unfilterErr <- dec.unfilterRows(batches, free) }()
	go func() {
		err := dec.inflate(p, batches, free)
		close(batches)
		if uerr := <-unfilterErr; uerr != nil {
			err = uerr // an earlier row's error, as image/png would report it first
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		dec.d.finish(err)
	}()
}

// inflate reads the filtered rows in batches and then the rest of the file.
func (dec *decoder) inflate(p *parser, batches chan<- batch, free <-chan []byte) error {
	zr, err := zlib.NewReader(p)
	if err != nil {
		return err
	}
	defer zr.Close()
	h, stride := dec.d.height, 1+dec.rowSize
	for y := 0; y < h; y += batchRows {
		if dec.d.stop.Load() {
			return ErrStopped
		}
		n := min(batchRows, h-y)
		buf := <-free
		if err := readPixels(zr, buf[:n*stride]); err != nil {
			return err
		}
		batches <- batch{buf: buf, y: y, n: n}
	}
	return p.readAfterIDAT(zr)
}

// unfilterRows unfilters every batch into the image and publishes the rows.
// After an error it keeps draining batches (returning their buffers) so the
// inflating stage never blocks, and stops that stage.
func (dec *decoder) unfilterRows(batches <-chan batch, free chan<- []byte) error {
	var err error
	stride := 1 + dec.rowSize
	zero := make([]byte, dec.rowSize)
	prev := zero
	var scratch [2][]byte
	if dec.convert != nil {
		scratch = [2][]byte{make([]byte, dec.rowSize), make([]byte, dec.rowSize)}
	}
	for b := range batches {
		if err == nil {
			for i := range b.n {
				y := b.y + i
				row := b.buf[i*stride : (i+1)*stride]
				var dst []byte
				if dec.convert != nil {
					dst = scratch[y&1]
				} else {
					dst = dec.into(y)
				}
				if !unfilter(row[0], dst, row[1:], prev, dec.bpp) {
					err = errors.New("pngdec: bad filter type")
					dec.d.stop.Store(true)
					break
				}
				if dec.convert != nil {
					dec.convert(y, dst)
				}
				if dec.pal != nil {
					dec.growPalette(dst)
				}
				prev = dst
			}
			if err == nil {
				dec.d.publish(b.y + b.n)
			}
		}
		free <- b.buf
	}
	return err
}

// growPalette extends the palette to cover every index in row, as image/png
// does (the entries past PLTE's are opaque black, or what tRNS made them).
func (dec *decoder) growPalette(row []byte) {
	pal := dec.pal.Palette
	if len(pal) == 256 {
		return
	}
	top := len(pal)
	for _, idx := range row {
		top = max(top, int(idx)+1)
	}
	dec.pal.Palette = pal[:top]
}
