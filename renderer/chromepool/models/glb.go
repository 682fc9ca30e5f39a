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

// garment is a garment's flat outline made solid: a front and a back surface that meet at the
// outline, each height(x, y) off the middle plane (z = 0).
type garment struct {
	x0, y0, dx, dy float64 // the grid's top-left corner and its spans across and down (dy negative)
	cols, rows     int
	inside         func(x, y float64) bool
	puff           func(x float64) float64 // the body's roundness across, away from the edges
	edge           float64                 // how far in from the outline the surface rises to puff(x)
	outline        [][2]float64            // points on the outline: the grid's edge points, snapped (see point)
	// front is each grid point ((cols+1)*j + i) as the front surface has it, worked out once for
	// both sides: z 0 on the edge and at points no kept cell uses, else height.
	front [][3]float64
}

// newGarment grids the outline inside over cols x rows cells from (x0, y0), the top left, spanning dx
// across and dy down (negative). It takes the spans rather than the far corner so that they keep the
// precision of the caller's constant expressions (x1-x0 computed at run time can differ in the last bit).
func newGarment(x0, y0, dx, dy float64, cols, rows int, inside func(x, y float64) bool, puff func(x float64) float64, edge float64) *garment {
	g := &garment{x0: x0, y0: y0, dx: dx, dy: dy, cols: cols, rows: rows, inside: inside, puff: puff, edge: edge}
	g.front = make([][3]float64, 0, (cols+1)*(rows+1))
	var rises []int // the points whose height is worked out once the outline is known
	for j := 0; j <= rows; j++ {
		for i := 0; i <= cols; i++ {
			p, onEdge := g.point(i, j)
			if onEdge {
				g.outline = append(g.outline, p)
			} else if g.kept(i-1, j-1) || g.kept(i, j-1) || g.kept(i-1, j) || g.kept(i, j) {
				rises = append(rises, len(g.front))
			}
			g.front = append(g.front, [3]float64{p[0], p[1], 0})
		}
	}
	for _, k := range rises {
		g.front[k][2] = g.height(g.front[k][0], g.front[k][1])
	}
	return g
}

// kept says whether cell (i, j) is part of the garment: its centre lies inside the outline.
func (g *garment) kept(i, j int) bool {
	if i < 0 || j < 0 || i >= g.cols || j >= g.rows {
		return false
	}
	return g.inside(g.x0+(float64(i)+0.5)*g.dx/float64(g.cols), g.y0+(float64(j)+0.5)*g.dy/float64(g.rows))
}

// point is grid point (i, j) as the garment uses it. A point between kept and dropped cells is on the
// garment's edge (onEdge): it is moved onto the outline, found by bisection between it and the centre
// of a neighbouring cell on the other side of the outline, so the edge follows the outline instead of
// the grid's steps. Other points stay where the grid puts them.
func (g *garment) point(i, j int) (p [2]float64, onEdge bool) {
	at := func(u, v float64) [2]float64 {
		return [2]float64{g.x0 + u*g.dx/float64(g.cols), g.y0 + v*g.dy/float64(g.rows)}
	}
	p = at(float64(i), float64(j))
	var keptCentre, droppedCentre *[2]float64
	for _, c := range [4][2]int{{i - 1, j - 1}, {i, j - 1}, {i - 1, j}, {i, j}} {
		centre := at(float64(c[0])+0.5, float64(c[1])+0.5)
		if g.kept(c[0], c[1]) {
			keptCentre = &centre
		} else {
			droppedCentre = &centre
		}
	}
	if keptCentre == nil || droppedCentre == nil {
		return p, false
	}
	// Bisect between an inside and an outside point: the point itself and the centre across the outline.
	in, out := p, p
	if g.inside(p[0], p[1]) {
		out = *droppedCentre
	} else {
		in = *keptCentre
	}
	for range 24 {
		mid := [2]float64{(in[0] + out[0]) / 2, (in[1] + out[1]) / 2}
		if g.inside(mid[0], mid[1]) {
			in = mid
		} else {
			out = mid
		}
	}
	return in, true
}

// height is the garment's surface at (x, y), in front of the middle plane: puff(x), eased down to
// zero at the outline along a quarter circle over the last edge of the distance, so the silhouette is
// rounded like stuffed cloth rather than cut from a slab.
func (g *garment) height(x, y float64) float64 {
	d := math.Inf(1)
	for _, o := range g.outline {
		d = min(d, math.Hypot(x-o[0], y-o[1]))
	}
	t := min(d/g.edge, 1)
	return g.puff(x) * math.Sqrt(1-(1-t)*(1-t))
}

// addTo adds the garment's front and back surfaces to m.
func (g *garment) addTo(m *mesh) {
	for _, side := range []float64{1, -1} {
		m.addQuadGrid(g.cols, g.rows, func(u, v float64) [3]float64 {
			p := g.front[(g.cols+1)*int(math.Round(v*float64(g.rows)))+int(math.Round(u*float64(g.cols)))]
			return [3]float64{p[0], p[1], side * p[2]}
		}, func(u, v float64) bool {
			return g.kept(int(u*float64(g.cols)), int(v*float64(g.rows)))
		}, side < 0)
	}
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

// encodeGLB writes the meshes as one binary glTF 2.0 file, each mesh a node of the one scene. A
// non-zero look is written as the scene's extras.view (see product.view).
func encodeGLB(meshes []*mesh, look [3]float64) ([]byte, error) {
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
	scene := map[string]any{"nodes": sceneNodes}
	if look != [3]float64{} {
		scene["extras"] = map[string]any{"view": look}
	}
	doc := map[string]any{
		"asset":       map[string]string{"version": "2.0", "generator": "pressroom renderer/chromepool/models"},
		"scene":       0,
		"scenes":      []map[string]any{scene},
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
