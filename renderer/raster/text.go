package raster

import (
	"strings"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/fonts"
)

// convertText applies the document's convertText to a text.
func convertText(s, mode string) string {
	switch mode {
	case design.ConvertUppercase:
		return cases.Upper(language.Und).String(s) // "ß" -> "SS", as the browser's toUpperCase
	case design.ConvertLowercase:
		return cases.Lower(language.Und).String(s)
	case design.ConvertCapitalize:
		rs := []rune(s)
		for i, r := range rs {
			if i == 0 || unicode.IsSpace(rs[i-1]) {
				rs[i] = unicode.ToTitle(r)
			}
		}
		return string(rs)
	}
	return s
}

// shaper turns runes into positioned glyphs of a font, with Roboto for characters the font lacks. It
// measures in font units so that results do not depend on a pixel size.
type shaper struct {
	primary, fallback *sfnt.Font
	buf               sfnt.Buffer
}

// sglyph is one glyph of a shaped line; x is the pen position in ems.
type sglyph struct {
	font *sfnt.Font
	idx  sfnt.GlyphIndex
	x    float64
}

// sline is a shaped line; width is in ems.
type sline struct {
	glyphs []sglyph
	width  float64
}

// shape lays out runes on one line with advances and kerning.
func (sh *shaper) shape(rs []rune) sline {
	var l sline
	pen := 0.0
	var prev sglyph
	for i, r := range rs {
		f := sh.primary
		idx, err := f.GlyphIndex(&sh.buf, r)
		if (err != nil || idx == 0) && sh.fallback != nil && sh.fallback != f {
			if fi, ferr := sh.fallback.GlyphIndex(&sh.buf, r); ferr == nil && fi != 0 {
				f, idx = sh.fallback, fi
			}
		}
		upem := f.UnitsPerEm()
		ppem := fixed.I(int(upem))
		if i > 0 && prev.font == f {
			if k, err := f.Kern(&sh.buf, prev.idx, idx, ppem, font.HintingNone); err == nil {
				pen += float64(k) / 64 / float64(upem)
			}
		}
		g := sglyph{font: f, idx: idx, x: pen}
		if adv, err := f.GlyphAdvance(&sh.buf, idx, ppem, font.HintingNone); err == nil {
			pen += float64(adv) / 64 / float64(upem)
		}
		l.glyphs = append(l.glyphs, g)
		prev = g
	}
	l.width = pen
	return l
}

func (sh *shaper) measure(rs []rune) float64 { return sh.shape(rs).width }

// textLayout is a text object laid out in its local frame: origin at (x, y), unrotated, print pixels.
type textLayout struct {
	size     float64 // font size actually used (limited text may shrink)
	lines    []sline
	lineX    []float64 // left of each line
	baseline []float64 // baseline of each line
	// box is the text box: glyphs of image_background text are filled relative to it.
	boxX, boxW, boxH float64
	shrunk           bool
}

// layoutText applies textWidth, textAlign and the Konva baseline rule; see the package documentation.
func layoutText(sh *shaper, o *design.TextObject) textLayout {
	text := convertText(o.Text, o.ConvertText)
	paras := strings.Split(text, "\n")
	size := o.FontSize
	var lines []sline
	switch o.TextWidth {
	case design.TextWidthFixed:
		for _, p := range paras {
			for _, l := range wrapLine(sh, []rune(p), o.Width/size) {
				lines = append(lines, sh.shape(l))
			}
		}
	default:
		for _, p := range paras {
			lines = append(lines, sh.shape([]rune(p)))
		}
	}
	widest := 0.0
	for _, l := range lines {
		widest = max(widest, l.width)
	}
	lay := textLayout{size: size, lines: lines, boxW: o.Width}
	nominalH := float64(len(lines)) * o.FontSize
	if o.TextWidth == design.TextWidthLimited && widest*size > o.Width {
		lay.size = o.Width / widest
		lay.shrunk = true
	}
	size = lay.size
	lay.boxH = nominalH
	if o.TextWidth == design.TextWidthFlexible {
		lay.boxW = widest * size
		lay.boxX = alignOffset(o.TextAlign, o.Width, lay.boxW)
	}
	asc, desc := fontAscentDescent(sh)
	top := (nominalH - float64(len(lines))*size) / 2 // non-zero only for shrunken limited text
	for i, l := range lines {
		lay.lineX = append(lay.lineX, alignOffset(o.TextAlign, o.Width, l.width*size))
		lineTop := top + float64(i)*size
		lay.baseline = append(lay.baseline, lineTop+size/2+(asc-desc)*size/2)
	}
	return lay
}

// alignOffset places something w wide inside a box boxW wide.
func alignOffset(align string, boxW, w float64) float64 {
	switch align {
	case design.AlignCenter:
		return (boxW - w) / 2
	case design.AlignRight:
		return boxW - w
	}
	return 0
}

// fontAscentDescent returns the primary font's ascent and descent in ems (both positive), as browsers
// take them: the OS/2 typographic values when the font asks for them, else hhea's.
func fontAscentDescent(sh *shaper) (float64, float64) {
	f := sh.primary
	if asc, desc, ok := fonts.TypoMetrics(f); ok {
		return asc, desc
	}
	upem := f.UnitsPerEm()
	m, err := f.Metrics(&sh.buf, fixed.I(int(upem)), font.HintingNone)
	if err != nil || m.Ascent <= 0 {
		return 0.8, 0.2
	}
	return float64(m.Ascent) / 64 / float64(upem), float64(m.Descent) / 64 / float64(upem)
}

// wrapLine breaks a paragraph into lines no wider than maxW ems, at spaces and hyphens where it can, as
// Konva's Text does with wrap "word"; a word wider than the line breaks between characters. Lines are
// trimmed of trailing spaces, continuation lines of leading ones.
func wrapLine(sh *shaper, rs []rune, maxW float64) [][]rune {
	var out [][]rune
	for len(rs) > 0 {
		if sh.measure(rs) <= maxW {
			out = append(out, trimRightSpace(rs))
			break
		}
		n := 1 // longest prefix that fits, at least one character
		for n < len(rs) && sh.measure(rs[:n+1]) <= maxW {
			n++
		}
		cut := n
		if n < len(rs) && rs[n] != ' ' && rs[n] != '-' {
			for i := n - 1; i > 0; i-- {
				if rs[i] == ' ' || rs[i] == '-' {
					cut = i + 1
					break
				}
			}
		}
		out = append(out, trimRightSpace(rs[:cut]))
		rs = trimLeftSpace(rs[cut:])
	}
	if len(out) == 0 {
		out = append(out, nil)
	}
	return out
}

func trimRightSpace(rs []rune) []rune {
	for len(rs) > 0 && unicode.IsSpace(rs[len(rs)-1]) {
		rs = rs[:len(rs)-1]
	}
	return rs
}

func trimLeftSpace(rs []rune) []rune {
	for len(rs) > 0 && unicode.IsSpace(rs[0]) {
		rs = rs[1:]
	}
	return rs
}
