package dpi_test

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/pressroom/pressroom/renderer/dpi"
)

// FuzzDeclared checks that Declared never panics on arbitrary bytes, fails
// only with its documented errors, and reports only positive finite
// resolutions. Seeds live in testdata/fuzz/FuzzDeclared.
func FuzzDeclared(f *testing.F) {
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Add([]byte{0xff, 0xd8, 0xff, 0xd9})
	f.Fuzz(func(t *testing.T, in []byte) {
		x, y, ok, err := dpi.Declared(bytes.NewReader(in))
		if err != nil {
			if !errors.Is(err, dpi.ErrUnknownFormat) && !errors.Is(err, dpi.ErrTruncated) && !errors.Is(err, dpi.ErrMalformed) {
				t.Fatalf("undocumented error: %v", err)
			}
			if ok {
				t.Fatalf("ok with error %v", err)
			}
			return
		}
		if ok && (!(x > 0) || !(y > 0) || math.IsInf(x, 0) || math.IsInf(y, 0)) {
			t.Fatalf("declared %v x %v", x, y)
		}
		if !ok && (x != 0 || y != 0) {
			t.Fatalf("not ok but %v x %v", x, y)
		}
	})
}
