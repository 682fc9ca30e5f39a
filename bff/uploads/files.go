package uploads

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
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
// once ready; a draft campaign's mockups only to those who may see the campaign (see mayRead).
func (s *Service) handleFile(a *auth.Service) echo.HandlerFunc {
	return func(c echo.Context) error { return s.serveFile(c, a) }
}

func (s *Service) serveFile(c echo.Context, a *auth.Service) error {
	ctx := c.Request().Context()
	key := c.Param("*")
	if blob.ValidateKey(key) != nil {
		return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	}
	if err := s.mayRead(c, a, key); err != nil {
		return err
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
	if made := err == nil; !made {
		if err := s.servable(ctx, key, true); err != nil {
			return err
		}
		// Making a variant queues a render: counted per client before anything is queued.
		if err := s.variantQuota(c); err != nil {
			return err
		}
		if err := s.ensureVariant(ctx, key, vkey, spec.Name); err != nil {
			return err
		}
	} else if err := s.servable(ctx, key, false); err != nil {
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

// variantQuota counts a request for a variant not made yet against the client's minute.
func (s *Service) variantQuota(c echo.Context) error {
	wait, err := s.perMinute.Take(c.Request().Context(), "pressroom:variant:"+c.RealIP(), 1, s.cfg.VariantsPerMinute)
	if err != nil || wait == 0 {
		return err
	}
	e := envelope.Fail(http.StatusTooManyRequests, MsgVariantRate)
	e.Header = http.Header{"Retry-After": []string{strconv.Itoa(int(math.Ceil(wait.Seconds())))}}
	return e
}

// mayRead refuses a mockup of a campaign the caller may not see: a published (active) campaign's
// mockups are anyone's, a draft's only its seller's (a team member working in the seller's account
// needs the campaign read permission), a designer's or an admin's. Every refusal reads as not
// found, so ids cannot be probed. Other keys are decided by servable.
func (s *Service) mayRead(c echo.Context, a *auth.Service, key string) error {
	rest, ok := strings.CutPrefix(key, mockupPrefix)
	if !ok {
		return nil
	}
	idPart, _, _ := strings.Cut(rest, "/")
	campaignID, err := strconv.ParseInt(idPart, 10, 64)
	if err != nil || campaignID <= 0 {
		return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	}
	ctx := c.Request().Context()
	camp, err := s.store.campaign(ctx, campaignID)
	switch {
	case errors.Is(err, ErrNotFound):
		return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	case err != nil:
		return err
	case camp.Status == campaignPublished:
		return nil
	}
	id, err := a.Identify(c)
	if err != nil {
		return err
	}
	if id != nil {
		caller := id.Access(time.Now())
		u := caller.User
		staff := access.IsAdmin(u) || access.IsDesigner(u)
		seller := id.User.ID == camp.UserID && access.Can(u, access.GetCampaigns)
		if !caller.NeedsTFA && (staff || seller) {
			return nil
		}
	}
	return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
}

// servable refuses uploads that are not ready, keys that are neither uploads, mockups nor the
// catalogue's mockup templates, and, with checkBlob, a file not stored (so no variant is queued for
// a key nobody stored). With checkBlob it also refuses an upload whose object is no longer the one
// the renderer checked (a signed upload works until it expires, even after the check).
func (s *Service) servable(ctx context.Context, key string, checkBlob bool) error {
	if strings.HasPrefix(key, mockupPrefix) || strings.HasPrefix(key, blob.MockupTemplatePrefix) {
		if !checkBlob {
			return nil
		}
		_, err := s.d.Store.Stat(ctx, key)
		if errors.Is(err, blob.ErrNotFound) {
			return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
		}
		return err
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
			return nil, waitErr(wctx, err)
		}
		tick := time.NewTicker(s.poll)
		defer tick.Stop()
		for i := 0; ; i++ {
			_, err := s.d.Store.Stat(wctx, vkey)
			if err == nil {
				return nil, nil
			}
			if !errors.Is(err, blob.ErrNotFound) {
				return nil, waitErr(wctx, err)
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

// waitErr is err, or errVariantTimeout when the wait ran out while a call was under way (a Stat
// cut short by the deadline is the renderer being slow, not the store failing).
func waitErr(wctx context.Context, err error) error {
	if wctx.Err() != nil {
		return errVariantTimeout
	}
	return err
}

var (
	errVariantTimeout = errors.New("variant not made in time")
	errVariantFailed  = errors.New("variant failed")
)
