package models

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"math"
	"slices"
	"testing"
)

// TestModelsAreValidGLB parses each model's container and JSON chunk and checks what the 3D page relies
// on: a print mesh with a body (tinted by the product colour) or a frame, print UVs spanning the whole
// 0..1 print space, and a print mesh whose width (along its top edge) over height (down its left edge) is
// the model's PrintAspect.
func TestModelsAreValidGLB(t *testing.T) {
	if len(Names) != len(products) {
		t.Fatalf("Names %v and products (%d) differ", Names, len(products))
	}
	for _, name := range Names {
		t.Run(name, func(t *testing.T) {
			glb, err := Model(name)
			if err != nil {
				t.Fatal(err)
			}
			var hdr struct{ Magic, Version, Length, JSONLen, JSONType uint32 }
			if err := binary.Read(bytes.NewReader(glb), binary.LittleEndian, &hdr); err != nil {
				t.Fatal(err)
			}
			if hdr.Magic != 0x46546C67 || hdr.Version != 2 || int(hdr.Length) != len(glb) || hdr.JSONType != 0x4E4F534A {
				t.Fatalf("bad GLB header %+v for %d bytes", hdr, len(glb))
			}
			if len(glb) > 512<<10 {
				t.Errorf("model is %d bytes; keep demo models under 512 KiB", len(glb))
			}
			var doc struct {
				Meshes []struct {
					Name       string
					Primitives []struct{ Attributes map[string]int }
				}
				Accessors []struct {
					BufferView, Count int
					Type              string
				}
				BufferViews []struct{ ByteOffset, ByteLength int }
			}
			if err := json.Unmarshal(glb[20:20+hdr.JSONLen], &doc); err != nil {
				t.Fatal(err)
			}
			bin := glb[20+hdr.JSONLen+8:]
			names := map[string]int{}
			for i, m := range doc.Meshes {
				names[m.Name] = i
			}
			p, ok := names["print"]
			_, body := names["body"]
			_, frame := names["frame"]
			if !ok || len(names) != 2 || body == frame {
				t.Fatalf("meshes %v; want print and either body or frame", names)
			}
			// floats reads the print mesh's attribute as float32s.
			floats := func(attr string, n int) []float32 {
				t.Helper()
				acc := doc.Accessors[doc.Meshes[p].Primitives[0].Attributes[attr]]
				view := doc.BufferViews[acc.BufferView]
				out := make([]float32, acc.Count*n)
				if err := binary.Read(bytes.NewReader(bin[view.ByteOffset:view.ByteOffset+view.ByteLength]), binary.LittleEndian, out); err != nil {
					t.Fatal(err)
				}
				return out
			}
			uvs, pos := floats("TEXCOORD_0", 2), floats("POSITION", 3)
			lo, hi := float32(1), float32(0)
			for _, v := range uvs {
				lo, hi = min(lo, v), max(hi, v)
			}
			if lo != 0 || hi != 1 {
				t.Errorf("print UVs span %v..%v; want 0..1", lo, hi)
			}
			w, h := edgeLength(uvs, pos, 1, 0), edgeLength(uvs, pos, 0, 1)
			if want := PrintAspect[name]; math.Abs(w/h-want) > 0.01*want {
				t.Errorf("print mesh is %.3f x %.3f, aspect %.3f; PrintAspect says %.3f", w, h, w/h, want)
			}
		})
	}
	if _, err := Model("hat"); err == nil {
		t.Error("Model(hat) succeeded; want an unknown-model error")
	}
}

// edgeLength is the length of the print mesh's edge where UV coordinate fixed is 0, walking its
// vertices in the order of UV coordinate along (0 for u, 1 for v).
func edgeLength(uvs, pos []float32, fixed, along int) float64 {
	var edge []int
	for i := range len(uvs) / 2 {
		if uvs[2*i+fixed] == 0 {
			edge = append(edge, i)
		}
	}
	slices.SortFunc(edge, func(a, b int) int { return cmp.Compare(uvs[2*a+along], uvs[2*b+along]) })
	length := 0.0
	for k := 1; k < len(edge); k++ {
		a, b := pos[3*edge[k-1]:], pos[3*edge[k]:]
		dx, dy, dz := float64(b[0]-a[0]), float64(b[1]-a[1]), float64(b[2]-a[2])
		length += math.Sqrt(dx*dx + dy*dy + dz*dz)
	}
	return length
}

// TestGarmentEdgesFollowTheOutline holds the garments' silhouettes to their outlines: every edge of
// the body's front and back (the hood aside, which lies behind them) is on the outline, where the two
// surfaces meet at z = 0, so the garment is rounded there instead of ending in the grid's steps.
func TestGarmentEdgesFollowTheOutline(t *testing.T) {
	for name, inside := range map[string]func(x, y float64) bool{"tshirt": tshirtInside, "hoodie": hoodieInside} {
		t.Run(name, func(t *testing.T) {
			var body *mesh
			for _, m := range products[name].meshes() {
				if m.name == "body" {
					body = m
				}
			}
			// Edges used by one triangle only are the mesh's borders.
			uses := map[[2]uint16]int{}
			for k := 0; k+2 < len(body.indices); k += 3 {
				tri := body.indices[k : k+3]
				for e := range 3 {
					a, b := tri[e], tri[(e+1)%3]
					uses[[2]uint16{min(a, b), max(a, b)}]++
				}
			}
			const near = 1e-3
			onOutline := func(p [3]float32) bool {
				x, y := float64(p[0]), float64(p[1])
				in := inside(x, y)
				return inside(x+near, y) != in || inside(x-near, y) != in || inside(x, y+near) != in || inside(x, y-near) != in
			}
			borders, off := 0, 0
			for e, n := range uses {
				a, b := body.positions[e[0]], body.positions[e[1]]
				if n != 1 || a[2] < -0.015 || b[2] < -0.015 { // the hood's rim, behind the body
					continue
				}
				borders++
				for _, p := range [2][3]float32{a, b} {
					if p[2] != 0 || !onOutline(p) {
						off++
					}
				}
			}
			if borders < 100 {
				t.Fatalf("%d border edges on the body; want the outline's hundreds", borders)
			}
			if off > 0 {
				t.Errorf("%d border points of %d edges are off the outline or off the middle plane", off, borders)
			}
		})
	}
}
