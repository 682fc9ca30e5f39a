package models

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
)

// mesh is one named glTF mesh with one primitive.
type mesh struct {
	name      string
	positions [][3]float32
	uvs       [][2]float32
	indices   []uint16
	// color is the material's base colour (linear RGBA).
	color [4]float32
	// textured marks the print mesh: its material is white so the design's own colours show.
	textured bool
}

// addQuadGrid adds a grid of cols x rows cells whose vertex (i, j) is at(u, v) for u = i/cols and
// v = j/rows, with UV (u, v). A cell is kept when keep(u, v) of its centre is true (nil keeps all).
// flip reverses the winding so the face points the other way.
func (m *mesh) addQuadGrid(cols, rows int, at func(u, v float64) [3]float64, keep func(u, v float64) bool, flip bool) {
	base := len(m.positions)
	for j := 0; j <= rows; j++ {
		for i := 0; i <= cols; i++ {
			u, v := float64(i)/float64(cols), float64(j)/float64(rows)
			p := at(u, v)
			m.positions = append(m.positions, [3]float32{float32(p[0]), float32(p[1]), float32(p[2])})
			m.uvs = append(m.uvs, [2]float32{float32(u), float32(v)})
		}
	}
	for j := 0; j < rows; j++ {
		for i := 0; i < cols; i++ {
			if keep != nil && !keep((float64(i)+0.5)/float64(cols), (float64(j)+0.5)/float64(rows)) {
				continue
			}
			a := uint16(base + j*(cols+1) + i)
			b, c, d := a+1, a+uint16(cols+1), a+uint16(cols+2)
			if flip {
				m.indices = append(m.indices, a, b, c, b, d, c)
			} else {
				m.indices = append(m.indices, a, c, b, b, c, d)
			}
		}
	}
}

// addSlab adds a garment's flat front and back: a cols x rows grid from (x0, y0), the top left, over
// dx across and dy down (negative), cut to the outline inside, each side puff(x) in front of or behind
// the middle plane. It takes the spans rather than the far corner so that they keep the precision of
// the caller's constant expressions (x1-x0 computed at run time can differ in the last bit).
func (m *mesh) addSlab(x0, y0, dx, dy float64, cols, rows int, inside func(x, y float64) bool, puff func(x float64) float64) {
	at := func(side float64) func(u, v float64) [3]float64 {
		return func(u, v float64) [3]float64 {
			x, y := x0+u*dx, y0+v*dy
			return [3]float64{x, y, side * puff(x)}
		}
	}
	keep := func(u, v float64) bool { return inside(x0+u*dx, y0+v*dy) }
	m.addQuadGrid(cols, rows, at(1), keep, false)
	m.addQuadGrid(cols, rows, at(-1), keep, true)
}

// addBox adds the six faces of the axis-aligned box from lo to hi, each facing outwards.
func (m *mesh) addBox(lo, hi [3]float64) {
	// face adds the quad from corner o along du and dv; it faces dv x du.
	face := func(o, du, dv [3]float64) {
		m.addQuadGrid(1, 1, func(u, v float64) [3]float64 {
			return [3]float64{o[0] + u*du[0] + v*dv[0], o[1] + u*du[1] + v*dv[1], o[2] + u*du[2] + v*dv[2]}
		}, nil, false)
	}
	sx, sy, sz := hi[0]-lo[0], hi[1]-lo[1], hi[2]-lo[2]
	face([3]float64{lo[0], hi[1], hi[2]}, [3]float64{sx, 0, 0}, [3]float64{0, -sy, 0})  // +z
	face([3]float64{hi[0], hi[1], lo[2]}, [3]float64{-sx, 0, 0}, [3]float64{0, -sy, 0}) // -z
	face([3]float64{hi[0], hi[1], hi[2]}, [3]float64{0, 0, -sz}, [3]float64{0, -sy, 0}) // +x
	face([3]float64{lo[0], hi[1], lo[2]}, [3]float64{0, 0, sz}, [3]float64{0, -sy, 0})  // -x
	face([3]float64{lo[0], hi[1], lo[2]}, [3]float64{sx, 0, 0}, [3]float64{0, 0, sz})   // +y
	face([3]float64{lo[0], lo[1], hi[2]}, [3]float64{sx, 0, 0}, [3]float64{0, 0, -sz})  // -y
}

// normals averages the face normals around each vertex.
func (m *mesh) normals() [][3]float32 {
	acc := make([][3]float64, len(m.positions))
	for t := 0; t+2 < len(m.indices); t += 3 {
		ia, ib, ic := m.indices[t], m.indices[t+1], m.indices[t+2]
		a, b, c := m.positions[ia], m.positions[ib], m.positions[ic]
		e1 := [3]float64{float64(b[0] - a[0]), float64(b[1] - a[1]), float64(b[2] - a[2])}
		e2 := [3]float64{float64(c[0] - a[0]), float64(c[1] - a[1]), float64(c[2] - a[2])}
		n := [3]float64{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
		for _, i := range []uint16{ia, ib, ic} {
			for k := range 3 {
				acc[i][k] += n[k]
			}
		}
	}
	out := make([][3]float32, len(acc))
	for i, n := range acc {
		l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
		if l == 0 {
			out[i] = [3]float32{0, 0, 1}
			continue
		}
		out[i] = [3]float32{float32(n[0] / l), float32(n[1] / l), float32(n[2] / l)}
	}
	return out
}

// encodeGLB writes the meshes as one binary glTF 2.0 file, each mesh a node of the one scene.
func encodeGLB(meshes []*mesh) ([]byte, error) {
	var bin bytes.Buffer
	type view struct {
		Buffer     int `json:"buffer"`
		ByteOffset int `json:"byteOffset"`
		ByteLength int `json:"byteLength"`
		Target     int `json:"target"`
	}
	type accessor struct {
		BufferView    int       `json:"bufferView"`
		ComponentType int       `json:"componentType"`
		Count         int       `json:"count"`
		Type          string    `json:"type"`
		Min           []float32 `json:"min,omitempty"`
		Max           []float32 `json:"max,omitempty"`
	}
	var views []view
	var accessors []accessor
	// add appends data as a new buffer view (4-byte aligned) and returns its index.
	add := func(data any, target int) (int, error) {
		for bin.Len()%4 != 0 {
			bin.WriteByte(0)
		}
		off := bin.Len()
		if err := binary.Write(&bin, binary.LittleEndian, data); err != nil {
			return 0, err
		}
		views = append(views, view{ByteOffset: off, ByteLength: bin.Len() - off, Target: target})
		return len(views) - 1, nil
	}
	const (
		arrayBuffer   = 34962
		elementBuffer = 34963
		float         = 5126
		unsignedShort = 5123
	)
	type primitive struct {
		Attributes map[string]int `json:"attributes"`
		Indices    int            `json:"indices"`
		Material   int            `json:"material"`
	}
	type gltfMesh struct {
		Name       string      `json:"name"`
		Primitives []primitive `json:"primitives"`
	}
	type node struct {
		Name string `json:"name"`
		Mesh int    `json:"mesh"`
	}
	type pbr struct {
		BaseColorFactor [4]float32 `json:"baseColorFactor"`
		MetallicFactor  float32    `json:"metallicFactor"`
		RoughnessFactor float32    `json:"roughnessFactor"`
	}
	type material struct {
		Name                 string `json:"name"`
		PBRMetallicRoughness pbr    `json:"pbrMetallicRoughness"`
		DoubleSided          bool   `json:"doubleSided"`
	}
	var meshesOut []gltfMesh
	var nodes []node
	var materials []material
	var sceneNodes []int
	for _, m := range meshes {
		if len(m.positions) > math.MaxUint16 {
			return nil, fmt.Errorf("mesh %s: %d vertices, more than 16-bit indices address", m.name, len(m.positions))
		}
		lo := [3]float32{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32}
		hi := [3]float32{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32}
		for _, p := range m.positions {
			for k := range 3 {
				lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
			}
		}
		pv, err := add(m.positions, arrayBuffer)
		if err != nil {
			return nil, err
		}
		accessors = append(accessors, accessor{BufferView: pv, ComponentType: float, Count: len(m.positions), Type: "VEC3", Min: lo[:], Max: hi[:]})
		nv, err := add(m.normals(), arrayBuffer)
		if err != nil {
			return nil, err
		}
		accessors = append(accessors, accessor{BufferView: nv, ComponentType: float, Count: len(m.positions), Type: "VEC3"})
		uv, err := add(m.uvs, arrayBuffer)
		if err != nil {
			return nil, err
		}
		accessors = append(accessors, accessor{BufferView: uv, ComponentType: float, Count: len(m.uvs), Type: "VEC2"})
		iv, err := add(m.indices, elementBuffer)
		if err != nil {
			return nil, err
		}
		accessors = append(accessors, accessor{BufferView: iv, ComponentType: unsignedShort, Count: len(m.indices), Type: "SCALAR"})
		a := len(accessors) - 4
		color := m.color
		if m.textured {
			color = [4]float32{1, 1, 1, 1}
		}
		materials = append(materials, material{Name: m.name, PBRMetallicRoughness: pbr{BaseColorFactor: color, RoughnessFactor: 0.85}, DoubleSided: true})
		meshesOut = append(meshesOut, gltfMesh{Name: m.name, Primitives: []primitive{{
			Attributes: map[string]int{"POSITION": a, "NORMAL": a + 1, "TEXCOORD_0": a + 2},
			Indices:    a + 3, Material: len(materials) - 1,
		}}})
		nodes = append(nodes, node{Name: m.name, Mesh: len(meshesOut) - 1})
		sceneNodes = append(sceneNodes, len(nodes)-1)
	}
	for bin.Len()%4 != 0 {
		bin.WriteByte(0)
	}
	doc := map[string]any{
		"asset":       map[string]string{"version": "2.0", "generator": "pressroom renderer/chromepool/models"},
		"scene":       0,
		"scenes":      []map[string]any{{"nodes": sceneNodes}},
		"nodes":       nodes,
		"meshes":      meshesOut,
		"materials":   materials,
		"accessors":   accessors,
		"bufferViews": views,
		"buffers":     []map[string]int{{"byteLength": bin.Len()}},
	}
	js, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	var out bytes.Buffer
	total := 12 + 8 + len(js) + 8 + bin.Len()
	for _, v := range []uint32{0x46546C67, 2, uint32(total), uint32(len(js)), 0x4E4F534A} {
		binary.Write(&out, binary.LittleEndian, v)
	}
	out.Write(js)
	for _, v := range []uint32{uint32(bin.Len()), 0x004E4942} {
		binary.Write(&out, binary.LittleEndian, v)
	}
	out.Write(bin.Bytes())
	return out.Bytes(), nil
}
