package pngmeta_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/renderer/pngmeta"
)

// chunk builds one PNG chunk with a correct CRC.
func chunk(typ string, data []byte) []byte {
	b := make([]byte, 8, 12+len(data))
	binary.BigEndian.PutUint32(b, uint32(len(data)))
	copy(b[4:], typ)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[4:]))
}

type rawChunk struct {
	typ string
	raw []byte // length, type, data and CRC
}

// splitChunks parses a well-formed PNG into its chunks (test helper, no checks
// beyond what it needs).
func splitChunks(t *testing.T, b []byte) []rawChunk {
	t.Helper()
	if !bytes.HasPrefix(b, []byte(pngmeta.Signature)) {
		t.Fatalf("no PNG signature")
	}
	var out []rawChunk
	for p := b[8:]; len(p) > 0; {
		if len(p) < 12 {
			t.Fatalf("short chunk")
		}
		n := int(binary.BigEndian.Uint32(p))
		out = append(out, rawChunk{typ: string(p[4:8]), raw: p[:12+n]})
		p = p[12+n:]
	}
	return out
}

func joinChunks(cs []rawChunk) []byte {
	b := []byte(pngmeta.Signature)
	for _, c := range cs {
		b = append(b, c.raw...)
	}
	return b
}

// fileWith writes in to path and opens it for reading until the test ends.
func fileWith(tb testing.TB, path string, in []byte) *os.File {
	tb.Helper()
	if err := os.WriteFile(path, in, 0o600); err != nil {
		tb.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	return f
}

// stripFile writes in to a file and strips it from there, the way the CLI
// does, so that Strip maps it instead of streaming it.
func stripFile(t *testing.T, in []byte) ([]byte, pngmeta.Stats, error) {
	t.Helper()
	var out bytes.Buffer
	st, err := pngmeta.Strip(&out, fileWith(t, filepath.Join(t.TempDir(), "in.png"), in))
	return out.Bytes(), st, err
}

// withText inserts text chunks after IHDR, before IEND and, when the file has
// more than one IDAT, between the first two.
func withText(t *testing.T, b []byte) []byte {
	t.Helper()
	cs := splitChunks(t, b)
	var out []rawChunk
	xmp := chunk("iTXt", append([]byte("XML:com.adobe.xmp\x00\x00\x00\x00\x00"), strings.Repeat("<x:xmpmeta/>", 100)...))
	idats := 0
	for _, c := range cs {
		if c.typ == "IEND" {
			out = append(out, rawChunk{"zTXt", chunk("zTXt", []byte("Comment\x00\x00x\x9c\x03\x00\x00\x00\x00\x01"))})
		}
		out = append(out, c)
		switch c.typ {
		case "IHDR":
			out = append(out, rawChunk{"tEXt", chunk("tEXt", []byte("Software\x00pressroom test"))}, rawChunk{"iTXt", xmp})
		case "IDAT":
			idats++
			if idats == 1 {
				out = append(out, rawChunk{"tEXt", chunk("tEXt", []byte("Title\x00between IDATs"))})
			}
		}
	}
	return joinChunks(out)
}

func pngSuite(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("go env GOROOT: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "src", "image", "png", "testdata", "pngsuite")
	files, err := filepath.Glob(filepath.Join(dir, "*.png"))
	if err != nil || len(files) == 0 {
		t.Skipf("Go's PNG suite not found under %s: %v", dir, err)
	}
	return files
}

func samePixels(a, b image.Image) error {
	if a.Bounds() != b.Bounds() {
		return fmt.Errorf("bounds %v != %v", a.Bounds(), b.Bounds())
	}
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return fmt.Errorf("pixel (%d,%d) differs", x, y)
			}
		}
	}
	return nil
}

func TestStripPNGSuite(t *testing.T) {
	for _, path := range pngSuite(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			orig, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				name  string
				input []byte
			}{
				{"as-is", orig},
				{"with-text", withText(t, orig)},
			} {
				t.Run(tc.name, func(t *testing.T) {
					var out bytes.Buffer
					st, err := pngmeta.Strip(&out, bytes.NewReader(tc.input))
					if err != nil {
						t.Fatalf("Strip: %v", err)
					}
					// Every non-text chunk of the input is kept byte for byte, in order.
					var want []rawChunk
					for _, c := range splitChunks(t, tc.input) {
						if !pngmeta.IsTextChunk(c.typ) {
							want = append(want, c)
						}
					}
					if !bytes.Equal(out.Bytes(), joinChunks(want)) {
						t.Fatalf("output is not the input's non-text chunks")
					}
					if st.ChunksKept != len(want) || st.BytesWritten != int64(out.Len()) ||
						st.BytesRemoved != int64(len(tc.input)-out.Len()) {
						t.Fatalf("stats %+v do not match %d kept chunks, %d bytes out of %d", st, len(want), out.Len(), len(tc.input))
					}
					a, err := png.Decode(bytes.NewReader(orig))
					if err != nil {
						t.Fatalf("decode original: %v", err)
					}
					b, err := png.Decode(&out)
					if err != nil {
						t.Fatalf("decode stripped: %v", err)
					}
					if err := samePixels(a, b); err != nil {
						t.Fatal(err)
					}
					fromFile, fileStats, err := stripFile(t, tc.input)
					if err != nil {
						t.Fatalf("Strip from a file: %v", err)
					}
					if !bytes.Equal(fromFile, joinChunks(want)) || fileStats != st {
						t.Fatalf("from a file: %d bytes, stats %+v; from a reader: %d bytes, stats %+v", len(fromFile), fileStats, len(joinChunks(want)), st)
					}
				})
			}
		})
	}
}

// smallPNG encodes a w x h image with some alpha.
func smallPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x * 7), uint8(y * 13), uint8(x ^ y), uint8(128 + x)})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestStripErrors(t *testing.T) {
	base := smallPNG(t, 16, 16)
	cs := splitChunks(t, base) // IHDR, IDAT..., IEND
	ihdr, iend := cs[0].raw, cs[len(cs)-1].raw
	var idat []byte
	for _, c := range cs[1 : len(cs)-1] {
		idat = append(idat, c.raw...)
	}
	sig := []byte(pngmeta.Signature)
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	badCRC := bytes.Clone(idat)
	badCRC[len(badCRC)-1] ^= 0xff
	flipped := bytes.Clone(idat)
	flipped[10] ^= 0x01 // a data byte: CRC no longer matches
	pastEnd := bytes.Clone(idat[:8])
	binary.BigEndian.PutUint32(pastEnd, 1<<20) // claims 1 MiB, file ends first
	huge := bytes.Clone(idat[:12])
	binary.BigEndian.PutUint32(huge, 1<<31) // over 2^31-1
	badType := chunk("tE1t", []byte("x"))
	shortIHDR := chunk("IHDR", make([]byte, 12))
	longIEND := chunk("IEND", []byte{0})

	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, pngmeta.ErrNotPNG},
		{"short signature", sig[:5], pngmeta.ErrNotPNG},
		{"jpeg", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), pngmeta.ErrNotPNG},
		{"signature only", sig, pngmeta.ErrTruncated},
		{"no IEND", cat(sig, ihdr, idat), pngmeta.ErrTruncated},
		{"truncated chunk header", cat(sig, ihdr, idat[:5]), pngmeta.ErrTruncated},
		{"truncated chunk data", cat(sig, ihdr, idat[:len(idat)/2]), pngmeta.ErrTruncated},
		{"missing CRC", cat(sig, ihdr, idat[:len(idat)-2]), pngmeta.ErrTruncated},
		{"length past end of file", cat(sig, ihdr, pastEnd, []byte("short")), pngmeta.ErrTruncated},
		{"length over 2^31-1", cat(sig, ihdr, huge, iend), pngmeta.ErrBadLength},
		{"bad CRC", cat(sig, ihdr, badCRC, iend), pngmeta.ErrBadCRC},
		{"corrupt data byte", cat(sig, ihdr, flipped, iend), pngmeta.ErrBadCRC},
		{"bad chunk type", cat(sig, ihdr, badType, idat, iend), pngmeta.ErrBadChunkType},
		{"IDAT before IHDR", cat(sig, idat, ihdr, iend), pngmeta.ErrChunkOrder},
		{"text before IHDR", cat(sig, chunk("tEXt", []byte("a\x00b")), ihdr, idat, iend), pngmeta.ErrChunkOrder},
		{"two IHDR", cat(sig, ihdr, ihdr, idat, iend), pngmeta.ErrChunkOrder},
		{"IEND without IDAT", cat(sig, ihdr, iend), pngmeta.ErrChunkOrder},
		{"IHDR wrong length", cat(sig, shortIHDR, idat, iend), pngmeta.ErrBadLength},
		{"IEND with data", cat(sig, ihdr, idat, longIEND), pngmeta.ErrBadLength},
		{"data after IEND", cat(sig, ihdr, idat, iend, []byte{0}), pngmeta.ErrTrailingData},
		{"chunk after IEND", cat(sig, ihdr, idat, iend, chunk("tEXt", []byte("a\x00b"))), pngmeta.ErrTrailingData},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pngmeta.Strip(io.Discard, bytes.NewReader(tc.in))
			if !errors.Is(err, tc.want) {
				t.Fatalf("Strip error = %v, want %v", err, tc.want)
			}
			// A file is mapped rather than streamed: same checks, same message.
			_, _, fileErr := stripFile(t, tc.in)
			if fileErr == nil || fileErr.Error() != err.Error() {
				t.Fatalf("Strip from a file: error %v, from a reader: %v", fileErr, err)
			}
		})
	}
}

func TestStripThousandsOfTextChunks(t *testing.T) {
	base := smallPNG(t, 8, 8)
	cs := splitChunks(t, base)
	const n = 5000
	text := chunk("tEXt", []byte("Comment\x00lots of these"))
	var in []byte
	in = append(in, pngmeta.Signature...)
	in = append(in, cs[0].raw...)
	for range n {
		in = append(in, text...)
	}
	for _, c := range cs[1:] {
		in = append(in, c.raw...)
	}
	var out bytes.Buffer
	st, err := pngmeta.Strip(&out, bytes.NewReader(in))
	if err != nil {
		t.Fatalf("Strip: %v", err)
	}
	if st.ChunksRemoved != n || st.BytesRemoved != int64(n*len(text)) {
		t.Errorf("removed %d chunks / %d bytes, want %d / %d", st.ChunksRemoved, st.BytesRemoved, n, n*len(text))
	}
	if !bytes.Equal(out.Bytes(), base) {
		t.Errorf("output differs from the file without text chunks")
	}
}

func TestStripFileOffsetAndPipe(t *testing.T) {
	png := withText(t, smallPNG(t, 16, 16))
	var want bytes.Buffer
	wantStats, err := pngmeta.Strip(&want, bytes.NewReader(png))
	if err != nil {
		t.Fatal(err)
	}

	t.Run("file read from its current offset", func(t *testing.T) {
		const prefix = "not part of the PNG"
		path := filepath.Join(t.TempDir(), "in")
		if err := os.WriteFile(path, append([]byte(prefix), png...), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.Seek(int64(len(prefix)), io.SeekStart); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		st, err := pngmeta.Strip(&out, f)
		if err != nil || st != wantStats || !bytes.Equal(out.Bytes(), want.Bytes()) {
			t.Fatalf("Strip = %+v, %v; output equal: %v", st, err, bytes.Equal(out.Bytes(), want.Bytes()))
		}
		if pos, _ := f.Seek(0, io.SeekCurrent); pos != int64(len(prefix)+len(png)) {
			t.Errorf("file offset after Strip = %d, want the end, %d", pos, len(prefix)+len(png))
		}
	})

	t.Run("pipe is streamed", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		go func() {
			w.Write(png)
			w.Close()
		}()
		var out bytes.Buffer
		st, err := pngmeta.Strip(&out, r)
		if err != nil || st != wantStats || !bytes.Equal(out.Bytes(), want.Bytes()) {
			t.Fatalf("Strip = %+v, %v; output equal: %v", st, err, bytes.Equal(out.Bytes(), want.Bytes()))
		}
	})
}

// truncatingWriter empties the file being stripped on its first Write, as
// another process truncating the input would.
type truncatingWriter struct{ path string }

func (w truncatingWriter) Write(p []byte) (int, error) { return len(p), os.Truncate(w.path, 0) }

// TestStripFileShrinks checks that a mapped input cut short while Strip reads
// it is refused with ErrTruncated rather than crashing the process.
func TestStripFileShrinks(t *testing.T) {
	cs := splitChunks(t, smallPNG(t, 1, 1))
	idat := chunk("IDAT", make([]byte, 1<<20)) // pages well past the first
	in := joinChunks([]rawChunk{cs[0], {"tEXt", chunk("tEXt", []byte("a\x00b"))}, {"IDAT", idat}, cs[len(cs)-1]})
	path := filepath.Join(t.TempDir(), "in.png")
	f := fileWith(t, path, in)
	// The kept signature and IHDR are written when the tEXt chunk is dropped,
	// before the IDAT is read.
	_, err := pngmeta.Strip(truncatingWriter{path}, f)
	if !errors.Is(err, pngmeta.ErrTruncated) || !strings.Contains(err.Error(), "shrank") {
		t.Fatalf("Strip error = %v, want ErrTruncated for a file that shrank", err)
	}
}

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestStripConstantMemory streams a PNG with a 256 MiB IDAT and a 64 MiB iTXt
// chunk that never exists in memory, and checks Strip allocated only its
// buffers.
func TestStripConstantMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 320 MiB")
	}
	cs := splitChunks(t, smallPNG(t, 1, 1))
	big := func(typ string, n int64) io.Reader {
		h := make([]byte, 8)
		binary.BigEndian.PutUint32(h, uint32(n))
		copy(h[4:], typ)
		crc := crc32.ChecksumIEEE(h[4:])
		buf := make([]byte, 1<<20)
		for left := n; left > 0; left -= int64(len(buf)) {
			crc = crc32.Update(crc, crc32.IEEETable, buf[:min(left, int64(len(buf)))])
		}
		return io.MultiReader(bytes.NewReader(h), io.LimitReader(zeros{}, n), bytes.NewReader(binary.BigEndian.AppendUint32(nil, crc)))
	}
	src := io.MultiReader(
		strings.NewReader(pngmeta.Signature), bytes.NewReader(cs[0].raw),
		big("iTXt", 64<<20), big("IDAT", 256<<20),
		bytes.NewReader(cs[len(cs)-1].raw),
	)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	st, err := pngmeta.Strip(io.Discard, src)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("Strip: %v", err)
	}
	if st.BytesRemoved != 64<<20+12 || st.ChunksKept != 3 {
		t.Errorf("stats %+v", st)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("Strip allocated %d bytes for a 320 MiB stream, want a fixed buffer under 4 MiB", alloc)
	}
}

func TestStripForUpload(t *testing.T) {
	narrow := withText(t, smallPNG(t, 1500, 2))
	wide := withText(t, smallPNG(t, 1501, 2))
	wideStripped := func() []byte {
		var b bytes.Buffer
		if _, err := pngmeta.Strip(&b, bytes.NewReader(wide)); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}()
	noIHDR := append([]byte(pngmeta.Signature), chunk("tEXt", []byte("a\x00b"))...)
	jpeg := []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x02\x00\x00\x48\x00\x48\x00\x00\xff\xd9")

	tests := []struct {
		name         string
		in           []byte
		wantStripped bool
		want         []byte
		wantErr      error
	}{
		{"not a PNG passes unchanged", jpeg, false, jpeg, nil},
		{"empty file passes unchanged", []byte{}, false, []byte{}, nil},
		{"1500 px PNG keeps its text", narrow, false, narrow, nil},
		{"1501 px PNG is stripped", wide, true, wideStripped, nil},
		{"unreadable width is stripped and refused when malformed", noIHDR, true, nil, pngmeta.ErrChunkOrder},
		{"signature only is stripped and refused", []byte(pngmeta.Signature), true, nil, pngmeta.ErrTruncated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			stripped, err := pngmeta.StripForUpload(&out, bytes.NewReader(tc.in))
			if stripped != tc.wantStripped {
				t.Errorf("stripped = %v, want %v", stripped, tc.wantStripped)
			}
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error = %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr == nil && !bytes.Equal(out.Bytes(), tc.want) {
				t.Errorf("output (%d bytes) differs from want (%d bytes)", out.Len(), len(tc.want))
			}
		})
	}
	if len(wideStripped) >= len(wide) {
		t.Errorf("wide PNG did not shrink: %d -> %d", len(wide), len(wideStripped))
	}
}
