package benchdata

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
)

// Reference design geometry, shared with scripts/bench so that ImageMagick and libvips draw the same layers.
const (
	RefWidth, RefHeight = 4500, 5400
	RefDPI              = 300
	// The artwork is placed scaled to 4000x4800 at (250, 300).
	RefArtX, RefArtY, RefArtW, RefArtH = 250, 300, 4000, 4800
	// Two single-line texts at 200 px in Roboto, both centred in 3600 px wide boxes at x=450.
	RefFontSize         = 200
	RefText1, RefText1Y = "HELLO WORLD", 4650
	RefText2, RefText2Y = "EST. 2024", 4900
	RefTextX, RefTextW  = 450, 3600
	RefFill1, RefFill2  = "#111111", "#c81e3c"
	XMPBytes            = 2 << 20
)

// ReferenceDesign is the JSON of the reference design, reading its artwork from ./art.png.
func ReferenceDesign() string {
	return fmt.Sprintf(`{"version": 1,
 "printSpace": {"name": "front", "width": %d, "height": %d, "dpi": %d, "minDpi": 150, "printType": 0},
 "objects": [
  {"type": "image", "id": "art", "src": "./art.png", "x": %d, "y": %d, "width": %d, "height": %d, "rotation": 0},
  {"type": "text", "id": "t1", "text": %q, "fontFamily": "Roboto", "fontSize": %d, "fill": %q,
   "x": %d, "y": %d, "width": %d, "textWidth": "limited", "textAlign": "center", "displayStyle": "color"},
  {"type": "text", "id": "t2", "text": %q, "fontFamily": "Roboto", "fontSize": %d, "fill": %q,
   "x": %d, "y": %d, "width": %d, "textWidth": "limited", "textAlign": "center", "displayStyle": "color"}
 ]}
`, RefWidth, RefHeight, RefDPI, RefArtX, RefArtY, RefArtW, RefArtH,
		RefText1, RefFontSize, RefFill1, RefTextX, RefText1Y, RefTextW,
		RefText2, RefFontSize, RefFill2, RefTextX, RefText2Y, RefTextW)
}

// WriteReference writes into dir: art.png (the 4500x5400 artwork), art-xmp.png (the same file with 2 MB
// of XMP in an iTXt chunk) and design.json (ReferenceDesign).
func WriteReference(dir string) error {
	var buf bytes.Buffer
	if err := png.Encode(&buf, Artwork(RefWidth, RefHeight)); err != nil {
		return fmt.Errorf("encode artwork: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "art.png"), buf.Bytes(), 0o644); err != nil {
		return err
	}
	withXMP, err := InsertXMP(buf.Bytes(), XMPBytes)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "art-xmp.png"), withXMP, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "design.json"), []byte(ReferenceDesign()), 0o644)
}

// WriteAssets writes the fixture assets of schema/testdata/designs/assets into dir.
func WriteAssets(dir string, fontTTF []byte) error {
	for name, img := range map[string]image.Image{
		"art.png":     Artwork(300, 360),
		"pattern.png": Pattern(160, 160),
	} {
		var buf bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := enc.Encode(&buf, img); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "GoMono.ttf"), fontTTF, 0o644); err != nil {
		return err
	}
	// not-a-font.ttf makes a fontUrl that fails to load, for the fallback fixture.
	return os.WriteFile(filepath.Join(dir, "not-a-font.ttf"), []byte("this is not a font\n"), 0o644)
}

// InsertXMP returns the PNG file with an iTXt chunk of about size bytes of XMP inserted after IHDR.
func InsertXMP(pngFile []byte, size int) ([]byte, error) {
	const sig = 8
	if len(pngFile) < sig+8+13+4 || string(pngFile[12:16]) != "IHDR" {
		return nil, fmt.Errorf("insert xmp: not a PNG starting with IHDR")
	}
	ihdrEnd := sig + 8 + int(binary.BigEndian.Uint32(pngFile[8:12])) + 4
	var x strings.Builder
	x.WriteString(`<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF>`)
	for i := 0; x.Len() < size-64; i++ {
		fmt.Fprintf(&x, `<rdf:li stEvt:action="saved" stEvt:instanceID="xmp.iid:%08d" stEvt:when="2024-01-01T00:00:00Z"/>`, i)
	}
	x.WriteString(`</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`)
	data := append([]byte("XML:com.adobe.xmp\x00\x00\x00\x00\x00"), x.String()...)
	var chunk bytes.Buffer
	binary.Write(&chunk, binary.BigEndian, uint32(len(data)))
	chunk.WriteString("iTXt")
	chunk.Write(data)
	binary.Write(&chunk, binary.BigEndian, crc32.ChecksumIEEE(chunk.Bytes()[4:]))
	out := make([]byte, 0, len(pngFile)+chunk.Len())
	out = append(out, pngFile[:ihdrEnd]...)
	out = append(out, chunk.Bytes()...)
	return append(out, pngFile[ihdrEnd:]...), nil
}
