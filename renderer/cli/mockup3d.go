package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/pressroom/pressroom/renderer/chromepool"
	"github.com/pressroom/pressroom/renderer/chromepool/models"
	"github.com/pressroom/pressroom/renderer/mockup"
)

const usageMockup3D = "renderer mockup3d DESIGN.png --model MODEL.glb|tshirt|hoodie|mug|poster OUT.png [--color #rrggbb] [--ui DIR]"

// mockup3dReport is what the mockup3d command prints.
type mockup3dReport struct {
	Model string `json:"model"`
	// Color is the product colour of the model's body; empty: the model's own.
	Color  string `json:"color,omitempty"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	// Millis is the render's time, browser start included.
	Millis int64 `json:"ms"`
}

// runMockup3D renders one 3D mockup with a one-browser pool serving the built UI to itself.
func runMockup3D(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mockup3d", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	model := fs.String("model", "", "GLB model file, or a demo model: "+strings.Join(models.Names, ", "))
	color := fs.String("color", "", "product colour #rgb or #rrggbb of the model's body; default the model's own")
	uiDir := fs.String("ui", "", "the built UI holding mockup3d.html; default PRESSROOM_UI_DIR, else ui/dist")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fmt.Errorf("%w: %v: %s", ErrUsage, err, usageMockup3D)
	}
	if len(pos) != 2 || *model == "" {
		return fmt.Errorf("%w: %s", ErrUsage, usageMockup3D)
	}
	designPath, out := pos[0], pos[1]
	if *color != "" {
		if _, err := mockup.ParseColor(*color); err != nil {
			return fmt.Errorf("mockup3d: --color %w", err)
		}
	}
	design, err := os.ReadFile(designPath)
	if err != nil {
		return fmt.Errorf("mockup3d: design: %w", err)
	}
	job := chromepool.Job{Model: *model, Design: design, Color: *color}
	if !slices.Contains(models.Names, *model) {
		if job.ModelGLB, err = os.ReadFile(*model); err != nil {
			return fmt.Errorf("mockup3d: model: %w", err)
		}
		if !bytes.HasPrefix(job.ModelGLB, []byte("glTF")) {
			return fmt.Errorf("mockup3d: model %s is not a binary glTF (.glb) file", *model)
		}
	}
	if *uiDir == "" {
		*uiDir = os.Getenv("PRESSROOM_UI_DIR")
	}
	if *uiDir == "" {
		*uiDir = "ui/dist"
	}
	cfg, err := chromepool.LoadConfig(os.LookupEnv)
	if err != nil {
		return err
	}
	cfg.Browsers, cfg.QueueSize = 1, 1
	site, err := chromepool.NewSite(*uiDir)
	if err != nil {
		return err
	}
	base, stop, err := site.Listen()
	if err != nil {
		return err
	}
	defer stop()
	pool, err := chromepool.New(cfg, site, base, slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		return err
	}
	defer pool.Close()
	start := time.Now()
	shot, err := pool.Render(ctx, job)
	if err != nil {
		return fmt.Errorf("mockup3d: %w", err)
	}
	elapsed := time.Since(start)
	if err := writeAtomically(out, func(w io.Writer) error { _, err := w.Write(shot.PNG); return err }); err != nil {
		return fmt.Errorf("mockup3d: write %s: %w", out, err)
	}
	return writeJSON(stdout, mockup3dReport{Model: *model, Color: *color, Width: cfg.Width, Height: cfg.Height, Millis: elapsed.Milliseconds()})
}
