// Package demoseed draws and stores the demo mockup templates and 3D models of the demo catalogue,
// and records their mockup_templates rows: the pixel half of the demo seed, which `renderer
// seed-demo` runs after `bff seed` has made the catalogue, so that the bff links no drawing code.
//
// It is for development and test deployments only; the renderer's command refuses production.
package demoseed
