package uploads

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
	"github.com/redis/go-redis/v9"
	"golang.org/x/sync/singleflight"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/periodic"
	"github.com/pressroom/pressroom/platform/ratelimit"
	"github.com/pressroom/pressroom/platform/uploadcheck"
)

// Deps are what the upload calls use.
type Deps struct {
	DB    *sqlx.DB
	Store blob.Store
	Relay *outbox.Relay
	// Redis counts public URLs per client and is where the variant tasks are inspected: the
	// queue's Redis server and database.
	Redis *redis.Client
	// Queue enqueues render:variant directly: a variant request changes no row, so it needs no outbox.
	Queue *asynq.Client
	Log   *slog.Logger
}

// Service answers the upload calls.
type Service struct {
	cfg      Config
	d        Deps
	store    store
	variants singleflight.Group
	// inspect reads the state of variant tasks, on the queue's Redis.
	inspect *asynq.Inspector
	// hourly, daily and perMinute count public URLs, public bytes and variant requests per client.
	hourly, daily, perMinute *ratelimit.Window
	// poll is how often a variant request checks whether the renderer stored it.
	poll time.Duration
}

// New validates cfg and builds the service.
func New(cfg Config, d Deps) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if d.DB == nil || d.Store == nil || d.Relay == nil || d.Redis == nil || d.Queue == nil {
		return nil, errors.New("uploads: DB, Store, Relay, Redis and Queue are required")
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{cfg: cfg, d: d, store: store{d.DB}, poll: 50 * time.Millisecond,
		inspect: asynq.NewInspectorFromRedisClient(d.Redis),
		hourly:  ratelimit.New(d.Redis, time.Hour), daily: ratelimit.New(d.Redis, 24*time.Hour),
		perMinute: ratelimit.New(d.Redis, time.Minute)}, nil
}

// sweepInterval is how often Run looks for abandoned uploads.
const sweepInterval = 10 * time.Minute

// Run sweeps abandoned uploads at once and then every sweepInterval until ctx ends.
func (s *Service) Run(ctx context.Context) error {
	return periodic.Run(ctx, sweepInterval, s.d.Log, s.SweepAbandoned, "abandoned upload sweep", "abandoned uploads removed")
}

// Routes lists the upload endpoints under g (mounted at /api).
// once makes a create safe to repeat (the Idempotency-Key header, see bff/idempotency).
func Routes(g *echo.Group, a *auth.Service, s *Service, once echo.MiddlewareFunc) {
	a.Handle(g, http.MethodPost, "/pre-signed-url", access.SignedIn, s.handleSign)
	a.Handle(g, http.MethodPost, "/public/pre-signed-url", access.Anyone, s.handleSignPublic)
	a.Handle(g, http.MethodPost, "/upload", access.SignedIn, s.handleUpload)
	a.Handle(g, http.MethodPost, "/uploads/complete", access.SignedIn, s.handleComplete, once)
	a.Handle(g, http.MethodPost, "/public/uploads/complete", access.Anyone, s.handleCompletePublic)
	a.Handle(g, http.MethodGet, "/uploads", access.SignedIn, s.handleList)
	a.Handle(g, http.MethodGet, "/uploads/:id", access.SignedIn, s.handleGet)
	a.Handle(g, http.MethodGet, "/files/*", access.Anyone, s.handleFile(a))
	a.Handle(g, http.MethodHead, "/files/*", access.Anyone, s.handleFile(a))
}

// BodyLimitExempt are the route paths whose bodies this package caps itself (POST /api/upload
// streams a file larger than the JSON body limit).
var BodyLimitExempt = []string{"/api/upload"}

// Messages of the upload calls.
const (
	MsgNotUploaded = "The file was not uploaded. Please try upload file again."
	MsgTooLarge    = "The file is too large."
	MsgNoFile      = "Choose a file to upload."
	MsgQuota       = "Too many uploads. Please try again later."
	MsgNotYours    = "The file path does not belong to you."
	MsgPending     = "The file is still being checked. Please try again in a moment."
	MsgNotReady    = "The image is not ready yet. Please try again."
	MsgChanged     = "The file changed after it was checked. Please upload it again."
	MsgNoVariant   = "This image cannot be shown in this size."
	MsgVariantRate = "Too many new image sizes requested. Please try again in a minute."
	// msgPublicBytesPattern is the refusal of the daily public byte cap, with the cap in MiB and
	// the hours to wait.
	msgPublicBytesPattern = "Uploads without an account are limited to %d MiB a day. Please sign in, or try again in %d hours."
)

type signBody struct {
	FileName string `json:"fileName"`
	FilePath string `json:"filePath"`
	// FileSize, when given, is the file's size: the signature then allows exactly up to it, and a
	// file over the cap is refused before any byte is sent.
	FileSize int64 `json:"fileSize"`
}

// Signed is the answer of the pre-signed-URL calls: send the file with Method to PreSignedURL, as
// the body of a PUT with the Content-Type header, or as the field "file" of a multipart POST after
// every one of Fields.
type Signed struct {
	FilePath     string `json:"filePath"`
	PreSignedURL string `json:"preSignedUrl"`
	FileURL      string `json:"fileUrl"`
	// Method is PUT or POST.
	Method string `json:"method"`
	// Fields are the form fields a POST sends before the file; empty for PUT.
	Fields map[string]string `json:"fields"`
	// ContentType is the Content-Type the file must be sent with (the PUT's header, the POST's field).
	ContentType string `json:"contentType"`
	// MaxBytes is the largest file the signature allows.
	MaxBytes int64 `json:"maxBytes"`
	// ExpiresAt is when the signature stops working.
	ExpiresAt time.Time `json:"expiresAt"`
}

func bindSign(c echo.Context) (signBody, string, error) {
	var b signBody
	if err := envelope.Bind(c, &b); err != nil {
		return b, "", err
	}
	if strings.TrimSpace(b.FileName) == "" {
		msg := "The file name field is required."
		return b, "", envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "fileName", Message: msg})
	}
	ct, err := uploadcheck.ContentType(b.FileName)
	if err != nil {
		return b, "", envelope.Fail(http.StatusUnprocessableEntity, MsgFileType, envelope.FieldError{Field: "fileName", Message: MsgFileType})
	}
	return b, ct, nil
}

// sizeCap is the size a signature allows: the file's declared size, or limit when none is given.
func sizeCap(b signBody, limit int64) (int64, error) {
	switch {
	case b.FileSize < 0:
		msg := "The file size must be a positive number of bytes."
		return 0, envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "fileSize", Message: msg})
	case b.FileSize > limit:
		msg := fmt.Sprintf("The file is too large: at most %d MiB.", max(1, limit>>20))
		return 0, envelope.Fail(http.StatusRequestEntityTooLarge, msg, envelope.FieldError{Field: "fileSize", Message: msg})
	case b.FileSize > 0:
		return b.FileSize, nil
	}
	return limit, nil
}

// sign records the grant (so the sweep finds the file if it is never completed) and signs the
// upload of key with maxBytes in its signature.
func (s *Service) sign(c echo.Context, key, ct string, maxBytes int64, ttl time.Duration) error {
	ctx := c.Request().Context()
	expires := time.Now().Add(ttl).UTC()
	if err := s.store.grant(ctx, key, maxBytes, expires); err != nil {
		return err
	}
	up, err := s.d.Store.SignUpload(ctx, key, ct, maxBytes, ttl)
	if err != nil {
		return err
	}
	return envelope.OK(c, Signed{FilePath: key, PreSignedURL: up.URL, FileURL: FileURL(key), Method: up.Method,
		Fields: up.Fields, ContentType: ct, MaxBytes: up.MaxBytes, ExpiresAt: expires})
}

func (s *Service) handleSign(c echo.Context) error {
	b, ct, err := bindSign(c)
	if err != nil {
		return err
	}
	size, err := sizeCap(b, s.cfg.MaxBytes)
	if err != nil {
		return err
	}
	return s.sign(c, UserKey(auth.Caller(c).User.ID, b.FilePath, b.FileName), ct, size, s.cfg.SignTTL)
}

// handleSignPublic signs a short-lived upload under public/ for callers without a session, at
// most PublicPerHour per client address, each reserving its size cap from the address's
// PublicBytesPerDay; filePath is ignored.
func (s *Service) handleSignPublic(c echo.Context) error {
	if err := s.publicQuota(c); err != nil {
		return err
	}
	b, ct, err := bindSign(c)
	if err != nil {
		return err
	}
	size, err := sizeCap(b, s.cfg.PublicMaxBytes)
	if err != nil {
		return err
	}
	wait, err := s.daily.Take(c.Request().Context(), "pressroom:upload-public-bytes:"+c.RealIP(), size, s.cfg.PublicBytesPerDay)
	if err != nil {
		return err
	}
	if wait > 0 {
		hours := int64(math.Ceil(wait.Hours()))
		e := envelope.Fail(http.StatusTooManyRequests, fmt.Sprintf(msgPublicBytesPattern, s.cfg.PublicBytesPerDay>>20, hours))
		e.Header = http.Header{"Retry-After": []string{strconv.FormatInt(int64(math.Ceil(wait.Seconds())), 10)}}
		return e
	}
	return s.sign(c, PublicKey(b.FileName), ct, size, s.cfg.PublicSignTTL)
}

// publicQuota counts a public call against the client's hourly quota.
func (s *Service) publicQuota(c echo.Context) error {
	wait, err := s.hourly.Take(c.Request().Context(), "pressroom:upload-public:"+c.RealIP(), 1, int64(s.cfg.PublicPerHour))
	if err != nil {
		return fmt.Errorf("public upload quota: %w", err)
	}
	if wait > 0 {
		e := envelope.Fail(http.StatusTooManyRequests, MsgQuota)
		e.Header = http.Header{"Retry-After": []string{strconv.FormatInt(int64(math.Ceil(wait.Seconds())), 10)}}
		return e
	}
	return nil
}

type completeBody struct {
	FilePath string `json:"filePath"`
	FileName string `json:"fileName"`
	Type     string `json:"type"`
}

func (s *Service) handleComplete(c echo.Context) error {
	var b completeBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	id := auth.Caller(c).User.ID
	if !strings.HasPrefix(b.FilePath, userPrefix(id)) || blob.ValidateKey(b.FilePath) != nil {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgNotYours, envelope.FieldError{Field: "filePath", Message: MsgNotYours})
	}
	return s.ingest(c, id, b, s.cfg.MaxBytes)
}

func (s *Service) handleCompletePublic(c echo.Context) error {
	if err := s.publicQuota(c); err != nil {
		return err
	}
	var b completeBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if !strings.HasPrefix(b.FilePath, publicPrefix) || blob.ValidateKey(b.FilePath) != nil {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgNotYours, envelope.FieldError{Field: "filePath", Message: MsgNotYours})
	}
	return s.ingest(c, 0, b, s.cfg.PublicMaxBytes)
}

// ingest checks what arrived under the key (the signature capped it already; the check also
// covers a cap lowered since), records the upload with its sanitize task and dispatches the task.
func (s *Service) ingest(c echo.Context, ownerID int64, b completeBody, maxBytes int64) error {
	ctx := c.Request().Context()
	info, err := s.d.Store.Stat(ctx, b.FilePath)
	if errors.Is(err, blob.ErrNotFound) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgNotUploaded, envelope.FieldError{Field: "filePath", Message: MsgNotUploaded})
	}
	if err != nil {
		return err
	}
	if info.Size > maxBytes {
		if err := s.d.Store.Delete(ctx, b.FilePath); err != nil {
			s.d.Log.Warn("delete oversize upload", "key", b.FilePath, "err", err)
		}
		return envelope.Fail(http.StatusRequestEntityTooLarge, MsgTooLarge)
	}
	name := b.FileName
	if name == "" {
		name = b.FilePath[strings.LastIndexByte(b.FilePath, '/')+1:]
	}
	u, err := s.record(ctx, ownerID, b.FilePath, truncate(name, 255), truncate(b.Type, 50))
	if err != nil {
		return err
	}
	return envelope.Accepted(c, u)
}

func (s *Service) record(ctx context.Context, ownerID int64, key, name, kind string) (Upload, error) {
	u, outboxID, err := s.store.record(ctx, ownerID, key, name, kind)
	if err != nil {
		return Upload{}, err
	}
	if outboxID != 0 {
		// Committed: if Redis is away now, the relay sends the task later.
		if _, err := s.d.Relay.Dispatch(ctx, outboxID); err != nil {
			s.d.Log.Warn("sanitize task left for the relay", "upload_id", u.ID, "err", err)
		}
	}
	u.FileURL = FileURL(u.Key)
	return u, nil
}

// handleUpload is POST /api/upload: multipart file, type and id, for small files. The file
// streams into the blob store (never whole in memory), then is ingested like a signed upload.
func (s *Service) handleUpload(c echo.Context) error {
	req := c.Request()
	req.Body = http.MaxBytesReader(c.Response(), req.Body, s.cfg.MaxDirectBytes+64<<10)
	mr, err := req.MultipartReader()
	if err != nil {
		return envelope.Fail(http.StatusBadRequest, "Send the file as multipart/form-data with the fields file, type and id.")
	}
	ctx := req.Context()
	userID := auth.Caller(c).User.ID
	var key, name, kind, folder string
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return s.uploadReadError(err)
		}
		switch part.FormName() {
		case "type":
			kind = formValue(part)
		case "id":
			folder = formValue(part)
		case "file":
			if key != "" {
				continue
			}
			name = part.FileName()
			ct, err := uploadcheck.ContentType(name)
			if err != nil {
				return envelope.Fail(http.StatusUnprocessableEntity, MsgFileType, envelope.FieldError{Field: "file", Message: MsgFileType})
			}
			sub := "uploads"
			if kind != "" {
				sub = kind
				if folder != "" {
					sub += "/" + folder
				}
			}
			key = UserKey(userID, sub, name)
			lr := &CappedReader{R: part, Left: s.cfg.MaxDirectBytes}
			if err := s.d.Store.Put(ctx, key, lr, -1, ct); err != nil {
				if lr.Exceeded {
					return envelope.Fail(http.StatusRequestEntityTooLarge, MsgTooLarge)
				}
				return s.uploadReadError(err)
			}
		}
		part.Close()
	}
	if key == "" {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgNoFile, envelope.FieldError{Field: "file", Message: MsgNoFile})
	}
	u, err := s.record(ctx, userID, key, truncate(name, 255), truncate(kind, 50))
	if err != nil {
		return err
	}
	return envelope.Accepted(c, u)
}

func (s *Service) uploadReadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return envelope.Fail(http.StatusRequestEntityTooLarge, MsgTooLarge)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, multipart.ErrMessageTooLarge) || strings.Contains(err.Error(), "multipart") {
		return envelope.Fail(http.StatusBadRequest, "The upload was interrupted. Please try again.")
	}
	return err
}

func formValue(p *multipart.Part) string {
	b, _ := io.ReadAll(io.LimitReader(p, 256))
	return strings.TrimSpace(string(b))
}

// CappedReader reads R and fails once more than Left bytes were read, setting Exceeded: a file
// streamed into storage stops at its cap whatever the request claimed.
type CappedReader struct {
	R        io.Reader
	Left     int64
	Exceeded bool
}

func (c *CappedReader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.Left -= int64(n)
	if c.Left < 0 {
		c.Exceeded = true
		return n, errors.New("upload over the size limit")
	}
	return n, err
}

func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	items, total, err := s.store.list(c.Request().Context(), auth.Caller(c).User.ID, q.Q, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	for i := range items {
		items[i].FileURL = FileURL(items[i].Key)
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

// handleGet shows one of the caller's uploads; others' read as not found.
func (s *Service) handleGet(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return envelope.Fail(http.StatusNotFound, "Upload not found.")
	}
	u, err := s.store.get(c.Request().Context(), id)
	if errors.Is(err, ErrNotFound) || (err == nil && (u.OwnerID == nil || *u.OwnerID != auth.Caller(c).User.ID)) {
		return envelope.Fail(http.StatusNotFound, "Upload not found.")
	}
	if err != nil {
		return err
	}
	u.FileURL = FileURL(u.Key)
	return envelope.OK(c, u)
}
