package pngmeta_test

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pressroom/pressroom/renderer/pngmeta"
)

var sentinels = []error{
	pngmeta.ErrNotPNG, pngmeta.ErrTruncated, pngmeta.ErrBadCRC, pngmeta.ErrBadLength,
	pngmeta.ErrBadChunkType, pngmeta.ErrChunkOrder, pngmeta.ErrTrailingData,
}

// FuzzStrip checks that Strip never panics, that every refusal is one of the
// documented errors, that a file (mapped) and a reader (streamed) give the
// stats and error and, when they accept it, the same output, and that accepted output is a fixed point:
// stripping it again removes nothing and changes no byte. Seeds live in
// testdata/fuzz/FuzzStrip.
func FuzzStrip(f *testing.F) {
	f.Add(smallPNG(f, 3, 2))
	path := filepath.Join(f.TempDir(), "in.png") // rewritten for every input
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		st, err := pngmeta.Strip(&out, bytes.NewReader(in))
		var fileOut bytes.Buffer
		fileSt, fileErr := pngmeta.Strip(&fileOut, fileWith(t, path, in))
		if fmt.Sprint(fileErr) != fmt.Sprint(err) || fileSt != st || err == nil && !bytes.Equal(fileOut.Bytes(), out.Bytes()) {
			t.Fatalf("from a file: %+v, %v; from a reader: %+v, %v", fileSt, fileErr, st, err)
		}
		if err != nil {
			for _, s := range sentinels {
				if errors.Is(err, s) {
					return
				}
			}
			t.Fatalf("undocumented error: %v", err)
		}
		if st.BytesWritten != int64(out.Len()) || int64(len(in))-st.BytesRemoved != st.BytesWritten {
			t.Fatalf("stats %+v disagree with %d bytes in, %d out", st, len(in), out.Len())
		}
		var again bytes.Buffer
		st2, err := pngmeta.Strip(&again, bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("stripped output refused: %v", err)
		}
		if st2.ChunksRemoved != 0 || !bytes.Equal(again.Bytes(), out.Bytes()) {
			t.Fatalf("stripping twice changed the output")
		}
	})
}
