package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/pngmeta"
	"github.com/pressroom/pressroom/renderer/raster"
)

// EnvTrace, set to 1, makes export print each pipeline step's duration to stderr.
const EnvTrace = "PRESSROOM_RENDER_TRACE"

// ErrUsage is returned (wrapped, with the usage line) for a wrong command line.
var ErrUsage = errors.New("usage")

// Usage lines of the subcommands.
const (
	usageStrip  = "renderer strip IN.png OUT.png"
	usageDPI    = "renderer dpi DESIGN.json"
	usageExport = "renderer export DESIGN.json OUT.png [--width N|full|export|preview] [--level 1..9]"
)

// Commands lists the subcommands Run handles, for the main's dispatch.
var Commands = []string{"strip", "dpi", "export", "mockup", "mockup3d"}

// Run runs one subcommand. args are the arguments after the program name, e.g. {"export", "d.json",
// "out.png", "--width", "1000"}. Results go to stdout; the returned error is one line.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError("no command; want strip, dpi, export, mockup or mockup3d")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "strip":
		return runStrip(rest, stdout)
	case "dpi":
		return runDPI(ctx, rest, stdout)
	case "export":
		return runExport(ctx, rest, stdout, stderr)
	case "mockup":
		return runMockup(ctx, rest, stdout, stderr)
	case "mockup3d":
		return runMockup3D(ctx, rest, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprintf(stdout, "usage:\n  %s\n  %s\n  %s\n  %s\n  %s\n", usageStrip, usageDPI, usageExport, usageMockup, usageMockup3D)
		return nil
	}
	return usageError(fmt.Sprintf("unknown command %q; want strip, dpi, export, mockup or mockup3d", cmd))
}

func usageError(msg string) error {
	return fmt.Errorf("%w: %s (%s | %s | %s | %s | %s)", ErrUsage, msg, usageStrip, usageDPI, usageExport, usageMockup, usageMockup3D)
}

func runStrip(args []string, stdout io.Writer) error {
	if len(args) != 2 {
		return fmt.Errorf("%w: %s", ErrUsage, usageStrip)
	}
	in, out := args[0], args[1]
	src, err := os.Open(in)
	if err != nil {
		return fmt.Errorf("strip: %w", err)
	}
	defer src.Close()
	var stats pngmeta.Stats
	err = writeAtomically(out, func(w io.Writer) error {
		var err error
		stats, err = pngmeta.Strip(w, src)
		return err
	})
	if err != nil {
		return fmt.Errorf("strip %s: %w", in, err)
	}
	return writeJSON(stdout, stats)
}

func runDPI(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("%w: %s", ErrUsage, usageDPI)
	}
	doc, dir, err := readDesign(args[0])
	if err != nil {
		return err
	}
	limits, err := imagelimit.LoadConfig(os.LookupEnv)
	if err != nil {
		return err
	}
	rep, err := raster.AssessDPI(ctx, doc, raster.DirLoader{Dir: dir}, limits)
	if err != nil {
		return fmt.Errorf("dpi %s: %w", args[0], err)
	}
	return writeJSON(stdout, rep)
}

func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	width := fs.String("width", "full", "output width: pixels, full, export or preview")
	level := fs.Int("level", 0, "PNG deflate level 1..9; 0 is pngenc's default")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fmt.Errorf("%w: %v: %s", ErrUsage, err, usageExport)
	}
	if len(pos) != 2 {
		return fmt.Errorf("%w: %s", ErrUsage, usageExport)
	}
	doc, dir, err := readDesign(pos[0])
	if err != nil {
		return err
	}
	w, err := outputWidth(*width, doc.PrintSpace)
	if err != nil {
		return err
	}
	limits, err := imagelimit.LoadConfig(os.LookupEnv)
	if err != nil {
		return err
	}
	if *level < 0 || *level > 9 {
		return fmt.Errorf("%w: --level %d: want 0..9", ErrUsage, *level)
	}
	opt := raster.Options{Width: w, Loader: raster.DirLoader{Dir: dir}, Limits: limits, Level: *level}
	if os.Getenv(EnvTrace) == "1" {
		opt.Observe = func(step string, d time.Duration) {
			fmt.Fprintf(stderr, "renderer: trace: %-24s %8.1f ms\n", step, float64(d.Microseconds())/1000)
		}
	}
	var rep raster.Report
	err = writeAtomically(pos[1], func(out io.Writer) error {
		var err error
		rep, err = raster.Export(ctx, doc, opt, out)
		return err
	})
	if err != nil {
		return fmt.Errorf("export %s: %w", pos[0], err)
	}
	for _, f := range rep.FontFallbacks {
		fmt.Fprintf(stderr, "renderer: warning: text %s: font %s: %s\n", f.ObjectID, f.Requested, f.Reason)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(stderr, "renderer: warning: %s: %s\n", w.ObjectID, w.Message)
	}
	return writeJSON(stdout, rep)
}

// parseInterspersed lets flags come before, between or after the positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// outputWidth reads --width: pixels, or full / export / preview.
func outputWidth(v string, ps design.PrintSpace) (int, error) {
	switch v {
	case "full", "":
		return 0, nil
	case "export":
		return raster.ExportWidth(ps), nil
	case "preview":
		return raster.PreviewWidth(ps), nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 3*design.MaxPrintSize {
		return 0, fmt.Errorf("%w: --width %q: want 1..%d pixels, full, export or preview", ErrUsage, v, 3*design.MaxPrintSize)
	}
	return n, nil
}

// readDesign reads and parses a design file and returns the folder its sources resolve against.
func readDesign(path string) (*design.Document, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, design.MaxDocumentBytes+1))
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", path, err)
	}
	doc, err := design.Parse(data)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return doc, filepath.Dir(path), nil
}

// writeAtomically writes through a temporary file next to path and renames it into place on success.
func writeAtomically(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// oneLine is used by tests: an error's text must not span lines.
func oneLine(err error) bool { return !strings.ContainsAny(err.Error(), "\r\n") }
