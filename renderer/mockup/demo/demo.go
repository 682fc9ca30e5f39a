package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/raster"
)

// DefaultSide is the photo size of the demo templates: the mockup size.
const DefaultSide = mockup.DefaultSize

// Set is one demo template: its JSON and its images by file name (the names its JSON uses).
type Set struct {
	ID       string
	Template *mockup.Template
	JSON     []byte
	Files    map[string][]byte
}

// IDs lists the demo templates: T-shirt front and back, hoodie front, mug wrap, poster and all-over-print
// shirt front.
func IDs() []string {
	ids := make([]string, len(products))
	for i, p := range products {
		ids[i] = p.id
	}
	return ids
}

// Draw draws the demo template id with a side x side photo (DefaultSide for the real thing; tests draw
// smaller ones). The same arguments give the same bytes.
func Draw(id string, side int) (Set, error) {
	if side < mockup.MinSize || side > mockup.MaxPhotoSide {
		return Set{}, fmt.Errorf("demo: side %d: want %d..%d", side, mockup.MinSize, mockup.MaxPhotoSide)
	}
	for _, p := range products {
		if p.id != id {
			continue
		}
		tpl := p.template(side)
		data, err := json.MarshalIndent(tpl, "", "  ")
		if err != nil {
			return Set{}, err
		}
		data = append(data, '\n')
		parsed, err := mockup.Parse(data)
		if err != nil {
			return Set{}, fmt.Errorf("demo %s: %w", id, err)
		}
		m := draw(side, p.draw)
		images := map[string]image.Image{tpl.Base: m.base, tpl.Shadow: m.shadow, tpl.Mask: m.mask}
		if tpl.Tint != "" {
			images[tpl.Tint] = m.tint
		}
		if tpl.Displacement != "" {
			images[tpl.Displacement] = m.displacement
		}
		s := Set{ID: id, Template: parsed, JSON: data, Files: map[string][]byte{}}
		for name, img := range images {
			var buf bytes.Buffer
			if err := png.Encode(&buf, img); err != nil {
				return Set{}, fmt.Errorf("demo %s: encode %s: %w", id, name, err)
			}
			s.Files[name] = buf.Bytes()
		}
		return s, nil
	}
	return Set{}, fmt.Errorf("demo: unknown template %q; have %v", id, IDs())
}

// Loader serves the set's files by name, as raster.DirLoader serves a folder.
func (s Set) Loader() raster.Loader {
	return raster.LoaderFunc(func(ctx context.Context, src string) (io.ReadCloser, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, ok := s.Files[src]
		if !ok {
			return nil, fmt.Errorf("demo %s: %s: %w", s.ID, src, os.ErrNotExist)
		}
		return io.NopCloser(bytes.NewReader(b)), nil
	})
}

// Write writes the set into dir/ID: template.json and its images.
func (s Set) Write(dir string) error {
	d := filepath.Join(dir, s.ID)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(s.Files))
	for name := range s.Files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(d, name), s.Files[name], 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(d, "template.json"), s.JSON, 0o644)
}
