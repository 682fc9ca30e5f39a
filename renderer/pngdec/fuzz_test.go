package pngdec_test

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode holds pngdec to image/png: on any input both refuse it, or both
// return the same image. Seeds: small valid files of every kind the decoder
// handles itself, and a few from image/png's test data; the checked-in corpus
// is in testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	for _, img := range noisy(9, 7) {
		f.Add(encoded(f, img))
	}
	dir := stdTestdata(f)
	for _, name := range []string{"pngsuite/basn3p08-trns.png", "pngsuite/basn0g08.png", "pngsuite/ftp1n3p08.png", "invalid-crc32.png"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSame(t, data)
	})
}
