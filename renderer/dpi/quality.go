package dpi

import "math"

// Quality is the resolution verdict of a design (the DPI quality rule, docs/editor.md).
type Quality string

// The three qualities, as they appear in JSON.
const (
	Good   Quality = "good"
	Normal Quality = "normal"
	Low    Quality = "low"
)

// Placement is one image as a design places it: its source size in pixels
// and its placed size in print-file pixels (before rotation, which does not
// change resolution).
type Placement struct {
	ID           string
	SourceWidth  int
	SourceHeight int
	PlacedWidth  float64
	PlacedHeight float64
}

// ObjectReport is the resolution of one placed image.
type ObjectReport struct {
	ID           string  `json:"id"`
	SourceWidth  int     `json:"source_width"`
	SourceHeight int     `json:"source_height"`
	PlacedWidth  float64 `json:"placed_width"`
	PlacedHeight float64 `json:"placed_height"`
	EffectiveDPI float64 `json:"effective_dpi"`
	Quality      Quality `json:"quality"`
}

// Report is the resolution of a design.
type Report struct {
	// Quality is QualityOf(MinEffectiveDPI); Good for a design without images.
	Quality Quality `json:"quality"`
	// MinEffectiveDPI is the lowest effective DPI over all images; 0 for a
	// design without images.
	MinEffectiveDPI float64        `json:"min_effective_dpi"`
	Objects         []ObjectReport `json:"objects"`
}

// tolerance absorbs floating-point error at the quality boundaries: an image
// whose effective DPI is the midpoint up to rounding is good, not normal.
// It is far below any difference a print could show.
const tolerance = 1e-9

// Effective returns the effective DPI of a placed image: docDPI times source
// pixels per placed pixel, on the axis that gives less. An axis with a
// non-positive source or placed size is ignored; with no usable axis the
// result is 0, which rates as low.
func Effective(p Placement, docDPI float64) float64 {
	eff := math.Inf(1)
	if p.SourceWidth > 0 && p.PlacedWidth > 0 {
		eff = min(eff, docDPI*float64(p.SourceWidth)/p.PlacedWidth)
	}
	if p.SourceHeight > 0 && p.PlacedHeight > 0 {
		eff = min(eff, docDPI*float64(p.SourceHeight)/p.PlacedHeight)
	}
	if math.IsInf(eff, 1) || math.IsNaN(eff) {
		return 0
	}
	return eff
}

// QualityOf rates an effective DPI: Good at or above the midpoint of docDPI
// and minDPI, Low below minDPI, Normal between. With DPI 300 and minimum
// 150: 225 is good, 224.99 normal, 150 normal, 149.99 low.
func QualityOf(effective, docDPI, minDPI float64) Quality {
	mid := (docDPI + minDPI) / 2
	switch {
	case effective >= mid-tolerance*math.Abs(mid):
		return Good
	case effective < minDPI-tolerance*math.Abs(minDPI):
		return Low
	default:
		return Normal
	}
}

// Assess rates every placement and the design as a whole.
func Assess(placements []Placement, docDPI, minDPI float64) Report {
	r := Report{Quality: Good, Objects: make([]ObjectReport, 0, len(placements))}
	for i, p := range placements {
		eff := Effective(p, docDPI)
		r.Objects = append(r.Objects, ObjectReport{
			ID:           p.ID,
			SourceWidth:  p.SourceWidth,
			SourceHeight: p.SourceHeight,
			PlacedWidth:  p.PlacedWidth,
			PlacedHeight: p.PlacedHeight,
			EffectiveDPI: eff,
			Quality:      QualityOf(eff, docDPI, minDPI),
		})
		if i == 0 || eff < r.MinEffectiveDPI {
			r.MinEffectiveDPI = eff
		}
	}
	if len(placements) > 0 {
		r.Quality = QualityOf(r.MinEffectiveDPI, docDPI, minDPI)
	}
	return r
}

// ScaleCap is the editor's limit on enlarging an image: docDPI / minDPI
// (2 for the defaults 300 and 150). It is 0 when either is not positive,
// meaning no cap can be computed; validate the document first.
func ScaleCap(docDPI, minDPI float64) float64 {
	if docDPI <= 0 || minDPI <= 0 {
		return 0
	}
	return docDPI / minDPI
}
