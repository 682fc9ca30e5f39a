// Package blobsource reads the sources of a render from the blob store, for the renderer's task
// handlers: only blob keys are read, and a storage failure other than a missing object is marked
// passing so that the task is retried.
package blobsource

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/raster"
)

// PassingError is a passing storage failure while reading a source: worth a retry.
type PassingError struct{ Err error }

func (e *PassingError) Error() string { return e.Err.Error() }
func (e *PassingError) Unwrap() error { return e.Err }

// IsPassing reports whether err carries a PassingError.
func IsPassing(err error) bool {
	var pe *PassingError
	return errors.As(err, &pe)
}

// Loader reads blob keys from store. A missing object wraps blob.ErrNotFound; any other storage
// error is a PassingError; a source that is not a blob key wraps raster.ErrUnsupportedSource.
func Loader(store blob.Store) raster.Loader {
	return raster.LoaderFunc(func(ctx context.Context, src string) (io.ReadCloser, error) {
		if design.SourceKindOf(src) != design.SourceBlobKey {
			return nil, fmt.Errorf("%w: %s: only blob keys are read", raster.ErrUnsupportedSource, src)
		}
		rc, _, err := store.Get(ctx, src)
		switch {
		case errors.Is(err, blob.ErrNotFound):
			return nil, fmt.Errorf("%s: %w", src, err)
		case err != nil:
			return nil, &PassingError{Err: fmt.Errorf("read %s: %w", src, err)}
		}
		return rc, nil
	})
}
