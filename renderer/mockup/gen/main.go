// Command gen writes the demo flat mockup templates (renderer/mockup/demo) into a folder:
//
//	go run ./renderer/mockup/gen -out DIR [-side 2000] [-only tshirt-front,mug-wrap]
//
// Each template goes to DIR/<id>/: template.json, base.png and its maps. The same flags write the same
// bytes.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/pressroom/pressroom/renderer/mockup/demo"
)

func main() {
	out := flag.String("out", "", "folder to write the templates into")
	side := flag.Int("side", demo.DefaultSide, "photo size in pixels (square)")
	only := flag.String("only", "", "comma-separated template ids; empty writes all: "+strings.Join(demo.IDs(), ","))
	flag.Parse()
	if err := run(*out, *side, *only); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string, side int, only string) error {
	if out == "" {
		return fmt.Errorf("no -out folder")
	}
	ids := demo.IDs()
	if only != "" {
		ids = strings.Split(only, ",")
		for _, id := range ids {
			if !slices.Contains(demo.IDs(), id) {
				return fmt.Errorf("-only: unknown template %q; have %s", id, strings.Join(demo.IDs(), ","))
			}
		}
	}
	for _, id := range ids {
		s, err := demo.Draw(id, side)
		if err != nil {
			return err
		}
		if err := s.Write(out); err != nil {
			return err
		}
	}
	return nil
}
