package blob

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Local keeps blobs as files under a root folder and signs its own URLs, which its Handler
// verifies. Every process sharing the folder and the signing key sees the same store.
//
// On disk, key "u/7/art.png" is the file <root>/u/7/art.png~blob: one header line
// (`pressroom-blob/1 {"contentType":"image/png"}`) followed by the bytes as stored. Keeping the
// content type inside the file, not in a sidecar, lets a single rename publish data and metadata
// together, so concurrent writers never pair one's bytes with the other's type. The "~" suffixes
// cannot occur in a key, so an object file never collides with a folder of another key
// ("a" next to "a/b") nor with a temporary file.
type Local struct {
	root       string
	publicURL  string
	basePath   string // PublicURL's path, which the Handler serves under
	key        []byte
	maxUpload  int64
	maxObject  int64
	corsOrigin map[string]bool
	// now is the clock for signing and verifying; tests move it.
	now func() time.Time
}

const (
	objectSuffix = "~blob"
	tempInfix    = "~tmp-"
	headerMagic  = "pressroom-blob/1 "
	// maxHeader bounds the header line a reader will look for.
	maxHeader = 1024
)

type header struct {
	ContentType string `json:"contentType"`
}

// NewLocal opens (creating when needed) the folder cfg.Dir.
func NewLocal(cfg Config, production bool) (*Local, error) {
	cfg.Backend = BackendLocal
	if err := cfg.Validate(production); err != nil {
		return nil, err
	}
	root, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, fmt.Errorf("blob folder %s: %w", cfg.Dir, err)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("create blob folder: %w", err)
	}
	u, _ := url.Parse(cfg.PublicURL) // Validate parsed it
	s := &Local{
		root:       root,
		publicURL:  cfg.PublicURL,
		basePath:   strings.TrimSuffix(u.Path, "/"),
		key:        cfg.signingKey(),
		maxUpload:  cfg.MaxUploadBytes,
		maxObject:  cfg.MaxObjectBytes,
		corsOrigin: map[string]bool{},
		now:        time.Now,
	}
	for _, o := range cfg.CORSOrigins {
		s.corsOrigin[o] = true
	}
	return s, nil
}

func (s *Local) path(key string) string {
	return filepath.Join(s.root, filepath.FromSlash(key)) + objectSuffix
}

// Put writes the body to a temporary file beside the object, syncs it and renames it over the
// object, so a crash leaves the old object or the new one, and at worst a stray temporary file.
func (s *Local) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	_, err := s.put(ctx, key, r, size, contentType, s.maxObject)
	return err
}

func (s *Local) put(ctx context.Context, key string, r io.Reader, size int64, contentType string, limit int64) (Info, error) {
	if err := ValidateKey(key); err != nil {
		return Info{}, err
	}
	ct, err := checkContentType(contentType)
	if err != nil {
		return Info{}, err
	}
	if size > limit {
		return Info{}, fmt.Errorf("put %s: %d bytes over the limit of %d: %w", key, size, limit, ErrTooLarge)
	}
	dst := s.path(key)
	tmp, err := s.createTemp(dst)
	if err != nil {
		return Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	published := false
	defer func() {
		if !published {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()

	hdr, _ := json.Marshal(header{ContentType: ct})
	if _, err := fmt.Fprintf(tmp, "%s%s\n", headerMagic, hdr); err != nil {
		return Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	body := io.Reader(ctxReader{ctx, r})
	var n int64
	if size >= 0 {
		n, err = io.CopyN(tmp, body, size)
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("body ended after %d of %d bytes: %w", n, size, io.ErrUnexpectedEOF)
		}
	} else {
		n, err = io.Copy(tmp, &limitReader{r: body, left: limit})
	}
	if err != nil {
		return Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	if err := tmp.Sync(); err != nil {
		return Info{}, fmt.Errorf("put %s: sync: %w", key, err)
	}
	if err := tmp.Close(); err != nil {
		return Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	published = true
	// The rename is durable once the folder's entry is on disk.
	if err := syncDir(filepath.Dir(dst)); err != nil {
		return Info{}, fmt.Errorf("put %s: sync folder: %w", key, err)
	}
	fi, err := os.Stat(dst)
	if err != nil {
		return Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	return Info{Key: key, Size: n, ContentType: ct, ModTime: fi.ModTime()}, nil
}

// createTemp makes the temporary file in dst's folder (a rename is atomic only within one file
// system), creating the folder; it retries when a concurrent Delete prunes the folder between
// the two steps.
func (s *Local) createTemp(dst string) (*os.File, error) {
	dir, name := filepath.Split(dst)
	pattern := strings.TrimSuffix(name, objectSuffix) + tempInfix + "*"
	var err error
	for range 5 {
		var f *os.File
		if err = os.MkdirAll(dir, 0o755); err == nil {
			if f, err = os.CreateTemp(dir, pattern); err == nil {
				return f, nil
			}
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return nil, err
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// Get opens the object; the returned reader also seeks (the Handler serves ranges from it).
func (s *Local) Get(ctx context.Context, key string) (io.ReadCloser, Info, error) {
	f, info, err := s.open(ctx, key)
	if err != nil {
		return nil, Info{}, err
	}
	return f, info, nil
}

// object is an open object file positioned past its header.
type object struct {
	*io.SectionReader
	f *os.File
}

func (o *object) Close() error { return o.f.Close() }

func (s *Local) open(ctx context.Context, key string) (*object, Info, error) {
	if err := ValidateKey(key); err != nil {
		return nil, Info{}, err
	}
	if err := ctx.Err(); err != nil {
		return nil, Info{}, err
	}
	f, err := os.Open(s.path(key))
	if err != nil {
		return nil, Info{}, notFound(key, err)
	}
	info, off, err := readHeader(f, key)
	if err != nil {
		f.Close()
		return nil, Info{}, err
	}
	return &object{SectionReader: io.NewSectionReader(f, off, info.Size), f: f}, info, nil
}

// readHeader parses the header line of an open object file and returns its Info and where the
// stored bytes start.
func readHeader(f *os.File, key string) (Info, int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return Info{}, 0, fmt.Errorf("stat %s: %w", key, err)
	}
	buf := make([]byte, maxHeader)
	n, err := f.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return Info{}, 0, fmt.Errorf("read %s: %w", key, err)
	}
	buf = buf[:n]
	end := bytes.IndexByte(buf, '\n')
	if end < 0 || !bytes.HasPrefix(buf, []byte(headerMagic)) {
		return Info{}, 0, fmt.Errorf("read %s: %s is not a blob file", key, f.Name())
	}
	var h header
	if err := json.Unmarshal(buf[len(headerMagic):end], &h); err != nil {
		return Info{}, 0, fmt.Errorf("read %s: header: %w", key, err)
	}
	off := int64(end + 1)
	return Info{Key: key, Size: fi.Size() - off, ContentType: h.ContentType, ModTime: fi.ModTime()}, off, nil
}

func notFound(key string, err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return fmt.Errorf("%s: %w", key, ErrNotFound)
	}
	return fmt.Errorf("open %s: %w", key, err)
}

// Stat reads the object's header.
func (s *Local) Stat(ctx context.Context, key string) (Info, error) {
	f, info, err := s.open(ctx, key)
	if err != nil {
		return Info{}, err
	}
	f.Close()
	return info, nil
}

// Delete removes the object and then the folders it leaves empty, up to the root.
func (s *Local) Delete(ctx context.Context, key string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	p := s.path(key)
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	// Best effort: removing a folder fails harmlessly when it is not empty.
	for dir := filepath.Dir(p); dir != s.root && strings.HasPrefix(dir, s.root); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			break
		}
	}
	return nil
}

// Check creates and removes a temporary file in the folder.
func (s *Local) Check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := os.CreateTemp(s.root, "ready"+tempInfix+"*")
	if err != nil {
		return fmt.Errorf("blob folder %s is not writable: %w", s.root, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// SweepTemp removes temporary files older than age, which only a writer killed mid-Put leaves
// behind (they are never visible under a key), and reports how many it removed. Run it now and
// then, e.g. from a scheduled job, with an age well above the longest upload.
func (s *Local) SweepTemp(ctx context.Context, age time.Duration) (int, error) {
	cutoff := time.Now().Add(-age)
	removed := 0
	err := filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // pruned by a concurrent Delete
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() || !strings.Contains(d.Name(), tempInfix) {
			return nil
		}
		fi, err := d.Info()
		if err != nil || !fi.ModTime().Before(cutoff) {
			return nil
		}
		if os.Remove(p) == nil {
			removed++
		}
		return nil
	})
	if err != nil {
		return removed, fmt.Errorf("sweep %s: %w", s.root, err)
	}
	return removed, nil
}
