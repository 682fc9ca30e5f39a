package pngenc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"image"
	"io"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/flate"
)

// Errors returned by Encode.
var (
	// ErrEmptyImage means the image has no pixels; PNG needs at least 1x1.
	ErrEmptyImage = errors.New("pngenc: empty image")
	// ErrImageTooLarge means a side exceeds 2^31-1 pixels, the PNG limit.
	ErrImageTooLarge = errors.New("pngenc: image too large for PNG")
	// ErrBadOptions means an Options field is out of range; the message names it.
	ErrBadOptions = errors.New("pngenc: invalid options")
)

// Levels of the adaptive default (Options.Level 0), chosen per segment by
// the share of zero bytes after filtering; see encoder.levelFor. Measured on
// 4500x5400 images (BenchmarkEncode, TestSizeAgainstImagePNG): on detailed
// images klauspost level 4 is the fastest setting within 1.2x of image/png's
// size; on flat colour the fast klauspost levels (up to 6, which do not
// match lazily) code about three times larger than zlib, while its level 7
// codes within 0.97-1.0x of image/png and takes 20-35% less CPU than
// compress/flate level 6, which this package used for those segments before
// (BenchmarkEncode/flat).
const (
	detailLevel = 4
	flatLevel   = 7
	// A segment is flat when at least flatShareOf/flatShare (90%) of its
	// filtered bytes are zero. Flat artwork and transparent margins are
	// above 98%; smooth gradients, at 75-90%, code as small at level 4 as at
	// level 7 in a third of the time (the reference export: 1.035x
	// image/png's size at 90%, 1.050x at a 75% threshold, with 30% less CPU).
	flatShare   = 10
	flatShareOf = 9
)

// Options tunes Encode. The zero value is ready to use.
type Options struct {
	// DPI is the print resolution, written as a pHYs chunk in pixels per
	// metre (round(DPI / 0.0254), unit 1) on both axes. 0 writes no pHYs;
	// negative, NaN or infinite values are refused.
	DPI float64
	// Concurrency is how many segments are filtered and compressed at once.
	// 0 means runtime.GOMAXPROCS(0); negative values are refused.
	Concurrency int
	// Level is the deflate level of klauspost/compress/flate for every
	// segment, from 1 (fastest, largest) to 9 (slowest, smallest). 0, the
	// default, chooses per segment: level 7 for flat-colour segments (where
	// the faster levels, which do not match lazily, are weak), level 4 for
	// detailed ones, which keeps files within 1.2x of image/png's at a
	// fraction of its time.
	Level int
}

func (o Options) validate() error {
	switch {
	case math.IsNaN(o.DPI) || math.IsInf(o.DPI, 0) || o.DPI < 0:
		return fmt.Errorf("%w: DPI %v must be 0 (no pHYs) or a positive number", ErrBadOptions, o.DPI)
	case o.DPI > 0 && math.Round(o.DPI/0.0254) > math.MaxUint32:
		return fmt.Errorf("%w: DPI %v is beyond what pHYs can hold", ErrBadOptions, o.DPI)
	case o.Concurrency < 0:
		return fmt.Errorf("%w: Concurrency %d must be 0 (GOMAXPROCS) or positive", ErrBadOptions, o.Concurrency)
	case o.Level < 0 || o.Level > 9:
		return fmt.Errorf("%w: Level %d must be 0 (default) or 1..9", ErrBadOptions, o.Level)
	}
	return nil
}

const (
	// segmentTarget is the uncompressed size of a segment. A megabyte keeps
	// the compression lost to restarting the 32 KiB window at every segment
	// under a tenth of a percent, and still gives a print file dozens of
	// segments to spread over the cores.
	segmentTarget = 1 << 20
	// maxDim is the largest width or height a PNG can declare.
	maxDim = 1<<31 - 1
)

// PixelsPerMetre converts a DPI to the pHYs unit, rounding to the nearest
// integer: 300 DPI is 11811 pixels per metre.
func PixelsPerMetre(dpi float64) uint32 {
	return uint32(math.Round(dpi / 0.0254))
}

// Encode writes img to w as an 8-bit RGBA PNG. *image.NRGBA and *image.RGBA
// take fast paths (premultiplied RGBA is converted to PNG's straight alpha
// exactly as image/png does); any other image goes through
// color.NRGBAModel pixel by pixel, so its At must be safe to call from
// several goroutines. On error, w holds a partial file.
func Encode(w io.Writer, img image.Image, opt Options) error {
	if err := opt.validate(); err != nil {
		return err
	}
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	if width <= 0 || height <= 0 {
		return fmt.Errorf("%w: bounds %v", ErrEmptyImage, b)
	}
	if width > maxDim || height > maxDim {
		return fmt.Errorf("%w: %dx%d", ErrImageTooLarge, width, height)
	}
	workers := opt.Concurrency
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}

	if _, err := io.WriteString(w, "\x89PNG\r\n\x1a\n"); err != nil {
		return fmt.Errorf("pngenc: write signature: %w", err)
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8] = 8 // bit depth
	ihdr[9] = 6 // colour type: truecolour with alpha
	// compression, filter and interlace methods are all 0
	if err := writeChunk(w, "IHDR", ihdr[:]); err != nil {
		return err
	}
	if opt.DPI > 0 {
		var phys [9]byte
		ppm := PixelsPerMetre(opt.DPI)
		binary.BigEndian.PutUint32(phys[0:], ppm)
		binary.BigEndian.PutUint32(phys[4:], ppm)
		phys[8] = 1 // unit: metre
		if err := writeChunk(w, "pHYs", phys[:]); err != nil {
			return err
		}
	}
	e := &encoder{
		src:    newRowSource(img),
		rowLen: 4 * width,
		height: height,
		level:  opt.Level,
	}
	e.rowsPerSeg = max(1, segmentTarget/(e.rowLen+1))
	if err := e.writeIDAT(w, workers); err != nil {
		return err
	}
	return writeChunk(w, "IEND", nil)
}

// writeChunk writes one PNG chunk: length, type, data and CRC-32.
func writeChunk(w io.Writer, typ string, data []byte) error {
	var hdr [8]byte
	binary.BigEndian.PutUint32(hdr[:4], uint32(len(data)))
	copy(hdr[4:], typ)
	crc := crc32.Update(crc32.ChecksumIEEE(hdr[4:]), crc32.IEEETable, data)
	if _, err := w.Write(hdr[:]); err != nil {
		return fmt.Errorf("pngenc: write %s chunk: %w", typ, err)
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("pngenc: write %s chunk: %w", typ, err)
	}
	if _, err := w.Write(binary.BigEndian.AppendUint32(hdr[:0], crc)); err != nil {
		return fmt.Errorf("pngenc: write %s chunk: %w", typ, err)
	}
	return nil
}

type encoder struct {
	src        rowSource
	rowLen     int // bytes per row without the filter type byte
	height     int
	rowsPerSeg int
	level      int // 0: adaptive, see levelFor
}

// segment is a run of rows compressed as one independent deflate stream.
type segment struct {
	index  int
	y0, y1 int
	last   bool
	buf    *bytes.Buffer // compressed bytes, the zlib header first in segment 0
	adler  uint32        // Adler-32 of this segment's filtered bytes
	n      int64         // filtered (uncompressed) byte count
	err    error
	done   chan struct{}
}

// worker holds what one goroutine reuses from segment to segment.
type worker struct {
	fw       [10]*flate.Writer // by level, created when first needed
	filters  *filterBufs
	rows     [2][]byte
	zeroRow  []byte // a row of zero bytes: a transparent row
	filtered []byte // the current segment, filtered
}

// writeIDAT filters and compresses the rows in segments on `workers`
// goroutines and writes each segment as one IDAT chunk, in order, as soon as
// it and all before it are done. At most 2*workers segments are in flight,
// which bounds memory to a few megabytes whatever the image size.
func (e *encoder) writeIDAT(w io.Writer, workers int) error {
	nseg := (e.height + e.rowsPerSeg - 1) / e.rowsPerSeg
	workers = min(workers, nseg)
	window := 2 * workers

	free := make(chan *bytes.Buffer, window)
	for range window {
		free <- new(bytes.Buffer)
	}
	jobs := make(chan *segment)
	order := make(chan *segment, window)
	quit := make(chan struct{})

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk := e.newWorker()
			for seg := range jobs {
				seg.err = e.encodeSegment(wk, seg)
				close(seg.done)
			}
		}()
	}
	go func() {
		defer close(order)
		defer close(jobs)
		for i := range nseg {
			var buf *bytes.Buffer
			select {
			case buf = <-free:
			case <-quit:
				return
			}
			seg := &segment{
				index: i,
				y0:    i * e.rowsPerSeg,
				y1:    min(e.height, (i+1)*e.rowsPerSeg),
				last:  i == nseg-1,
				buf:   buf,
				done:  make(chan struct{}),
			}
			jobs <- seg // workers always make progress, so this cannot deadlock
			order <- seg
		}
	}()

	var err error
	adler := uint32(1) // Adler-32 of nothing
	for seg := range order {
		<-seg.done
		if err == nil {
			err = seg.err
			if err == nil {
				adler = adler32Combine(adler, seg.adler, seg.n)
				if seg.last {
					seg.buf.Write(binary.BigEndian.AppendUint32(nil, adler))
				}
				err = writeChunk(w, "IDAT", seg.buf.Bytes())
			}
			if err != nil {
				close(quit)
			}
		}
		free <- seg.buf
	}
	wg.Wait()
	return err
}

func (e *encoder) newWorker() *worker {
	return &worker{
		filters:  newFilterBufs(e.rowLen),
		rows:     [2][]byte{make([]byte, e.rowLen), make([]byte, e.rowLen)},
		zeroRow:  make([]byte, e.rowLen),
		filtered: make([]byte, 0, e.rowsPerSeg*(e.rowLen+1)),
	}
}

// writer returns the worker's deflate writer for a level, creating it once.
func (wk *worker) writer(level int) (*flate.Writer, error) {
	if wk.fw[level] == nil {
		fw, err := flate.NewWriter(io.Discard, level)
		if err != nil {
			return nil, fmt.Errorf("pngenc: deflate level %d: %w", level, err)
		}
		wk.fw[level] = fw
	}
	return wk.fw[level], nil
}

// filterSample is how often the filter type is chosen by image/png's
// heuristic (filterRow, which tries all five): every 8th row of a segment,
// the rows between reuse the last choice. Neighbouring rows almost always
// pick the same filter, so this saves most of the filtering work at no cost
// in size (TestSizeAgainstImagePNG: photo 1.109x either way, flat artwork
// 0.97x instead of 0.96x; the reference export is 1% smaller, one filter
// type in a run deflating better).
const filterSample = 8

// encodeSegment filters rows y0..y1 into the worker's buffer and compresses
// them into seg.buf as a raw deflate stream ending byte-aligned (sync flush),
// or with the final block for the last segment. Row y0-1 is read again as the
// previous row; the filter types depend on the segment alone (filterSample),
// so the output does not depend on how many workers there are.
func (e *encoder) encodeSegment(wk *worker, seg *segment) error {
	filtered := wk.filtered[:0]
	var prev []byte
	if seg.y0 > 0 {
		prev = e.src.row(seg.y0-1, wk.rows[(seg.y0-1)&1])
	}
	var ft byte
	afterZero := false
	for y := seg.y0; y < seg.y1; y++ {
		cur := e.src.row(y, wk.rows[y&1])
		switch {
		case bytes.Equal(cur, wk.zeroRow):
			// A transparent row: type None, all zero, whatever the filter
			// heuristic would tie-break to; a run of them codes as zeroCode.
			filtered = append(filtered, 0)
			filtered = append(filtered, cur...)
			afterZero = true
		case prev == nil || afterZero || (y-seg.y0)%filterSample == 0:
			out := filterRow(wk.filters, cur, prev)
			ft = out[0]
			filtered = append(filtered, out...)
			afterZero = false
		default:
			filtered = append(filtered, filterWith(wk.filters, ft, cur, prev)...)
		}
		prev = cur
	}
	wk.filtered = filtered

	seg.buf.Reset()
	if seg.index == 0 {
		seg.buf.Write(zlibHeader(e.level))
	}
	seg.n = int64(len(filtered))
	zeros := bytes.Count(filtered, []byte{0})
	level := e.levelFor(zeros, len(filtered))
	if zeros == len(filtered) {
		code, err := zeroCode(wk, filtered, level, seg.last)
		if err != nil {
			return fmt.Errorf("pngenc: deflate segment %d: %w", seg.index, err)
		}
		seg.buf.Write(code)
		seg.adler = zeroAdler(seg.n)
		return nil
	}
	if err := deflate(wk, seg.buf, filtered, level, seg.last); err != nil {
		return fmt.Errorf("pngenc: deflate segment %d: %w", seg.index, err)
	}
	seg.adler = adler32.Checksum(filtered)
	return nil
}

// deflate compresses data into w as a raw deflate stream at level, ending
// byte-aligned (sync flush), or with the final block when last.
func deflate(wk *worker, w io.Writer, data []byte, level int, last bool) error {
	fw, err := wk.writer(level)
	if err != nil {
		return err
	}
	fw.Reset(w)
	if _, err := fw.Write(data); err != nil {
		return err
	}
	if last {
		return fw.Close()
	}
	return fw.Flush()
}

// zeroCodes holds the deflate coding of all-zero segments (zeroKey to
// []byte): the transparent margins and gaps of a print file filter to
// megabytes of zero bytes, the same few lengths in every file of a width,
// and deflate codes equal input the same way, so each is compressed once per
// process. At most maxZeroCodes entries, each about a thousandth of its
// length, are kept.
var (
	zeroCodes     sync.Map
	zeroCodeCount atomic.Int32
)

const maxZeroCodes = 512

type zeroKey struct {
	n, level int
	last     bool
}

// zeroCode returns what deflate writes for zeros, a segment of zero bytes,
// at level (see deflate), from zeroCodes when it is there: the same bytes as
// compressing the segment again would give.
func zeroCode(wk *worker, zeros []byte, level int, last bool) ([]byte, error) {
	key := zeroKey{len(zeros), level, last}
	if code, ok := zeroCodes.Load(key); ok {
		return code.([]byte), nil
	}
	var buf bytes.Buffer
	if err := deflate(wk, &buf, zeros, level, last); err != nil {
		return nil, err
	}
	if zeroCodeCount.Add(1) <= maxZeroCodes {
		zeroCodes.Store(key, buf.Bytes())
	}
	return buf.Bytes(), nil
}

// zeroAdler is the Adler-32 of n zero bytes: the A sum stays 1 and the B sum
// adds 1 per byte.
func zeroAdler(n int64) uint32 {
	return uint32(n%adlerMod)<<16 | 1
}

// levelFor picks the deflate level of a segment of n filtered bytes, zeros
// of them zero. With a fixed Options.Level
// that is the level; by default a segment that is mostly zero bytes after
// filtering (flat colour, transparent background) goes to level 7, whose
// lazy matcher codes them several times smaller than the fast levels, while
// detailed segments and gradients go to level 4, which on them is within
// about 10% of zlib's size at a fraction of the time.
func (e *encoder) levelFor(zeros, n int) int {
	if e.level != 0 {
		return e.level
	}
	if zeros*flatShare >= n*flatShareOf {
		return flatLevel
	}
	return detailLevel
}

// zlibHeader returns the two zlib header bytes (RFC 1950) for a 32 KiB
// window, with the level hint zlib itself would write.
func zlibHeader(level int) []byte {
	const cmf = 0x78
	var flg byte
	switch {
	case level == 0: // adaptive: say "default"
		flg = 2 << 6
	case level <= 1:
		flg = 0 << 6
	case level <= 5:
		flg = 1 << 6
	case level == 6:
		flg = 2 << 6
	default:
		flg = 3 << 6
	}
	flg += byte(31 - (uint16(cmf)<<8+uint16(flg))%31)
	return []byte{cmf, flg}
}
