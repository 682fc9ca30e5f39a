package svgdoc

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

const svgOpen = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100">`

func wrap(body string) string { return svgOpen + body + `</svg>` }

// billionLaughs is the classic entity bomb: ten levels of ten references each.
func billionLaughs() string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY lol "lol">`)
	for i := 1; i <= 9; i++ {
		b.WriteString(`<!ENTITY lol` + string(rune('0'+i)) + ` "`)
		prev := "lol"
		if i > 1 {
			prev = "lol" + string(rune('0'+i-1))
		}
		b.WriteString(strings.Repeat("&"+prev+";", 10) + `">`)
	}
	b.WriteString(`]>` + svgOpen + `<title>&lol9;</title></svg>`)
	return b.String()
}

func deep(n int) string {
	return wrap(strings.Repeat("<g>", n) + `<rect width="1" height="1"/>` + strings.Repeat("</g>", n))
}

// useBomb repeats ten uses of the level below at each of five levels: 10^5 rects from a small file.
func useBomb() string {
	var b strings.Builder
	b.WriteString(`<defs><g id="l0"><rect width="1" height="1"/></g>`)
	for i := 1; i <= 5; i++ {
		b.WriteString(`<g id="l` + string(rune('0'+i)) + `">`)
		for range 10 {
			b.WriteString(`<use href="#l` + string(rune('0'+i-1)) + `"/>`)
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</defs><use href="#l5"/>`)
	return wrap(b.String())
}

func TestParseRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		svg  string
		kind error
		msg  string // a part of the message the seller reads
	}{
		{"empty file", ``, ErrNotSVG, "not an SVG image"},
		{"a PNG", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ErrNotSVG, "not an SVG image"},
		{"HTML", `<html><body><svg/></body></html>`, ErrNotSVG, "first element must be <svg>"},
		{"cut short", svgOpen + `<rect width="10"`, ErrMalformed, "not well-formed"},
		{"two roots", svgOpen + `</svg><svg/>`, ErrMalformed, "more than one root"},
		{"Latin-1", `<?xml version="1.0" encoding="ISO-8859-1"?>` + wrap(""), ErrEncoding, "UTF-8"},
		{"too large", wrap(strings.Repeat(" ", MaxBytes)), ErrTooLarge, "larger than 5 MB"},
		{"script element", wrap(`<script>alert(1)</script>`), ErrScript, "script (<script>)"},
		{"script in the XHTML namespace", wrap(`<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>`), ErrScript, "script"},
		{"script inside metadata", wrap(`<metadata><script>alert(1)</script></metadata>`), ErrScript, "script"},
		{"onload on the root", `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`, ErrEventHandler, "(onload)"},
		{"onclick on a shape", wrap(`<rect width="5" height="5" onclick="x()"/>`), ErrEventHandler, "(onclick)"},
		{"ONMOUSEOVER in capitals", wrap(`<rect width="5" height="5" ONMOUSEOVER="x()"/>`), ErrEventHandler, "ONMOUSEOVER"},
		{"foreignObject", wrap(`<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>`),
			ErrForeignObject, "<foreignObject>"},
		{"iframe", wrap(`<iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example/"/>`), ErrForeignObject, "<iframe>"},
		{"use of another file", wrap(`<use href="https://evil.example/sprite.svg#a"/>`), ErrExternal, `href="https://evil.example/sprite.svg#a"`},
		{"xlink:href to a local file", wrap(`<use xlink:href="file:///etc/passwd#x"/>`), ErrExternal, "file:///etc/passwd"},
		{"image of another file", wrap(`<image href="http://169.254.169.254/latest/meta-data" width="10" height="10"/>`), ErrExternal, "169.254.169.254"},
		{"gradient of another file", wrap(`<rect width="5" height="5" fill="url(https://evil.example/g.svg#g)"/>`), ErrExternal, "url("},
		{"url() in a style attribute", wrap(`<rect width="5" height="5" style="fill:url('//evil.example/x')"/>`), ErrExternal, "evil.example"},
		{"@import in the style sheet", wrap(`<style>@import "https://evil.example/x.css";</style>`), ErrExternal, "@import"},
		{"xml-stylesheet", `<?xml-stylesheet href="https://evil.example/x.css"?>` + wrap(""), ErrExternal, "xml-stylesheet"},
		{"javascript link", wrap(`<a href="javascript:alert(1)"><rect width="5" height="5"/></a>`), ErrExternal, "javascript:alert(1)"},
		{"billion laughs", billionLaughs(), ErrEntities, "entities"},
		{"one entity", `<!DOCTYPE svg [<!ENTITY x "y">]>` + wrap(`<title>&x;</title>`), ErrEntities, "entities"},
		{"external entity", `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>` + wrap(`<title>&x;</title>`), ErrEntities, "entities"},
		{"undeclared entity", wrap(`<title>&x;</title>`), ErrEntities, "entities"},
		{"animation", wrap(`<rect width="5" height="5"><set attributeName="fill" to="red"/></rect>`), ErrAnimation, "<set>"},
		{"text", wrap(`<text x="1" y="10">Hi</text>`), ErrUnsupported, "convert the text to outlines"},
		{"embedded bitmap", wrap(`<image href="data:image/png;base64,iVBORw0KGgo=" width="5" height="5"/>`), ErrUnsupported, "<image>"},
		{"clip path", wrap(`<clipPath id="c"><rect width="5" height="5"/></clipPath>`), ErrUnsupported, "<clipPath>"},
		{"filter", wrap(`<filter id="f"><feGaussianBlur stdDeviation="2"/></filter>`), ErrUnsupported, "<filter>"},
		{"nested svg", wrap(`<svg width="5" height="5"/>`), ErrUnsupported, "nested drawing"},
		{"element selectors", wrap(`<style>rect { fill: red }</style>`), ErrStyleSheet, "selector"},
		{"media rules", wrap(`<style>@media print { .a { fill: red } }</style>`), ErrStyleSheet, "other than class rules"},
		{"too deep", deep(MaxDepth), ErrTooDeep, "more than 32 deep"},
		{"use bomb", useBomb(), ErrTooMany, "more than 20000 elements"},
		{"use loop", wrap(`<g id="a"><use href="#a"/></g>`), ErrUse, "loop"},
		{"use of nothing", wrap(`<use href="#nothing"/>`), ErrUse, "does not define"},
		{"no size", `<svg xmlns="http://www.w3.org/2000/svg"/>`, ErrSize, "no size"},
		{"huge width and height", `<svg xmlns="http://www.w3.org/2000/svg" width="100000000" height="100000000"/>`, ErrSize, "too large"},
		{"huge viewBox", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1e9 1e9"/>`, ErrSize, "too large"},
		{"a sliver", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1"/>`, ErrSize, "100 times"},
		{"zero width", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 10"/>`, ErrSize, "more than 0"},
		{"huge coordinate", wrap(`<rect width="1e30" height="5"/>`), ErrNumber, `width="1e30"`},
		{"huge path number", wrap(`<path d="M0 0L99999999 0z"/>`), ErrNumber, "in d="},
		{"bad path data", wrap(`<path d="M0 0 L 10 x"/>`), ErrMalformed, "d that cannot be read"},
		{"bad transform", wrap(`<g transform="spin(3)"><rect width="5" height="5"/></g>`), ErrMalformed, "transform"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse([]byte(tc.svg))
			var ref *Refusal
			if !errors.As(err, &ref) || !errors.Is(err, tc.kind) {
				t.Fatalf("Parse = %v, %v; want a refusal of kind %q", doc, err, tc.kind)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("message %q does not say %q", err, tc.msg)
			}
		})
	}
}

func TestParseTooManyPoints(t *testing.T) {
	d := "M0 0" + strings.Repeat(" L1 1", MaxPoints/2)
	_, err := Parse([]byte(wrap(`<path d="` + d + `"/>`)))
	if !errors.Is(err, ErrTooComplex) {
		t.Fatalf("err = %v, want ErrTooComplex", err)
	}
}

func TestParseAccepts(t *testing.T) {
	for _, tc := range []struct {
		name string
		svg  string
		// clean is what the clean file must hold (in order), absent what it must not.
		clean  []string
		absent []string
	}{
		{"shapes become paths with their paint",
			wrap(`<rect x="1" y="2" width="3" height="4" fill="red"/><circle cx="50" cy="50" r="10" stroke="#00f" stroke-width="2" fill="none"/>`),
			[]string{`<path d="M 1 2 L 4 2 L 4 6 L 1 6 Z" fill="#ff0000" stroke="none"/>`,
				`<path d="M 60 50 A 10 10 0 0 1 50 60 A 10 10 0 0 1 40 50 A 10 10 0 0 1 50 40 A 10 10 0 0 1 60 50 Z" fill="none" stroke="#0000ff" stroke-width="2"`},
			nil},
		{"titles, metadata and editors' namespaces dropped",
			`<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 10 10" inkscape:version="1">` +
				`<title>Logo</title><metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>` +
				`<inkscape:thing/><rect width="5" height="5" inkscape:label="box"/></svg>`,
			[]string{`<path d="M 0 0 L 5 0 L 5 5 L 0 5 Z" fill="#000000" stroke="none"/>`},
			[]string{"Logo", "inkscape", "rdf"}},
		{"a plain DOCTYPE naming the SVG DTD",
			`<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">` +
				wrap(`<rect width="5" height="5"/>`),
			[]string{`<path d="M 0 0 L 5 0`}, []string{"DOCTYPE", "w3.org/Graphics"}},
		{"class rules, style attribute and presentation attributes in that order",
			wrap(`<style>.a { fill: #00ff00; stroke: red } .b { fill: blue }</style><rect class="a" fill="#111111" style="stroke: none" width="1" height="1"/>`),
			[]string{`fill="#00ff00" stroke="none"`}, nil},
		{"currentColor and rgba",
			wrap(`<g color="#123456"><rect width="1" height="1" fill="currentColor"/><rect width="2" height="2" fill="rgba(255,0,0,0.5)"/></g>`),
			[]string{`fill="#123456" stroke="none"`, `fill="#ff0000" fill-opacity="0.501961"`}, nil},
		{"display none leaves the element out",
			wrap(`<g style="display:none"><rect width="9" height="9"/></g><rect width="1" height="1"/>`),
			[]string{`<path d="M 0 0 L 1 0 L 1 1 L 0 1 Z"`}, []string{"L 9 0"}},
		{"use is a copy moved by x and y, with the use's paint inherited",
			wrap(`<defs><rect id="r" width="2" height="2"/></defs><use href="#r" x="10" y="20" fill="#ff0000"/>`),
			[]string{`transform="matrix(1 0 0 1 10 20)" fill="#ff0000"`}, nil},
		{"group transforms and opacity multiply",
			wrap(`<g transform="translate(5 0)" opacity="0.5"><g transform="scale(2)" opacity="0.5"><rect width="1" height="1"/></g></g>`),
			[]string{`transform="matrix(2 0 0 2 5 0)" fill="#000000" fill-opacity="0.25"`}, nil},
		{"relative path commands, compact arc flags and smooth curves made absolute",
			wrap(`<path d="m10 10h5v5a5 5 0 01 5 5s5 5 10 0t5 0z"/>`),
			[]string{`d="M 10 10 L 15 10 L 15 15 A 5 5 0 0 1 20 20 C 20 20 25 25 30 20 Q 30 20 35 20 Z"`}, nil},
		{"gradients named g1, g2 and href chains resolved",
			wrap(`<defs><linearGradient id="base"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient>` +
				`<linearGradient id="tilted" xlink:href="#base" x2="0" y2="1"/></defs><rect width="5" height="5" fill="url(#tilted)"/>`),
			[]string{`<linearGradient id="g1"`, `<linearGradient id="g2" x1="0" y1="0" x2="0" y2="1"`,
				`<stop offset="1" stop-color="#0000ff" stop-opacity="1"/>`, `fill="url(#g2)"`}, []string{"tilted", "base"}},
		{"units and percentages",
			`<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="20mm"><rect width="50%" height="1in"/></svg>`,
			[]string{`viewBox="0 0 37.795276 75.590551"`, `L 18.897638 0 L 18.897638 96`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse([]byte(tc.svg))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			clean := string(doc.Clean)
			at := 0
			for _, want := range tc.clean {
				i := strings.Index(clean[at:], want)
				if i < 0 {
					t.Fatalf("clean file lacks %q (in order):\n%s", want, clean)
				}
				at += i + len(want)
			}
			for _, no := range tc.absent {
				if strings.Contains(clean, no) {
					t.Errorf("clean file holds %q:\n%s", no, clean)
				}
			}
			again, err := Parse(doc.Clean)
			if err != nil || !bytes.Equal(again.Clean, doc.Clean) {
				t.Errorf("the clean file does not read back to itself: %v\n%s\n%s", err, doc.Clean, again.Clean)
			}
		})
	}
}
