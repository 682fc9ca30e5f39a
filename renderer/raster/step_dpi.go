package raster

import (
	"context"

	"github.com/pressroom/pressroom/renderer/dpi"
)

// assessDPIStep rates the effective DPI of the images drawn (collected by the image steps).
func assessDPIStep() step {
	return step{Name: "assess dpi", Run: func(_ context.Context, s *state) error {
		s.report.DPI = dpi.Assess(s.placements, s.doc.PrintSpace.DPI, s.doc.PrintSpace.MinDPI)
		return nil
	}}
}
