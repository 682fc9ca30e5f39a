package mockuptask

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"io"

	"github.com/pressroom/pressroom/renderer/blobsource"
	"github.com/pressroom/pressroom/renderer/chromepool"
	"github.com/pressroom/pressroom/renderer/raster"
	"github.com/pressroom/pressroom/renderer/taskrun"
)

// Renderer3D draws a 3D mockup: the renderer's Chrome pool (chromepool.Pool).
type Renderer3D interface {
	Render(ctx context.Context, job chromepool.Job) (chromepool.Shot, error)
}

// errNo3D is the error of a 3D mockup on a renderer without a Chrome pool (no built 3D page); the task
// is retried, by then perhaps on a renderer that has one.
var errNo3D = errors.New("mockuptask: this renderer has no Chrome pool for 3D mockups (PRESSROOM_UI_DIR holds no built mockup3d.html)")

const (
	// maxGLBBytes bounds a 3D template's model.
	maxGLBBytes = 64 << 20
	// textureSide is the longest side of the design texture sent to the 3D page: the mockup is 1500 px
	// wide and the print area a part of it, so more pixels only cost upload and decode time.
	textureSide = 2048
)

// render3D draws the print file on the template's GLB model (key glb), its body in the product colour as
// the flat mockup has it, in the Chrome pool and returns the PNG with its preview, scaled from the frame
// the pool decoded. A blank frame or a crashed browser, which the pool has already retried once, comes
// back as an error for the task to retry: a blank mockup is never stored.
func (h *Handler) render3D(ctx context.Context, r row) (made, error) {
	if h.pool == nil {
		return made{}, errNo3D
	}
	model, err := h.glb(ctx, r.GLB)
	if err != nil {
		return made{}, err
	}
	texture, err := h.texture(ctx, r.PrintKey)
	if err != nil {
		return made{}, err
	}
	color, err := productColor(r.Options, r.DefaultOption)
	if err != nil {
		return made{}, taskrun.Fail(MsgCannotRender, err)
	}
	shot, err := h.pool.Render(ctx, chromepool.Job{ModelGLB: model, Design: texture, Color: color})
	if err != nil {
		return made{}, fmt.Errorf("3D mockup: %w", err)
	}
	preview, err := encodePreview(shot.Image)
	if err != nil {
		return made{}, err
	}
	return made{png: shot.PNG, preview: preview}, nil
}

// glb reads the template's binary glTF model.
func (h *Handler) glb(ctx context.Context, key string) ([]byte, error) {
	rc, err := h.source.Open(ctx, key)
	if err != nil {
		return nil, classifyRead(err, MsgMissingTemplate)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxGLBBytes+1))
	if err != nil {
		return nil, &blobsource.PassingError{Err: fmt.Errorf("read %s: %w", key, err)}
	}
	if len(data) > maxGLBBytes || !bytes.HasPrefix(data, []byte("glTF")) {
		return nil, taskrun.Fail(MsgMissingTemplate, fmt.Errorf("%s is not a binary glTF model of at most %d bytes", key, maxGLBBytes))
	}
	return data, nil
}

// texture is the print file at most textureSide pixels on its longer side, as a quickly encoded PNG.
func (h *Handler) texture(ctx context.Context, key string) ([]byte, error) {
	img, release, err := h.printFile(ctx, key)
	if err != nil {
		return nil, err
	}
	defer release()
	if b := img.Bounds(); max(b.Dx(), b.Dy()) > textureSide {
		img = raster.Fit(img, textureSide, textureSide)
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode the 3D texture: %w", err)
	}
	return buf.Bytes(), nil
}
