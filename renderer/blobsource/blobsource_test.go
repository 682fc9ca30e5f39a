package blobsource

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/renderer/raster"
)

// failingStore is a real local store whose reads fail as a broken backend's would.
type failingStore struct{ blob.Store }

func (failingStore) Get(context.Context, string) (io.ReadCloser, blob.Info, error) {
	return nil, blob.Info{}, errors.New("connection reset")
}

func TestLoader(t *testing.T) {
	ctx := context.Background()
	cfg := blob.DefaultConfig()
	cfg.Dir = t.TempDir()
	store, err := blob.New(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Put(ctx, "u/1/a.png", bytes.NewReader([]byte("png")), 3, "image/png"); err != nil {
		t.Fatal(err)
	}
	l := Loader(store)

	rc, err := l.Open(ctx, "u/1/a.png")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if string(got) != "png" {
		t.Errorf("read %q, want %q", got, "png")
	}

	_, err = l.Open(ctx, "u/1/missing.png")
	if !errors.Is(err, blob.ErrNotFound) || IsPassing(err) {
		t.Errorf("missing object: err = %v, want blob.ErrNotFound, not passing", err)
	}

	_, err = l.Open(ctx, "https://example.com/a.png")
	if !errors.Is(err, raster.ErrUnsupportedSource) || IsPassing(err) {
		t.Errorf("URL source: err = %v, want raster.ErrUnsupportedSource, not passing", err)
	}

	_, err = Loader(failingStore{store}).Open(ctx, "u/1/a.png")
	if !IsPassing(err) || errors.Is(err, blob.ErrNotFound) {
		t.Errorf("broken store: err = %v, want a PassingError", err)
	}
}
