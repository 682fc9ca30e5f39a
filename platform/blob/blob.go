package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Store keeps blobs under keys and hands out signed, expiring URLs for them. Both implementations
// (Local and S3) behave the same: callers stream bodies, never hold them whole.
type Store interface {
	// Put stores the body under key, replacing what was there. size is the body's length, or -1
	// when unknown; with a known size exactly size bytes are stored, and a shorter body stores
	// nothing. A reader observes either the old object or the new one, never a part.
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
	// Get opens the object for reading; the caller closes it.
	Get(ctx context.Context, key string) (io.ReadCloser, Info, error)
	// Stat describes the object without reading it.
	Stat(ctx context.Context, key string) (Info, error)
	// Delete removes the object; deleting a missing key is not an error (tasks run at least once).
	Delete(ctx context.Context, key string) error
	// SignUpload describes one upload a browser may send under key until ttl has passed: of
	// exactly this content type and at most maxBytes (at least 1). The service refuses a larger
	// body while it streams, and stores nothing of it.
	SignUpload(ctx context.Context, key, contentType string, maxBytes int64, ttl time.Duration) (SignedUpload, error)
	// SignGet returns a URL that serves the object to a plain HTTP GET until ttl has passed.
	SignGet(ctx context.Context, key string, ttl time.Duration) (string, error)
	// SignDownload is SignGet for a file a browser saves: the answer carries the Content-Disposition
	// of ContentDisposition(fileName), so the file is saved under that name wherever the store
	// serves it from. (A link's download attribute is ignored for another origin, such as S3's.)
	SignDownload(ctx context.Context, key, fileName string, ttl time.Duration) (string, error)
	// Check reports whether the store can take writes now (the local folder is writable, the S3
	// bucket exists and answers), for readiness probes.
	Check(ctx context.Context) error
}

// SignedUpload is how a browser sends one file to the store. With Method PUT the file is the
// request body, sent with Headers; with Method POST (S3's browser-based upload) the body is
// multipart/form-data: every one of Fields, then the file as the field "file", which must come last.
// The size cap is part of the signature (the local store's URL, the S3 policy), so it holds even
// for a client that lies about the length.
type SignedUpload struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers,omitempty"`
	Fields  map[string]string `json:"fields,omitempty"`
	// MaxBytes is the largest body the store accepts.
	MaxBytes int64 `json:"maxBytes"`
}

// Info describes a stored object.
type Info struct {
	Key         string
	Size        int64
	ContentType string
	ModTime     time.Time
}

var (
	// ErrNotFound is returned by Get and Stat when no object is stored under the key.
	ErrNotFound = errors.New("blob: not found")
	// ErrInvalidKey is returned by every method given a key that ValidateKey refuses.
	ErrInvalidKey = errors.New("blob: invalid key")
	// ErrTooLarge is returned by Put when the body (declared or streamed) is larger than
	// Config.MaxObjectBytes; nothing is stored.
	ErrTooLarge = errors.New("blob: too large")
)

// MaxKeyLength is the longest key accepted, in bytes.
const MaxKeyLength = 512

// maxSegmentLength keeps every path segment well inside a file system's 255-byte name limit,
// with room for the local store's suffixes.
const maxSegmentLength = 200

// Bounds of a signed URL's lifetime. S3's signature version 4 refuses more than 7 days.
const (
	MinTTL = time.Second
	MaxTTL = 7 * 24 * time.Hour
)

// ValidateKey accepts relative, slash-separated keys whose segments are made of A-Z, a-z, 0-9,
// '.', '_' and '-', none of them empty, "." or "..", at most MaxKeyLength bytes in all, such as
// "p/12/design_3_4.png" or "u/7/art.png". The rules keep a key safe as a file path, as an S3
// object name and as a URL path without escaping.
//
// One rule it cannot check: do not store both "a" and "a/b". The local store and AWS allow it,
// but S3-compatible servers on a file system (MinIO, versitygw) refuse the second Put.
func ValidateKey(key string) error {
	if key == "" {
		return fmt.Errorf("%w: empty", ErrInvalidKey)
	}
	if len(key) > MaxKeyLength {
		return fmt.Errorf("%w: longer than %d bytes", ErrInvalidKey, MaxKeyLength)
	}
	for seg := range strings.SplitSeq(key, "/") {
		switch {
		case seg == "":
			return fmt.Errorf("%w %q: empty segment (leading, trailing or double slash)", ErrInvalidKey, key)
		case seg == "." || seg == "..":
			return fmt.Errorf("%w %q: %q segment", ErrInvalidKey, key, seg)
		case len(seg) > maxSegmentLength:
			return fmt.Errorf("%w %q: segment longer than %d bytes", ErrInvalidKey, key, maxSegmentLength)
		}
		for i := 0; i < len(seg); i++ {
			if !keyByte(seg[i]) {
				return fmt.Errorf("%w %q: character %q not allowed (want A-Z a-z 0-9 . _ -)", ErrInvalidKey, key, seg[i])
			}
		}
	}
	return nil
}

func keyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-'
}

// defaultContentType is stored when Put is given none.
const defaultContentType = "application/octet-stream"

// checkContentType returns the content type to store: the default for "", else ct itself when it
// is a well-formed media type (it is echoed in headers, so no control characters).
func checkContentType(ct string) (string, error) {
	if ct == "" {
		return defaultContentType, nil
	}
	if len(ct) > 255 {
		return "", fmt.Errorf("blob: content type longer than 255 bytes")
	}
	if _, _, err := mime.ParseMediaType(ct); err != nil {
		return "", fmt.Errorf("blob: content type %q: %w", ct, err)
	}
	for i := 0; i < len(ct); i++ {
		if ct[i] < 0x20 || ct[i] == 0x7f {
			return "", fmt.Errorf("blob: content type %q: control character", ct)
		}
	}
	return ct, nil
}

// MaxFileNameLength is the longest download name SignDownload accepts, in bytes: what file systems
// take.
const MaxFileNameLength = 255

// ContentDisposition is the header that has a browser save a download as fileName: "attachment;
// filename=..." as RFC 6266 writes it (quoted, or percent-encoded as filename* when it is not
// ASCII). It refuses an empty name, one longer than MaxFileNameLength bytes, one that is not UTF-8
// or holds a control character or a path separator.
func ContentDisposition(fileName string) (string, error) {
	switch {
	case fileName == "":
		return "", errors.New("blob: a download needs its file name")
	case len(fileName) > MaxFileNameLength:
		return "", fmt.Errorf("blob: file name %q longer than %d bytes", fileName, MaxFileNameLength)
	case !utf8.ValidString(fileName):
		return "", fmt.Errorf("blob: file name %q is not UTF-8", fileName)
	case strings.ContainsFunc(fileName, func(r rune) bool { return unicode.IsControl(r) || r == '/' || r == '\\' }):
		return "", fmt.Errorf("blob: file name %q holds a control character or a path separator", fileName)
	}
	return mime.FormatMediaType("attachment", map[string]string{"filename": fileName}), nil
}

func checkTTL(ttl time.Duration) error {
	if ttl < MinTTL || ttl > MaxTTL {
		return fmt.Errorf("blob: signed URL lifetime %s: want %s to %s", ttl, MinTTL, MaxTTL)
	}
	return nil
}

// New builds the store the configuration selects. production tightens validation (a real signing
// key is required); pass the deployment's PRESSROOM_ENV == "production".
func New(cfg Config, production bool) (Store, error) {
	if err := cfg.Validate(production); err != nil {
		return nil, err
	}
	switch cfg.Backend {
	case BackendS3:
		return NewS3(cfg)
	default:
		return NewLocal(cfg, production)
	}
}

// limitReader passes at most max bytes and then fails with ErrTooLarge, so a body of unknown
// length can be refused while it streams.
type limitReader struct {
	r        io.Reader
	left     int64
	exceeded bool
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		l.exceeded = true
		return 0, ErrTooLarge
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		l.exceeded = true
		return 0, ErrTooLarge
	}
	return n, err
}

// ctxReader stops a long copy when its context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
