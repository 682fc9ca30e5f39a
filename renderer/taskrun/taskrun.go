package taskrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/blobsource"
)

// Failure is an input that cannot be rendered as it is (a missing or damaged source, an invalid
// document): the handler records Msg, the message the user reads, and does not retry. Err is the
// cause, for the task's error and the logs.
type Failure struct {
	Msg string
	Err error
}

// Fail is a Failure with message msg and cause err (which may be nil).
func Fail(msg string, err error) error { return &Failure{Msg: msg, Err: err} }

func (f *Failure) Error() string {
	if f.Err == nil {
		return f.Msg
	}
	return f.Msg + " (" + f.Err.Error() + ")"
}

func (f *Failure) Unwrap() error { return f.Err }

// Classify sorts an error of rendering from blob sources: a cancelled context and a passing
// storage failure are returned to be retried, a missing source is a Failure with missingMsg, and
// everything else about the document or its sources a Failure with cannotMsg. nil stays nil.
func Classify(ctx context.Context, err error, missingMsg, cannotMsg string) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, blob.ErrNotFound):
		return Fail(missingMsg, err)
	case blobsource.IsPassing(err):
		return err
	}
	return Fail(cannotMsg, err)
}

// PriorityOf is the priority of the renderer queue the running task came from, or fallback when it
// ran outside one.
func PriorityOf(ctx context.Context, fallback queue.Priority) queue.Priority {
	name, _ := asynq.GetQueueName(ctx)
	for _, p := range []queue.Priority{queue.Interactive, queue.Default, queue.Bulk} {
		if name == queue.Name(queue.Renderer, p) {
			return p
		}
	}
	return fallback
}

// StoreFile runs write on a temporary file named after pattern (os.CreateTemp), then stores the
// file under key with contentType and answers its size: a print file can be far larger than what
// is wise to hold in memory. The file is removed in every case; write's error is returned as it is.
func StoreFile(ctx context.Context, store blob.Store, key, contentType, pattern string, write func(w io.Writer) error) (int64, error) {
	tmp, err := os.CreateTemp("", pattern)
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if err := write(tmp); err != nil {
		return 0, err
	}
	size, err := tmp.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	if err := store.Put(ctx, key, tmp, size, contentType); err != nil {
		return 0, fmt.Errorf("store %s: %w", key, err)
	}
	return size, nil
}
