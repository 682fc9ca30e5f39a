package fonts

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/image/font/sfnt"
)

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestReadAcceptsEachFormat(t *testing.T) {
	for _, tc := range []struct{ file, format string }{
		{"mono.ttf", FormatTTF},
		{"mono.otf", FormatOTF},
		{"mono.woff", FormatWOFF},
		{"mono.woff2", FormatWOFF2},
	} {
		t.Run(tc.file, func(t *testing.T) {
			info, out, err := Read(fixture(t, tc.file))
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if info.Family != "Liberation Mono" || info.Style != "Regular" || info.Weight != 400 || info.Italic ||
				info.Format != tc.format || info.Glyphs < 62 {
				t.Errorf("info = %+v", info)
			}
			// What Read answers is a font the renderer's parser reads, with the same names.
			f, err := sfnt.Parse(out)
			if err != nil {
				t.Fatalf("output does not parse: %v", err)
			}
			var buf sfnt.Buffer
			if name, _ := f.Name(&buf, sfnt.NameIDFamily); name != "Liberation Mono" {
				t.Errorf("output family = %q", name)
			}
		})
	}
}

func TestWOFFDecodesToTheSameTables(t *testing.T) {
	_, out, err := Read(fixture(t, "mono.woff"))
	if err != nil {
		t.Fatal(err)
	}
	ttf := fixture(t, "mono.ttf")
	for _, tag := range []string{"glyf", "loca", "cmap", "hmtx", "name"} {
		if !bytes.Equal(table(out, tag), table(ttf, tag)) {
			t.Errorf("table %s differs from the TTF's", tag)
		}
	}
}

func TestReadRefuses(t *testing.T) {
	woff := fixture(t, "mono.woff")
	badZlib := bytes.Clone(woff)
	// The glyf table's compressed bytes, scrambled.
	for e := 44; e+20 <= len(badZlib); e += 20 {
		if string(badZlib[e:e+4]) == "glyf" {
			off := int(binary.BigEndian.Uint32(badZlib[e+4:]))
			for i := off + 2; i < off+40; i++ {
				badZlib[i] ^= 0x5a
			}
			break
		}
	}
	ttf := fixture(t, "mono.ttf")
	for _, tc := range []struct {
		name string
		data []byte
		want error
		msg  string
	}{
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), ErrNotFont, "The file is not a font"},
		{"empty", nil, ErrNotFont, "The file is not a font"},
		{"too large", make([]byte, MaxFileBytes+1), ErrTooLarge, "larger than 10 MB"},
		{"collection", append([]byte("ttcf"), make([]byte, 64)...), ErrCollection, "collections"},
		{"truncated woff2", fixture(t, "mono.woff2")[:300], ErrCorrupt, "damaged"},
		{"truncated ttf", ttf[:len(ttf)/3], ErrCorrupt, "damaged"},
		{"truncated woff", woff[:200], ErrCorrupt, "damaged"},
		{"bad zlib", badZlib, ErrCorrupt, "damaged"},
		{"no basic Latin", fixture(t, "lycian.ttf"), ErrNoLatin, "no glyphs for basic Latin letters and digits (A–Z, a–z, 0–9): A B"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Read(tc.data)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("err = %v, want %v containing %q", err, tc.want, tc.msg)
			}
		})
	}
}

func TestPlatformFonts(t *testing.T) {
	list, err := PlatformFonts()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range list {
		got = append(got, p.Info.Family+"="+p.Key)
		if data, ok := PlatformFile(p.Key); !ok || !bytes.Equal(data, p.Data) {
			t.Errorf("PlatformFile(%q) does not answer its file", p.Key)
		}
	}
	want := "DejaVu Sans=fonts/platform/DejaVuSans.ttf Liberation Sans=fonts/platform/LiberationSans-Regular.ttf " +
		"Liberation Serif=fonts/platform/LiberationSerif-Regular.ttf Noto Sans=fonts/platform/NotoSans-Regular.ttf " +
		"Noto Serif=fonts/platform/NotoSerif-Regular.ttf"
	if strings.Join(got, " ") != want {
		t.Errorf("platform fonts = %q, want %q", strings.Join(got, " "), want)
	}
	if _, ok := PlatformFile("fonts/platform/Missing.ttf"); ok {
		t.Error("an unknown platform key answered a file")
	}
}

// FuzzRead feeds Read hostile bytes: it must answer a font or one of its refusals, never panic, and a
// font it answers must parse.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"mono.ttf", "mono.otf", "mono.woff", "mono.woff2", "lycian.ttf"} {
		f.Add(fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, out, err := Read(data)
		if err != nil {
			for _, known := range []error{ErrTooLarge, ErrNotFont, ErrCollection, ErrCorrupt, ErrNoLatin} {
				if errors.Is(err, known) {
					return
				}
			}
			t.Fatalf("unknown refusal %v", err)
		}
		if _, err := sfnt.Parse(out); err != nil {
			t.Fatalf("accepted font does not parse: %v", err)
		}
	})
}

func TestTypoMetrics(t *testing.T) {
	lato := fixture(t, "typo.ttf")
	for _, tc := range []struct {
		name           string
		data           []byte
		ok             bool
		ascent, descnt float64
	}{
		{"Lato asks for its typographic metrics", lato, true, 1610.0 / 2000, 390.0 / 2000},
		{"Roboto does not", RobotoRegular, false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := sfnt.Parse(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			asc, desc, ok := TypoMetrics(f)
			if ok != tc.ok || asc != tc.ascent || desc != tc.descnt {
				t.Errorf("TypoMetrics = %v %v %v, want %v %v %v", asc, desc, ok, tc.ascent, tc.descnt, tc.ok)
			}
		})
	}
}

// TestWOFF2DrawsTheSameOutlines: the glyf table rebuilt from WOFF2's streams is stored differently (points
// unpacked) but draws every glyph as the TrueType file does, and the other tables come back as they were.
func TestWOFF2DrawsTheSameOutlines(t *testing.T) {
	_, out, err := Read(fixture(t, "mono.woff2"))
	if err != nil {
		t.Fatal(err)
	}
	ttf := fixture(t, "mono.ttf")
	// head differs by design: a WOFF2 encoder marks it (flags bit 11) and changes its checksum.
	for _, tag := range []string{"cmap", "hmtx", "name", "OS/2", "maxp"} {
		if got, want := table(out, tag), table(ttf, tag); !bytes.Equal(got, want) {
			t.Errorf("table %s differs from the TTF's", tag)
		}
	}
	a, err := sfnt.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := sfnt.Parse(ttf)
	if a.NumGlyphs() != b.NumGlyphs() {
		t.Fatalf("%d glyphs, want %d", a.NumGlyphs(), b.NumGlyphs())
	}
	var ba, bb sfnt.Buffer
	for i := range a.NumGlyphs() {
		sa, errA := a.LoadGlyph(&ba, sfnt.GlyphIndex(i), 2048<<6, nil)
		sb, errB := b.LoadGlyph(&bb, sfnt.GlyphIndex(i), 2048<<6, nil)
		if (errA == nil) != (errB == nil) || fmt.Sprint(sa) != fmt.Sprint(sb) {
			t.Fatalf("glyph %d: %v (%v), want %v (%v)", i, sa, errA, sb, errB)
		}
	}
}
