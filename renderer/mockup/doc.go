// Package mockup renders flat mockups: a print file placed on a product photo, as sellers and buyers see
// it. A Template (JSON, the design_json of a flat template_mockups row) names a base photo and the maps
// that placing a print needs, all in the photo's pixels:
//
//   - quad: where the print file's corners land (a perspective warp, so a poster seen at an angle or the
//     face of a mug works as well as a flat shirt);
//   - tint: where the product colour multiplies the base (the shirt, not the backdrop);
//   - displacement: small offsets (red = x, green = y, 128 = none) that bend the print along the folds;
//   - shadow: the shading multiplied over the print, so folds and the curve of a mug darken it;
//   - mask: where the print may show (the shirt, not its collar or a drawstring);
//   - crop and sizes: which part of the photo the mockup shows and at which long sides (2000, and 500 for
//     previews, the sizes of docs/mockups.md).
//
// Renderer.Render runs three steps: get the template prepared for the size (decoded, cropped, scaled;
// from a cache bounded in bytes and keyed by template id, a fingerprint of its content and the size, so a template is
// decoded once however many renders run at once), tint a copy of its base, and place the print. Placing
// is one fused pass over the quad's bounding box, without intermediate images: displacement, inverse
// homography, bilinear sampling in premultiplied RGBA (after halving the print while it is at least twice
// the quad's size), edge anti-aliasing from the distance to the quad's edges, shading, mask and
// source-over. A 2000 px mockup takes about 25-35 ms of one core with the template cached
// (BenchmarkRender); it agrees with ImageMagick doing the same (-distort Perspective, -compose Displace,
// Multiply, DstIn, Over) within a mean of 0.05/255 (scripts/bench, BENCH_ONLY=mockup). Encode writes PNG
// (renderer/pngenc) or WebP (renderer/webpenc).
//
// The demo templates of the seeded products are drawn by renderer/mockup/demo (go run
// ./renderer/mockup/gen -out DIR). This package does not render 3D templates (those with a glb; see
// renderer/chromepool), fetch anything itself (template images come through a raster.Loader), or render
// the design: its input is the print file that renderer/raster made.
package mockup
