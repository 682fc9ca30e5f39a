package models

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"testing"
)

// TestModelsAreValidGLB parses each model's container and JSON chunk and checks what the 3D page relies
// on: a body and a print mesh, and print UVs spanning the whole 0..1 print space.
func TestModelsAreValidGLB(t *testing.T) {
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
			if _, body := names["body"]; !ok || !body {
				t.Fatalf("meshes %v; want body and print", names)
			}
			acc := doc.Accessors[doc.Meshes[p].Primitives[0].Attributes["TEXCOORD_0"]]
			view := doc.BufferViews[acc.BufferView]
			uvs := make([]float32, acc.Count*2)
			if err := binary.Read(bytes.NewReader(bin[view.ByteOffset:view.ByteOffset+view.ByteLength]), binary.LittleEndian, uvs); err != nil {
				t.Fatal(err)
			}
			lo, hi := float32(1), float32(0)
			for _, v := range uvs {
				lo, hi = min(lo, v), max(hi, v)
			}
			if lo != 0 || hi != 1 {
				t.Errorf("print UVs span %v..%v; want 0..1", lo, hi)
			}
		})
	}
	if _, err := Model("hat"); err == nil {
		t.Error("Model(hat) succeeded; want an unknown-model error")
	}
}
