package pngmeta_test

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/renderer/pngmeta"
)

// printPNG is a 4500x5400 artwork-like PNG carrying a 2 MB XMP packet, built
// once per test binary: generating it takes longer than stripping it.
var printPNG = sync.OnceValues(func() ([]byte, error) {
	const w, h = 4500, 5400
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		seed := uint32(y)*2654435761 + 1
		for x := range w {
			seed = seed*1664525 + 1013904223
			i := 4 * x
			if (x/300+y/300)%3 == 0 { // transparent background blocks
				continue
			}
			noise := uint8(seed >> 28)
			row[i] = uint8(x*255/w) + noise
			row[i+1] = uint8(y*255/h) + noise
			row[i+2] = uint8((x + y) / 40)
			row[i+3] = 255
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	xmp := "XML:com.adobe.xmp\x00\x00\x00\x00\x00" + `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">` +
		strings.Repeat(`<rdf:li stEvt:action="saved" stEvt:instanceID="xmp.iid:0123456789abcdef"/>`, 2<<20/75) + `</x:xmpmeta><?xpacket end="w"?>`
	out := append([]byte{}, b[:33]...) // signature and IHDR
	out = append(out, chunk("iTXt", []byte(xmp))...)
	return append(out, b[33:]...), nil
})

// BenchmarkStrip strips a 4500x5400 PNG with 2 MB of XMP from memory to
// io.Discard; scripts/bench compares the same work with `convert -strip`.
func BenchmarkStrip(b *testing.B) {
	in, err := printPNG()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		st, err := pngmeta.Strip(io.Discard, bytes.NewReader(in))
		if err != nil {
			b.Fatal(err)
		}
		if st.ChunksRemoved != 1 {
			b.Fatalf("removed %d chunks, want the XMP chunk", st.ChunksRemoved)
		}
	}
	b.ReportMetric(float64(len(in)), "input-bytes")
}

// BenchmarkStripFile strips the same PNG from a file to a new file, as the CLI
// does: Strip maps the input and writes the kept ranges from the mapping. The
// output is removed first: truncating it instead would time ext4 flushing the
// replaced file's blocks on close.
func BenchmarkStripFile(b *testing.B) {
	in, err := printPNG()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	path := filepath.Join(dir, "in.png")
	if err := os.WriteFile(path, in, 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		src, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		out := filepath.Join(dir, "out.png")
		if err := os.Remove(out); err != nil && !errors.Is(err, os.ErrNotExist) {
			b.Fatal(err)
		}
		dst, err := os.Create(out)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := pngmeta.Strip(dst, src); err != nil {
			b.Fatal(err)
		}
		src.Close()
		if err := dst.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
