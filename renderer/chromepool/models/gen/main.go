// Command gen writes the demo 3D models (renderer/chromepool/models) into a folder as GLB files, for
// designers and for the mockup3d command:
//
//	go run ./renderer/chromepool/models/gen -out DIR
//
// Each model goes to DIR/<name>.glb. The renderer serves the same models from memory, so none is committed.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pressroom/pressroom/renderer/chromepool/models"
)

func main() {
	out := flag.String("out", "", "folder to write the models into")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	if out == "" {
		return fmt.Errorf("no -out folder")
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, name := range models.Names {
		glb, err := models.Model(name)
		if err != nil {
			return err
		}
		path := filepath.Join(out, name+".glb")
		if err := os.WriteFile(path, glb, 0o644); err != nil {
			return err
		}
		fmt.Printf("%s %d bytes\n", path, len(glb))
	}
	return nil
}
