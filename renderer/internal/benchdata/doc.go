// Package benchdata makes the synthetic inputs of the renderer's tests and benchmarks with code, so nothing
// is downloaded and every run sees the same pixels: fixture artwork and a fill pattern (committed under
// schema/testdata/designs/assets), and the reference design of the export benchmark (a 4500x5400 artwork
// plus two texts at 300 DPI) with a copy of the artwork carrying 2 MB of XMP for the strip benchmark.
//
// The gen program (go run ./renderer/internal/benchdata/gen) writes either set to a folder; scripts/bench
// uses it. It is internal: nothing outside the renderer's tests and benchmarks should depend on it.
package benchdata
