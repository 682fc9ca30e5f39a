package svgdoc

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"golang.org/x/image/colornames"
)

// properties are the style properties read, from presentation attributes, class rules and style
// attributes alike; any other is dropped (it does not change what a shape paints here).
var properties = set("fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
	"stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "opacity", "stop-color",
	"stop-opacity", "color", "display", "visibility")

// decl is one property: value.
type decl struct{ prop, value string }

// declarations reads "a: b; c: d", keeping the properties read.
func declarations(s string) []decl {
	var out []decl
	for part := range strings.SplitSeq(s, ";") {
		prop, value, ok := strings.Cut(part, ":")
		if !ok {
			continue
		}
		prop = strings.ToLower(strings.TrimSpace(prop))
		value = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(value), "!important"))
		if properties[prop] && value != "" {
			out = append(out, decl{prop, value})
		}
	}
	return out
}

// sheet reads the file's <style> text: class rules only (".a, .b { fill: red }"), as drawing
// programs write them. Anything else would style the drawing in ways the clean copy could not keep,
// so it is refused rather than ignored.
func sheet(text string) (map[string][]decl, error) {
	if err := checkURLs(text); err != nil {
		return nil, err
	}
	text = stripComments(text)
	text = strings.NewReplacer("<![CDATA[", "", "]]>", "").Replace(text)
	rules := map[string][]decl{}
	for block := range strings.SplitSeq(text, "}") {
		if strings.TrimSpace(block) == "" {
			continue
		}
		selectors, body, ok := strings.Cut(block, "{")
		if !ok || strings.Contains(body, "{") || strings.Contains(selectors, "@") {
			return nil, Refuse(ErrStyleSheet, "The SVG's style sheet holds rules other than class rules (%s), which are not accepted.",
				quote(strings.TrimSpace(block)))
		}
		ds := declarations(body)
		for sel := range strings.SplitSeq(selectors, ",") {
			sel = strings.TrimSpace(sel)
			if !isClassSelector(sel) {
				return nil, Refuse(ErrStyleSheet, "The SVG's style sheet uses the selector %s; only class selectors (.name) are accepted.",
					quote(sel))
			}
			rules[sel[1:]] = append(rules[sel[1:]], ds...)
		}
	}
	return rules, nil
}

func stripComments(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "/*")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.Index(s[i+2:], "*/")
		if j < 0 {
			return b.String()
		}
		s = s[i+2+j+2:]
	}
}

func isClassSelector(s string) bool {
	if len(s) < 2 || s[0] != '.' {
		return false
	}
	for _, r := range s[1:] {
		if !(r == '-' || r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return false
		}
	}
	return true
}

// parseColor reads a CSS colour: a name, #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(), rgba(), hsl(), hsla().
func parseColor(v string) (color.NRGBA, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "transparent" {
		return color.NRGBA{}, true
	}
	if c, ok := colornames.Map[v]; ok {
		return color.NRGBA{c.R, c.G, c.B, 255}, true
	}
	if hex, ok := strings.CutPrefix(v, "#"); ok {
		return parseHex(hex)
	}
	name, args, ok := strings.Cut(v, "(")
	if !ok || !strings.HasSuffix(args, ")") {
		return color.NRGBA{}, false
	}
	parts := strings.FieldsFunc(strings.TrimSuffix(args, ")"), func(r rune) bool { return r == ',' || r == ' ' || r == '/' })
	if len(parts) != 3 && len(parts) != 4 {
		return color.NRGBA{}, false
	}
	alpha := 1.0
	if len(parts) == 4 {
		a, ok := fraction(parts[3])
		if !ok {
			return color.NRGBA{}, false
		}
		alpha = a
	}
	var rgb [3]float64
	switch name {
	case "rgb", "rgba":
		for i := range 3 {
			p := parts[i]
			if pct, ok := strings.CutSuffix(p, "%"); ok {
				f, err := strconv.ParseFloat(pct, 64)
				if err != nil {
					return color.NRGBA{}, false
				}
				rgb[i] = f / 100
				continue
			}
			f, err := strconv.ParseFloat(p, 64)
			if err != nil {
				return color.NRGBA{}, false
			}
			rgb[i] = f / 255
		}
	case "hsl", "hsla":
		h, err := strconv.ParseFloat(strings.TrimSuffix(parts[0], "deg"), 64)
		s, ok1 := percent(parts[1])
		l, ok2 := percent(parts[2])
		if err != nil || !ok1 || !ok2 {
			return color.NRGBA{}, false
		}
		rgb = hslToRGB(h, s, l)
	default:
		return color.NRGBA{}, false
	}
	return color.NRGBA{unit8(rgb[0]), unit8(rgb[1]), unit8(rgb[2]), unit8(alpha)}, true
}

func parseHex(hex string) (color.NRGBA, bool) {
	if len(hex) == 3 || len(hex) == 4 {
		long := make([]byte, 0, 8)
		for i := range len(hex) {
			long = append(long, hex[i], hex[i])
		}
		hex = string(long)
	}
	if len(hex) == 6 {
		hex += "ff"
	}
	if len(hex) != 8 {
		return color.NRGBA{}, false
	}
	n, err := strconv.ParseUint(hex, 16, 32)
	if err != nil {
		return color.NRGBA{}, false
	}
	return color.NRGBA{uint8(n >> 24), uint8(n >> 16), uint8(n >> 8), uint8(n)}, true
}

// fraction reads an opacity: a number or a percentage, clamped to 0..1.
func fraction(s string) (float64, bool) {
	if pct, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(pct, 64)
		return clamp01(f / 100), err == nil && !math.IsNaN(f)
	}
	f, err := strconv.ParseFloat(s, 64)
	return clamp01(f), err == nil && !math.IsNaN(f)
}

func percent(s string) (float64, bool) {
	pct, ok := strings.CutSuffix(s, "%")
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(pct, 64)
	return clamp01(f / 100), err == nil
}

func clamp01(f float64) float64 { return math.Max(0, math.Min(1, f)) }

func unit8(f float64) uint8 { return uint8(math.Round(clamp01(f) * 255)) }

func hslToRGB(h, s, l float64) [3]float64 {
	h = math.Mod(math.Mod(h, 360)+360, 360) / 360
	hue := func(t float64) float64 {
		q := l + s - l*s
		if l < 0.5 {
			q = l * (1 + s)
		}
		p := 2*l - q
		t = math.Mod(t+1, 1)
		switch {
		case t < 1.0/6:
			return p + (q-p)*6*t
		case t < 0.5:
			return q
		case t < 2.0/3:
			return p + (q-p)*(2.0/3-t)*6
		}
		return p
	}
	return [3]float64{hue(h + 1.0/3), hue(h), hue(h - 1.0/3)}
}

// hexOf writes a colour without its alpha, as #rrggbb.
func hexOf(c color.NRGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
