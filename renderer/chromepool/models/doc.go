// Package models makes the GLB (binary glTF 2.0) models of the 3D demo products in code, so the repository
// holds no downloaded or hand-made binaries: a T-shirt-like body, a hoodie, a mug and a framed poster.
//
// Every model has two meshes. "body" is the product in its base colour, which the 3D page replaces with the
// product colour; the poster has a "frame" instead, black whatever the paper's colour. "print" is a thin
// surface lying just above the body where the print space goes; its UVs map the whole print space, (0,0)
// at the design's top-left corner and (1,1) at its bottom-right, so the 3D page puts the design PNG on it
// as a texture (flipY off, as glTF wants). Everything outside the print mesh stays the body's colour.
//
// The garments are outlines made solid (garment): smooth silhouettes on the outline and surfaces that round off
// towards it. The poster carries the direction it is best seen from in its scene's extras (product.view).
//
// It is not a general glTF writer: one buffer, positions, normals, UVs and 16-bit indices per primitive.
package models
