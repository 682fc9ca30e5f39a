package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/raster"
)

const usageMockup = "renderer mockup DESIGN.json --template TEMPLATE.json OUT.png|OUT.webp [--color #rrggbb] [--size N|default|preview]"

// mockupReport is what the mockup command prints.
type mockupReport struct {
	Template string `json:"template"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Format   string `json:"format"`
	// PrintWidth and PrintHeight are the print file's size: the design rendered at its export width.
	PrintWidth  int `json:"print_width"`
	PrintHeight int `json:"print_height"`
}

func runMockup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mockup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	tplPath := fs.String("template", "", "flat mockup template JSON")
	color := fs.String("color", "", "product colour #rgb or #rrggbb; default the template's")
	size := fs.String("size", "default", "output long side: pixels (one of the template's sizes), default (2000) or preview (500)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fmt.Errorf("%w: %v: %s", ErrUsage, err, usageMockup)
	}
	if len(pos) != 2 || *tplPath == "" {
		return fmt.Errorf("%w: %s", ErrUsage, usageMockup)
	}
	designPath, out := pos[0], pos[1]
	format, err := mockup.FormatOf(out)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	n, err := mockupSize(*size)
	if err != nil {
		return err
	}
	tpl, err := readTemplate(*tplPath)
	if err != nil {
		return err
	}
	doc, dir, err := readDesign(designPath)
	if err != nil {
		return err
	}
	limits, err := imagelimit.LoadConfig(os.LookupEnv)
	if err != nil {
		return err
	}
	trace := func(string, time.Duration) {}
	if os.Getenv(EnvTrace) == "1" {
		trace = func(step string, d time.Duration) {
			fmt.Fprintf(stderr, "renderer: trace: %-24s %8.1f ms\n", step, float64(d.Microseconds())/1000)
		}
	}
	start := time.Now()
	printFile, rep, err := raster.Render(ctx, doc, raster.Options{Width: raster.ExportWidth(doc.PrintSpace), Loader: raster.DirLoader{Dir: dir}, Limits: limits})
	if err != nil {
		return fmt.Errorf("mockup: design %s: %w", designPath, err)
	}
	trace("design", time.Since(start))
	for _, f := range rep.FontFallbacks {
		fmt.Fprintf(stderr, "renderer: warning: text %s: font %s: %s\n", f.ObjectID, f.Requested, f.Reason)
	}
	cfg := mockup.DefaultConfig()
	cfg.Limits = limits
	r, err := mockup.New(cfg, raster.DirLoader{Dir: filepath.Dir(*tplPath)})
	if err != nil {
		return err
	}
	img, err := r.Render(ctx, printFile, tpl, mockup.Options{Color: *color, Size: n, Observe: trace})
	if err != nil {
		return fmt.Errorf("mockup: template %s: %w", *tplPath, err)
	}
	start = time.Now()
	err = writeAtomically(out, func(w io.Writer) error { return mockup.Encode(w, img, format) })
	if err != nil {
		return fmt.Errorf("mockup: write %s: %w", out, err)
	}
	trace("encode "+string(format), time.Since(start))
	return writeJSON(stdout, mockupReport{Template: tpl.ID, Width: img.Rect.Dx(), Height: img.Rect.Dy(), Format: string(format),
		PrintWidth: printFile.Rect.Dx(), PrintHeight: printFile.Rect.Dy()})
}

// mockupSize reads --size: pixels, default or preview.
func mockupSize(v string) (int, error) {
	switch v {
	case "default", "":
		return mockup.DefaultSize, nil
	case "preview":
		return mockup.PreviewSize, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < mockup.MinSize || n > mockup.MaxPhotoSide {
		return 0, fmt.Errorf("%w: --size %q: want %d..%d pixels, default or preview", ErrUsage, v, mockup.MinSize, mockup.MaxPhotoSide)
	}
	return n, nil
}

// readTemplate reads and parses a flat mockup template file.
func readTemplate(path string) (*mockup.Template, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("template: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, mockup.MaxTemplateBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	tpl, err := mockup.Parse(data)
	if err != nil {
		if errors.Is(err, mockup.ErrNotFlat) {
			return nil, fmt.Errorf("%s: %w (3D templates are rendered by the Chrome pool)", path, err)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return tpl, nil
}
