package pngdec_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/pressroom/pressroom/renderer/pngdec"
)

// stdTestdata returns the folder of image/png's own test files: the PNG
// suite (every colour type, bit depth, filter and interlacing) and hand-made
// invalid files.
func stdTestdata(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src", "image", "png", "testdata")
}

// checkSame decodes data with image/png and pngdec and fails unless both
// refuse it or both return the same image (type, bounds, pixels, palette), and
// unless pngdec.Check refuses exactly what image/png refuses.
func checkSame(t *testing.T, data []byte) {
	t.Helper()
	want, wantErr := png.Decode(bytes.NewReader(data))
	got, gotErr := pngdec.Decode(bytes.NewReader(data))
	if (wantErr == nil) != (gotErr == nil) {
		t.Fatalf("image/png error %v, pngdec error %v", wantErr, gotErr)
	}
	if checkErr := pngdec.Check(bytes.NewReader(data)); (wantErr == nil) != (checkErr == nil) {
		t.Fatalf("image/png error %v, pngdec.Check error %v", wantErr, checkErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("pngdec decoded %T %v, image/png %T %v: pixels or palette differ", got, got.Bounds(), want, want.Bounds())
	}
	checkRows(t, data, want, wantErr)
}

// checkRows holds Rows to image/png on the images it reads (8-bit non-interlaced RGBA, or RGB with a
// transparent colour, decoded as *image.NRGBA; RGB without one, decoded as opaque *image.RGBA, whose
// bytes are the same): the same error or none, and the same rows.
func checkRows(t *testing.T, data []byte, want image.Image, wantErr error) {
	t.Helper()
	var rows *image.NRGBA
	err := pngdec.Rows(bytes.NewReader(data), func(w, h int) error {
		rows = image.NewNRGBA(image.Rect(0, 0, w, h))
		return nil
	}, func(y int, row []byte) error {
		copy(rows.Pix[y*rows.Stride:], row)
		return nil
	})
	if errors.Is(err, pngdec.ErrRowsUnsupported) {
		if rows != nil {
			t.Fatal("Rows refused the image after beginning it")
		}
		return
	}
	if (wantErr == nil) != (err == nil) {
		t.Fatalf("image/png error %v, pngdec.Rows error %v", wantErr, err)
	}
	if wantErr != nil {
		return
	}
	switch m := want.(type) {
	case *image.NRGBA:
		if !reflect.DeepEqual(rows, m) {
			t.Fatal("Rows read other pixels than image/png decoded")
		}
	case *image.RGBA:
		if m.Rect != rows.Rect || !bytes.Equal(m.Pix, rows.Pix) {
			t.Fatal("Rows read other pixels than image/png decoded (opaque RGB)")
		}
	default:
		t.Fatalf("Rows read an image image/png decodes as %T", want)
	}
}

func TestDecodeMatchesImagePNGOnTestdata(t *testing.T) {
	dir := stdTestdata(t)
	files, err := filepath.Glob(filepath.Join(dir, "pngsuite", "*.png"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no PNG suite under %s: %v", dir, err)
	}
	more, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	for _, f := range append(files, more...) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checkSame(t, data)
		})
	}
}

// encoded returns img as a PNG written by image/png, which picks a filter per
// row, so decoding exercises all five.
func encoded(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// noisy returns a w x h image of each kind the decoder handles itself, with
// smooth areas and noise so every filter type wins on some rows.
func noisy(w, h int) map[string]image.Image {
	r := rand.New(rand.NewPCG(1, 2))
	nrgba := image.NewNRGBA(image.Rect(0, 0, w, h))
	rgba := image.NewRGBA(image.Rect(0, 0, w, h))
	gray := image.NewGray(image.Rect(0, 0, w, h))
	pal := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.RGBA{1, 2, 3, 255}, color.NRGBA{200, 10, 10, 128}, color.RGBA{0, 0, 0, 0}})
	for y := range h {
		for x := range w {
			n := uint8(r.IntN(8))
			v := uint8(x*3+y*2) + n*uint8(y%3)
			nrgba.SetNRGBA(x, y, color.NRGBA{v, uint8(y), uint8(x) ^ n, uint8(255 - x)})
			rgba.SetRGBA(x, y, color.RGBA{v, uint8(y * 5), n, 255})
			gray.SetGray(x, y, color.Gray{v})
			pal.SetColorIndex(x, y, uint8((x/7+y/5)%3))
		}
	}
	return map[string]image.Image{"nrgba": nrgba, "rgb": rgba, "gray": gray, "paletted": pal}
}

func TestDecodeMatchesImagePNGOnGenerated(t *testing.T) {
	for _, size := range []image.Point{{1, 1}, {3, 40}, {37, 19}, {301, 77}} {
		for name, img := range noisy(size.X, size.Y) {
			t.Run(name+"/"+size.String(), func(t *testing.T) {
				checkSame(t, encoded(t, img))
			})
		}
	}
}

// TestDecodeRefusesDamage cuts and corrupts a valid file at many places; each
// result must be refused exactly when image/png refuses it.
func TestDecodeRefusesDamage(t *testing.T) {
	data := encoded(t, noisy(120, 90)["nrgba"])
	for cut := 0; cut < len(data); cut += max(1, len(data)/97) {
		checkSame(t, data[:cut])
		bad := bytes.Clone(data)
		bad[cut] ^= 0x5a
		checkSame(t, bad)
	}
}

func TestDecodeReaderErrors(t *testing.T) {
	data := encoded(t, noisy(64, 64)["rgb"])
	readErr := errors.New("disk gone")
	for _, cut := range []int{10, 40, len(data) / 2, len(data) - 5} {
		r := iotest.DataErrReader(&errAfter{data: data[:cut], err: readErr})
		if _, err := pngdec.Decode(r); !errors.Is(err, readErr) {
			t.Errorf("cut at %d: error %v, want the reader's", cut, err)
		}
	}
}

type errAfter struct {
	data []byte
	err  error
}

func (e *errAfter) Read(p []byte) (int, error) {
	if len(e.data) == 0 {
		return 0, e.err
	}
	n := copy(p, e.data)
	e.data = e.data[n:]
	return n, nil
}

// TestStartRowsBeforeEnd reads rows as they are published: every row a
// consumer is told is ready already holds its final pixels.
func TestStartRowsBeforeEnd(t *testing.T) {
	src := noisy(200, 333)["nrgba"].(*image.NRGBA)
	d, err := pngdec.Start(iotest.OneByteReader(bytes.NewReader(encoded(t, src))))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := d.Image().(*image.NRGBA)
	if !ok {
		t.Fatalf("Image is %T, want *image.NRGBA", d.Image())
	}
	for y := 0; y < 333; y += 17 {
		if err := d.WaitRows(y + 1); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Pix[y*got.Stride:(y+1)*got.Stride], src.Pix[y*src.Stride:(y+1)*src.Stride]) {
			t.Fatalf("row %d differs once WaitRows(%d) returned", y, y+1)
		}
	}
	if err := d.Wait(); err != nil {
		t.Fatal(err)
	}
	if err := d.WaitRows(1000); err != nil {
		t.Fatalf("WaitRows past the height after the end: %v", err)
	}
}

func TestCloseStops(t *testing.T) {
	data := encoded(t, noisy(400, 400)["nrgba"])
	d, err := pngdec.Start(iotest.OneByteReader(bytes.NewReader(data)))
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if err := d.Wait(); err != nil && !errors.Is(err, pngdec.ErrStopped) {
		t.Fatalf("Wait after Close = %v, want nil or ErrStopped", err)
	}
}

func TestWaitRowsReportsError(t *testing.T) {
	data := encoded(t, noisy(100, 100)["nrgba"])
	d, err := pngdec.Start(bytes.NewReader(data[:len(data)/2]))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WaitRows(100); err == nil {
		t.Fatal("WaitRows(all) on a truncated file returned nil")
	}
	if err := d.Wait(); err == nil {
		t.Fatal("Wait on a truncated file returned nil")
	}
}
