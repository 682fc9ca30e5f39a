package pngmeta_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/pressroom/pressroom/renderer/pngmeta"
)

var sentinels = []error{
	pngmeta.ErrNotPNG, pngmeta.ErrTruncated, pngmeta.ErrBadCRC, pngmeta.ErrBadLength,
	pngmeta.ErrBadChunkType, pngmeta.ErrChunkOrder, pngmeta.ErrTrailingData,
}

// FuzzStrip checks that Strip never panics, that every refusal is one of the
// documented errors, and that accepted output is a fixed point: stripping it
// again removes nothing and changes no byte. Seeds live in
// testdata/fuzz/FuzzStrip.
func FuzzStrip(f *testing.F) {
	f.Add(smallPNG(f, 3, 2))
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		st, err := pngmeta.Strip(&out, bytes.NewReader(in))
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
