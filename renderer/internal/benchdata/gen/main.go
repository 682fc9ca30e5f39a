// Command gen writes the renderer's synthetic test inputs: "gen -reference DIR" writes the benchmark's
// reference design, its artwork and an artwork with 2 MB of XMP; "gen -assets DIR" writes the fixture assets
// of schema/testdata/designs/assets.
package main

import (
	"flag"
	"fmt"
	"os"

	"golang.org/x/image/font/gofont/gomono"

	"github.com/pressroom/pressroom/renderer/internal/benchdata"
)

func main() {
	reference := flag.String("reference", "", "write the reference design and its files into this folder")
	assets := flag.String("assets", "", "write the design fixture assets into this folder")
	flag.Parse()
	if err := run(*reference, *assets); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(reference, assets string) error {
	if reference == "" && assets == "" {
		return fmt.Errorf("nothing to do: give -reference DIR and/or -assets DIR")
	}
	if reference != "" {
		if err := benchdata.WriteReference(reference); err != nil {
			return err
		}
	}
	if assets != "" {
		if err := benchdata.WriteAssets(assets, gomono.TTF); err != nil {
			return err
		}
	}
	return nil
}
