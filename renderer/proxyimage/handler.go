package proxyimage

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/renderer/imageapi"
	"github.com/pressroom/pressroom/renderer/membudget"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

// Config bounds the endpoint.
type Config struct {
	// Key is the key the bff must present (PRESSROOM_RENDERER_KEY); empty means imageapi.DevKey,
	// which a renderer reachable from other machines refuses (see ValidateKeys).
	Key string
	// MaxBytes caps a posted image (PRESSROOM_IMAGE_PROXY_MAX_BYTES, default 20 MiB, the bff's cap
	// of a fetched body too).
	MaxBytes int64
	// MaxPixels caps the declared width x height whatever the bff asks for
	// (PRESSROOM_IMAGE_PROXY_MAX_PIXELS, default 40 000 000).
	MaxPixels int64
	// Concurrency caps images worked on at once (PRESSROOM_IMAGE_PROXY_CONCURRENCY, default 2).
	Concurrency int
}

// LoadConfig reads the endpoint's settings over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := Config{MaxBytes: 20 << 20, MaxPixels: 40_000_000, Concurrency: 2}
	r := env.NewReader(lookup)
	r.String(&cfg.Key, imageapi.KeyVar)
	r.Int64(&cfg.MaxBytes, "PRESSROOM_IMAGE_PROXY_MAX_BYTES")
	r.Int64(&cfg.MaxPixels, "PRESSROOM_IMAGE_PROXY_MAX_PIXELS")
	r.Int(&cfg.Concurrency, "PRESSROOM_IMAGE_PROXY_CONCURRENCY")
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work.
func (c Config) Validate() error {
	switch {
	case c.MaxBytes < 1:
		return errors.New("PRESSROOM_IMAGE_PROXY_MAX_BYTES must be at least 1")
	case c.MaxPixels < 1:
		return errors.New("PRESSROOM_IMAGE_PROXY_MAX_PIXELS must be at least 1")
	case c.Concurrency < 1:
		return errors.New("PRESSROOM_IMAGE_PROXY_CONCURRENCY must be at least 1")
	}
	return nil
}

// ValidateKeys refuses an empty, short or development key when x requires real keys.
func (c Config) ValidateKeys(x env.Exposure) error {
	return x.CheckKey(imageapi.KeyVar, c.Key, imageapi.DevKey, imageapi.MinKeyLen)
}

// Handler serves imageapi.Path.
type Handler struct {
	cfg    Config
	key    []byte
	budget *membudget.Budget
	slots  chan struct{}
	log    *slog.Logger
}

// New builds the handler; budget (may be nil: no bound) is the memory the renderer's pixels share.
func New(cfg Config, budget *membudget.Budget, log *slog.Logger) (*Handler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	key := cfg.Key
	if key == "" {
		key = imageapi.DevKey
	}
	return &Handler{cfg: cfg, key: []byte(key), budget: budget, slots: make(chan struct{}, cfg.Concurrency), log: log}, nil
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		refuse(w, http.StatusMethodNotAllowed, imageapi.RefusedInput, "POST only")
		return
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(got), h.key) != 1 {
		refuse(w, http.StatusUnauthorized, imageapi.RefusedKey, "a valid renderer key is required")
		return
	}
	variant := r.URL.Query().Get("variant")
	if variant != imageapi.Original && variant != imageapi.Thumb && variant != imageapi.ThumbWebP {
		refuse(w, http.StatusBadRequest, imageapi.RefusedInput, "variant: want original, thumb or webp")
		return
	}
	maxPixels := h.cfg.MaxPixels
	if s := r.URL.Query().Get("max_pixels"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			refuse(w, http.StatusBadRequest, imageapi.RefusedInput, "max_pixels: want a positive integer")
			return
		}
		maxPixels = min(n, maxPixels)
	}
	if r.ContentLength > h.cfg.MaxBytes {
		refuse(w, http.StatusRequestEntityTooLarge, imageapi.RefusedBytes, fmt.Sprintf("body over %d bytes", h.cfg.MaxBytes))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.cfg.MaxBytes))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		refuse(w, http.StatusRequestEntityTooLarge, imageapi.RefusedBytes, fmt.Sprintf("body over %d bytes", h.cfg.MaxBytes))
		return
	case err != nil:
		refuse(w, http.StatusBadRequest, imageapi.RefusedInput, "body could not be read")
		return
	}
	res, err := h.make(r.Context(), body, variant, maxPixels)
	switch {
	case errors.Is(err, ErrTooManyPixels):
		refuse(w, http.StatusRequestEntityTooLarge, imageapi.RefusedPixels, "image has too many pixels")
	case errors.Is(err, ErrNotImage):
		refuse(w, http.StatusUnsupportedMediaType, imageapi.RefusedType, "not a PNG, JPEG, WebP or GIF image")
	case errors.Is(err, errBusy):
		refuse(w, http.StatusServiceUnavailable, imageapi.RefusedBusy, "busy")
	case err != nil:
		h.log.Error("image proxy thumbnail failed", "err", err)
		refuse(w, http.StatusInternalServerError, "", "thumbnail failed")
	case res.Body == nil:
		w.Header().Set("Content-Type", res.ContentType)
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Content-Type", res.ContentType)
		w.Write(res.Body)
	}
}

// errBusy: the caller went away while waiting for a slot or for memory.
var errBusy = errors.New("proxyimage: busy")

// make checks body and, for a thumbnail, makes it within a slot and the memory budget.
func (h *Handler) make(ctx context.Context, body []byte, variant string, maxPixels int64) (imageapi.Result, error) {
	ct, ok := sniffType(body)
	if !ok {
		return imageapi.Result{}, ErrNotImage
	}
	w, hgt, err := checkImage(body, ct, maxPixels)
	if err != nil || variant == imageapi.Original {
		return imageapi.Result{ContentType: ct}, err
	}
	select {
	case h.slots <- struct{}{}:
		defer func() { <-h.slots }()
	case <-ctx.Done():
		return imageapi.Result{}, errBusy
	}
	if h.budget != nil {
		// The decoded image, and the fitted copy (at most as large).
		release, err := h.budget.Acquire(ctx, 2*membudget.RGBA(w, hgt))
		if err != nil {
			return imageapi.Result{}, errBusy
		}
		defer release()
	}
	// A renderer built without cgo has no WebP encoder: it answers the JPEG or PNG, which says so.
	return thumbnail(body, ct, maxPixels, variant == imageapi.ThumbWebP && webpenc.Available)
}

func refuse(w http.ResponseWriter, status int, code, msg string) {
	if code != "" {
		w.Header().Set(imageapi.RefusalHeader, code)
	}
	http.Error(w, msg, status)
}
