package raster

import (
	"context"
	"image"
	"image/color"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/fonts"
)

func robotoShaper(t testing.TB) *shaper {
	t.Helper()
	f, err := fonts.Default()
	if err != nil {
		t.Fatal(err)
	}
	return &shaper{primary: f, fallback: f}
}

func TestConvertText(t *testing.T) {
	tests := []struct{ mode, in, want string }{
		{design.ConvertNone, "heLLo wOrld", "heLLo wOrld"},
		{design.ConvertUppercase, "straße é", "STRASSE É"},
		{design.ConvertLowercase, "HELLO Wörld", "hello wörld"},
		{design.ConvertCapitalize, "hello big  wORLD\nnew line", "Hello Big  WORLD\nNew Line"},
	}
	for _, tt := range tests {
		t.Run(tt.mode+"/"+tt.in, func(t *testing.T) {
			if got := convertText(tt.in, tt.mode); got != tt.want {
				t.Errorf("convertText(%q, %q) = %q, want %q", tt.in, tt.mode, got, tt.want)
			}
		})
	}
}

func TestWrapLine(t *testing.T) {
	sh := robotoShaper(t)
	tests := []struct {
		name string
		text string
		maxW float64 // ems
		want []string
	}{
		{"fits", "Best dad", 10, []string{"Best dad"}},
		{"wraps at spaces", "Best dad in town", sh.measure([]rune("Best dad in")) + 0.01, []string{"Best dad in", "town"}},
		{"breaks a long word", "Supercalifragil", 3, []string{"Super", "califra", "gil"}},
		{"wraps after a hyphen", "well-known", 3, []string{"well-", "known"}},
		{"one char per line when nothing fits", "ab", 0.1, []string{"a", "b"}},
		{"empty", "", 1, []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, l := range wrapLine(sh, []rune(tt.text), tt.maxW) {
				got = append(got, string(l))
				if len([]rune(string(l))) > 1 && sh.measure(l) > tt.maxW {
					t.Errorf("line %q is %.2f em wide, more than %.2f", string(l), sh.measure(l), tt.maxW)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLayoutText(t *testing.T) {
	sh := robotoShaper(t)
	natural := sh.measure([]rune("Hello")) * 100 // px at font size 100
	tests := []struct {
		name      string
		textWidth string
		align     string
		width     float64
		wantSize  float64
		wantLines int
		wantLineX float64
		wantBoxW  float64
		wantBoxX  float64
	}{
		{"limited fits: left", design.TextWidthLimited, design.AlignLeft, 1000, 100, 1, 0, 1000, 0},
		{"limited fits: center", design.TextWidthLimited, design.AlignCenter, 1000, 100, 1, (1000 - natural) / 2, 1000, 0},
		{"limited fits: right", design.TextWidthLimited, design.AlignRight, 1000, 100, 1, 1000 - natural, 1000, 0},
		{"limited too narrow shrinks to fit", design.TextWidthLimited, design.AlignCenter, natural / 2, 50, 1, 0, natural / 2, 0},
		{"fixed wraps instead", design.TextWidthFixed, design.AlignLeft, natural * 0.7, 100, 2, 0, natural * 0.7, 0},
		{"flexible grows both ways from the centre", design.TextWidthFlexible, design.AlignCenter, natural / 2, 100, 1, -natural / 4, natural, -natural / 4},
		{"flexible grows leftwards when right-aligned", design.TextWidthFlexible, design.AlignRight, 100, 100, 1, 100 - natural, natural, 100 - natural},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := &design.TextObject{Text: "Hello", FontSize: 100, Width: tt.width, TextWidth: tt.textWidth, TextAlign: tt.align}
			lay := layoutText(sh, o)
			approx := func(a, b float64) bool { return math.Abs(a-b) < 0.01 }
			if !approx(lay.size, tt.wantSize) || len(lay.lines) != tt.wantLines || !approx(lay.lineX[0], tt.wantLineX) ||
				!approx(lay.boxW, tt.wantBoxW) || !approx(lay.boxX, tt.wantBoxX) {
				t.Errorf("layout size %.2f lines %d lineX %.2f box %.2f+%.2f, want %.2f %d %.2f %.2f+%.2f",
					lay.size, len(lay.lines), lay.lineX[0], lay.boxX, lay.boxW, tt.wantSize, tt.wantLines, tt.wantLineX, tt.wantBoxX, tt.wantBoxW)
			}
			if tt.wantSize < 100 {
				// shrunk text stays centred in the nominal line box: its baseline moves down by half the lost height
				full := layoutText(sh, &design.TextObject{Text: "Hello", FontSize: 100, Width: 1e4, TextWidth: tt.textWidth})
				asc, desc := fontAscentDescent(sh)
				want := (100-lay.size)/2 + lay.size/2 + (asc-desc)*lay.size/2
				if !approx(lay.baseline[0], want) || lay.baseline[0] >= full.baseline[0] {
					t.Errorf("shrunk baseline %.2f, want %.2f", lay.baseline[0], want)
				}
			}
		})
	}
}

// glyphCentre renders one big "I" and returns the canvas with the stem's centre.
func drawI(t *testing.T, o *design.TextObject, under color.RGBA, loader Loader) (*image.RGBA, Report, image.Point) {
	t.Helper()
	c := image.NewRGBA(image.Rect(0, 0, 400, 400))
	for i := 0; i < len(c.Pix); i += 4 {
		c.Pix[i], c.Pix[i+1], c.Pix[i+2], c.Pix[i+3] = under.R, under.G, under.B, under.A
	}
	s := &state{doc: &design.Document{PrintSpace: printSpace(400, 400)}, scale: 1, workers: 1, canvas: c,
		opt: Options{Loader: loader}}
	if err := drawTextStep(o).Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	lay := layoutText(robotoShaper(t), o)
	// The stem of I is centred on the box; cap height is about 0.71 em above the baseline.
	return c, s.report, image.Pt(int(o.X+o.Width/2), int(o.Y+lay.baseline[0]-0.35*o.FontSize))
}

func TestDrawTextDisplayStyles(t *testing.T) {
	base := design.TextObject{ID: "t", Text: "I", FontSize: 300, X: 50, Y: 20, Width: 300,
		TextWidth: design.TextWidthLimited, TextAlign: design.AlignCenter}
	pattern := pngBytes(t, solid(8, 8, color.NRGBA{0, 200, 0, 255}))
	white := color.RGBA{255, 255, 255, 255}
	tests := []struct {
		name      string
		style     string
		fill      string
		bg        string
		wantStem  color.RGBA
		wantOther color.RGBA // far from the glyph
	}{
		{"color", design.DisplayColor, "#c81e3c", "", color.RGBA{200, 30, 60, 255}, white},
		{"color with alpha", design.DisplayColor, "#0000ff80", "", color.RGBA{127, 127, 255, 255}, white},
		{"transparent knocks out", design.DisplayTransparent, "", "", color.RGBA{}, white},
		{"image_background", design.DisplayImageBackground, "", "u/bg.png", color.RGBA{0, 200, 0, 255}, white},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := base
			o.DisplayStyle, o.Fill, o.BackgroundURL = tt.style, tt.fill, tt.bg
			c, _, stem := drawI(t, &o, white, memLoader{"u/bg.png": pattern})
			if got := c.RGBAAt(stem.X, stem.Y); !near(got, tt.wantStem, 2) {
				t.Errorf("stem pixel %v = %v, want %v", stem, got, tt.wantStem)
			}
			if got := c.RGBAAt(5, 395); got != tt.wantOther {
				t.Errorf("far pixel = %v, want %v", got, tt.wantOther)
			}
		})
	}
}

func TestDrawTextFontFallback(t *testing.T) {
	gomono := pngBytes(t, solid(1, 1, color.NRGBA{})) // not a font
	tests := []struct {
		name, family, url string
		wantFallback      string // substring of the reason; "" for none
	}{
		{"roboto", "Roboto", "", ""},
		{"roboto any case", "roboto", "", ""},
		{"family without url", "Lobster", "", "no fontUrl"},
		{"url that does not load", "X", "u/missing.ttf", "load font"},
		{"url that is not a font", "X", "u/font.ttf", "not TrueType"},
		{"platform font", "Liberation Sans", "fonts/platform/LiberationSans-Regular.ttf", ""},
		{"uploaded font", "Liberation Mono", "fonts/7/upload.ttf", ""},
	}
	uploaded, err := os.ReadFile("../fonts/testdata/mono.ttf")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := &design.TextObject{ID: "t", Text: "I", FontSize: 300, X: 50, Y: 20, Width: 300, FontFamily: tt.family,
				FontURL: tt.url, TextWidth: design.TextWidthLimited, TextAlign: design.AlignCenter,
				DisplayStyle: design.DisplayColor, Fill: "#000"}
			c, rep, stem := drawI(t, o, color.RGBA{}, memLoader{"u/font.ttf": gomono, "fonts/7/upload.ttf": uploaded})
			if got := c.RGBAAt(stem.X, stem.Y); got.A != 255 {
				t.Errorf("text not drawn: stem pixel %v", got)
			}
			switch {
			case tt.wantFallback == "" && len(rep.FontFallbacks) != 0:
				t.Errorf("unexpected fallback %+v", rep.FontFallbacks)
			case tt.wantFallback != "" && (len(rep.FontFallbacks) != 1 || !strings.Contains(rep.FontFallbacks[0].Reason, tt.wantFallback)):
				t.Errorf("fallbacks %+v, want one saying %q", rep.FontFallbacks, tt.wantFallback)
			}
		})
	}
}

func TestParseFill(t *testing.T) {
	tests := []struct {
		in   string
		want color.NRGBA
	}{
		{"#abc", color.NRGBA{0xaa, 0xbb, 0xcc, 0xff}},
		{"#112233", color.NRGBA{0x11, 0x22, 0x33, 0xff}},
		{"#11223380", color.NRGBA{0x11, 0x22, 0x33, 0x80}},
	}
	for _, tt := range tests {
		if got, err := parseFill(tt.in); err != nil || got != tt.want {
			t.Errorf("parseFill(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	if _, err := parseFill(""); err == nil {
		t.Error("parseFill(\"\") accepted")
	}
}
