package uploads

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// mockupPrefix starts the keys of mockup images the renderer makes; they are no uploads and need
// no sanitizing.
const mockupPrefix = "p/"

// handleFile is GET /api/files/{key}[?variant=name]. Without a variant it redirects to a fresh
// signed GET of the file; with one it serves the WebP variant itself, made on first request, with
// a year's immutable caching (a variant of a ready upload never changes). Uploads are served only
// once ready.
func (s *Service) handleFile(c echo.Context) error {
	ctx := c.Request().Context()
	key := c.Param("*")
	if blob.ValidateKey(key) != nil {
		return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	}
	name := c.QueryParam("variant")
	if name == "" || name == "original" {
		if err := s.servable(ctx, key, true); err != nil {
			return err
		}
		url, err := s.d.Store.SignGet(ctx, key, s.cfg.FileURLTTL)
		if err != nil {
			return err
		}
		// The redirect may be reused while the signed URL has plenty of life left.
		c.Response().Header().Set("Cache-Control", "private, max-age="+strconv.Itoa(int(s.cfg.FileURLTTL.Seconds()/2)))
		return c.Redirect(http.StatusFound, url)
	}
	spec, ok := tasks.LookupVariant(name)
	if !ok {
		msg := "The variant must be one of " + tasks.VariantNames() + "."
		return envelope.Fail(http.StatusBadRequest, msg, envelope.FieldError{Field: "variant", Message: msg})
	}
	vkey := tasks.VariantKey(spec.Name, key)
	// A variant made is of a checked file; one to make must be made of the checked file.
	_, err := s.d.Store.Stat(ctx, vkey)
	if err != nil && !errors.Is(err, blob.ErrNotFound) {
		return err
	}
	if err := s.servable(ctx, key, err != nil); err != nil {
		return err
	}
	if err := s.ensureVariant(ctx, key, vkey, spec.Name); err != nil {
		return err
	}
	r, info, err := s.d.Store.Get(ctx, vkey)
	if err != nil {
		return err
	}
	defer r.Close()
	etag := `"` + strconv.FormatInt(info.Size, 36) + "-" + strconv.FormatInt(info.ModTime.UnixNano(), 36) + `"`
	h := c.Response().Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", etag)
	h.Set("X-Content-Type-Options", "nosniff")
	if match := c.Request().Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		return c.NoContent(http.StatusNotModified)
	}
	h.Set("Content-Length", strconv.FormatInt(info.Size, 10))
	if c.Request().Method == http.MethodHead {
		h.Set("Content-Type", "image/webp")
		return c.NoContent(http.StatusOK)
	}
	return c.Stream(http.StatusOK, "image/webp", r)
}

// servable refuses uploads that are not ready, and keys that are neither uploads, mockups nor the
// catalogue's mockup templates. With checkBlob it also refuses an upload whose object is no longer the
// one the renderer checked (a signed PUT URL works until it expires, even after the check).
func (s *Service) servable(ctx context.Context, key string, checkBlob bool) error {
	if strings.HasPrefix(key, mockupPrefix) || strings.HasPrefix(key, blob.MockupTemplatePrefix) {
		return nil
	}
	if !strings.HasPrefix(key, "u/") && !strings.HasPrefix(key, publicPrefix) {
		return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	}
	u, err := s.store.byKey(ctx, key)
	switch {
	case errors.Is(err, ErrNotFound):
		return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	case err != nil:
		return err
	case u.Status == StatusPending:
		return envelope.Fail(http.StatusConflict, MsgPending)
	case u.Status != StatusReady:
		return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	case !checkBlob:
		return nil
	}
	info, err := s.d.Store.Stat(ctx, key)
	if errors.Is(err, blob.ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	}
	if err != nil {
		return err
	}
	if tasks.BlobVersion(info) != u.BlobVersion {
		return envelope.Fail(http.StatusConflict, MsgChanged)
	}
	return nil
}

// ensureVariant returns once the variant is stored, asking the renderer for it if needed.
// Concurrent requests of this process share one wait (singleflight); requests of other bff
// processes queue the same task id, which Asynq refuses as a duplicate, and wait for the same blob.
func (s *Service) ensureVariant(ctx context.Context, key, vkey, name string) error {
	if _, err := s.d.Store.Stat(ctx, vkey); err == nil {
		return nil
	} else if !errors.Is(err, blob.ErrNotFound) {
		return err
	}
	ch := s.variants.DoChan(vkey, func() (any, error) {
		// Detached from any one request: a client that gives up must not fail the others.
		wctx, cancel := context.WithTimeout(context.Background(), s.cfg.VariantWait)
		defer cancel()
		job, err := tasks.NewVariantJob(key, name)
		if err != nil {
			return nil, err
		}
		if err := s.enqueueVariant(wctx, job); err != nil {
			return nil, err
		}
		tick := time.NewTicker(s.poll)
		defer tick.Stop()
		for i := 0; ; i++ {
			_, err := s.d.Store.Stat(wctx, vkey)
			if err == nil {
				return nil, nil
			}
			if !errors.Is(err, blob.ErrNotFound) {
				return nil, err
			}
			// Now and then, whether the renderer gave up on it (an image it cannot decode).
			if i%10 == 9 {
				if info, err := s.inspect.GetTaskInfo(job.Queue, job.TaskID); err == nil && info.State == asynq.TaskStateArchived {
					s.d.Log.Warn("variant failed", "key", key, "variant", name, "err", info.LastErr)
					return nil, errVariantFailed
				}
			}
			select {
			case <-wctx.Done():
				return nil, errVariantTimeout
			case <-tick.C:
			}
		}
	})
	select {
	case <-ctx.Done():
		return ctx.Err()
	case res := <-ch:
		switch {
		case errors.Is(res.Err, errVariantTimeout):
			e := envelope.Fail(http.StatusServiceUnavailable, MsgNotReady)
			e.Header = http.Header{"Retry-After": []string{"2"}}
			return e
		case errors.Is(res.Err, errVariantFailed):
			return envelope.Fail(http.StatusUnprocessableEntity, MsgNoVariant)
		}
		return res.Err
	}
}

// enqueueVariant queues the variant's task. Its id is deterministic, so a task Asynq still holds
// is not queued twice; one Asynq archived after failing would block the id for the archive's
// retention, so it is deleted and the task queued afresh (a later request retries).
func (s *Service) enqueueVariant(ctx context.Context, job queue.Job) error {
	_, err := s.d.Queue.EnqueueContext(ctx, job.Task())
	if !errors.Is(err, asynq.ErrTaskIDConflict) {
		return err
	}
	info, ierr := s.inspect.GetTaskInfo(job.Queue, job.TaskID)
	if ierr != nil || info.State != asynq.TaskStateArchived {
		return nil // queued, running or retrying: wait for it
	}
	if err := s.inspect.DeleteTask(job.Queue, job.TaskID); err != nil && !errors.Is(err, asynq.ErrTaskNotFound) {
		return err
	}
	return job.Enqueue(ctx, s.d.Queue)
}

var (
	errVariantTimeout = errors.New("variant not made in time")
	errVariantFailed  = errors.New("variant failed")
)
