package fonts

import (
	"bytes"
	"encoding/binary"
	"sync"

	"golang.org/x/image/font/sfnt"
)

// typoCache holds TypoMetrics' answer per parsed font.
var typoCache sync.Map // *sfnt.Font -> typoMetrics

type typoMetrics struct {
	ascent, descent float64
	ok              bool
}

// TypoMetrics answers the OS/2 typographic ascent and descent (ems, both positive) of a font that asks
// for them (fsSelection bit 7, USE_TYPO_METRICS): browsers then lay lines out with them instead of the
// hhea values, and so must the renderer, or texts in such fonts (Lato, testdata/typo.ttf) print a few pixels off the
// editor. ok is false for other fonts, whose line metrics are hhea's (sfnt.Font.Metrics).
func TypoMetrics(f *sfnt.Font) (ascent, descent float64, ok bool) {
	if v, hit := typoCache.Load(f); hit {
		m := v.(typoMetrics)
		return m.ascent, m.descent, m.ok
	}
	var m typoMetrics
	var src bytes.Buffer
	var buf sfnt.Buffer
	if _, err := f.WriteSourceTo(&buf, &src); err == nil {
		os2 := table(src.Bytes(), "OS/2")
		if upem := float64(f.UnitsPerEm()); len(os2) >= 74 && upem > 0 && binary.BigEndian.Uint16(os2[62:])&(1<<7) != 0 {
			asc, desc := float64(int16(binary.BigEndian.Uint16(os2[68:]))), float64(int16(binary.BigEndian.Uint16(os2[70:])))
			if asc > 0 && desc <= 0 {
				m = typoMetrics{ascent: asc / upem, descent: -desc / upem, ok: true}
			}
		}
	}
	typoCache.Store(f, m)
	return m.ascent, m.descent, m.ok
}
