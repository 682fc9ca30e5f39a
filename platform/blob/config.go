package blob

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/publicurl"
)

// The backends a Config can select.
const (
	BackendLocal = "local"
	BackendS3    = "s3"
)

// Config selects and configures the blob store.
type Config struct {
	// Backend is "local" or "s3" (PRESSROOM_BLOB_BACKEND, default local).
	Backend string
	// Dir is the local store's root folder (PRESSROOM_BLOB_DIR, default <PRESSROOM_DATA_DIR>/blobs,
	// where PRESSROOM_DATA_DIR defaults to .data). Created when missing. Unused by s3.
	Dir string
	// PublicURL is where the local store's Handler is reachable from browsers and from the
	// renderer, without a trailing slash (PRESSROOM_BLOB_PUBLIC_URL, default
	// http://<PRESSROOM_HTTP_ADDR>/blobs, where PRESSROOM_HTTP_ADDR defaults to 127.0.0.1:8080).
	// Signed URLs are built on it; the Handler serves the paths under its path. Unused by s3.
	PublicURL string
	// SigningKey is the HMAC key of the local store's signed URLs (PRESSROOM_BLOB_SIGNING_KEY).
	// Every process that signs or verifies URLs (bff, worker, renderer) must share it, so it is
	// never random per process. Required, at least 32 bytes, in production and on a listen address
	// other machines can reach (see ValidateKeys); elsewhere empty means a key derived from a
	// fixed, public development constant: fine on a laptop, worthless as a secret. Unused by s3.
	SigningKey string
	// MaxUploadBytes caps the body of a PUT to a signed URL of the local store, whatever cap the
	// URL itself carries (PRESSROOM_BLOB_MAX_UPLOAD_BYTES, default 200 MiB); a larger body is
	// answered 413. Unused by s3, whose signed uploads carry their cap in the policy.
	MaxUploadBytes int64
	// MaxObjectBytes caps what Put stores, on either backend (PRESSROOM_BLOB_MAX_OBJECT_BYTES,
	// default 8 GiB): a guard against a runaway writer filling the disk, not an upload policy.
	MaxObjectBytes int64
	// CORSOrigins are the browser origins, besides PublicURL's own, allowed to PUT and GET through
	// the local store's Handler (PRESSROOM_BLOB_CORS_ORIGINS, comma-separated, default none: the
	// UI and the blobs share an origin). Unused by s3, whose CORS is the bucket's configuration.
	CORSOrigins []string
	// S3 configures the s3 backend.
	S3 S3Config
}

// S3Config reaches an S3-compatible service.
type S3Config struct {
	// Endpoint is host[:port] without a scheme (PRESSROOM_S3_ENDPOINT, required for s3), such as
	// s3.eu-central-1.amazonaws.com or minio.internal:9000. Pre-signed URLs point at it unless
	// PublicEndpoint is set, so browsers must then be able to reach it.
	Endpoint string
	// PublicEndpoint is where browsers reach the same service when that is not Endpoint
	// (PRESSROOM_S3_PUBLIC_ENDPOINT, default empty: Endpoint), as an absolute URL with no path, such
	// as https://files.example.com: pre-signed URLs name it, while the processes talk to Endpoint.
	// The signature covers the host, so whatever sits in front must pass the Host header through.
	PublicEndpoint string
	// Region is the bucket's region (PRESSROOM_S3_REGION, default us-east-1).
	Region string
	// Bucket holds every object (PRESSROOM_S3_BUCKET, required for s3). It must exist.
	Bucket string
	// AccessKeyID and SecretAccessKey authenticate (PRESSROOM_S3_ACCESS_KEY_ID,
	// PRESSROOM_S3_SECRET_ACCESS_KEY, both required for s3).
	AccessKeyID     string
	SecretAccessKey string
	// UsePathStyle forces http://endpoint/bucket/key addressing (PRESSROOM_S3_USE_PATH_STYLE,
	// default false: virtual-hosted http://bucket.endpoint/key on AWS and Aliyun, path style on
	// every other endpoint).
	UsePathStyle bool
	// UseTLS speaks HTTPS to the endpoint (PRESSROOM_S3_USE_TLS, default true).
	UseTLS bool
}

// Defaults.
const (
	DefaultMaxUploadBytes = 200 << 20
	DefaultMaxObjectBytes = 8 << 30
	minSigningKeyLength   = 32
)

// devSigningKeySeed is public on purpose: it lets every development process verify the others'
// URLs without set-up. Production refuses to run without PRESSROOM_BLOB_SIGNING_KEY.
const devSigningKeySeed = "pressroom development blob signing key; not a secret"

// DefaultConfig is the local store under .data/blobs served at http://127.0.0.1:8080/blobs.
func DefaultConfig() Config {
	return Config{
		Backend:        BackendLocal,
		Dir:            filepath.Join(".data", "blobs"),
		PublicURL:      publicurl.ForAddr(publicurl.DefaultHTTPAddr) + "/blobs",
		MaxUploadBytes: DefaultMaxUploadBytes,
		MaxObjectBytes: DefaultMaxObjectBytes,
		S3:             S3Config{Region: "us-east-1", UseTLS: true},
	}
}

// LoadConfig reads the PRESSROOM_BLOB_* and PRESSROOM_S3_* variables over the defaults. It also
// reads PRESSROOM_DATA_DIR and the dashboard's public address (platform/publicurl), only to place
// the defaults of Dir and PublicURL where the rest of the deployment is.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	public, err := publicurl.LoadConfig(lookup)
	if err != nil {
		return cfg, err
	}
	r := env.NewReader(lookup)
	dataDir := ".data"
	r.String(&dataDir, "PRESSROOM_DATA_DIR")
	cfg.Dir = filepath.Join(dataDir, "blobs")
	cfg.PublicURL = public.Link("/blobs")

	r.String(&cfg.Backend, "PRESSROOM_BLOB_BACKEND")
	r.String(&cfg.Dir, "PRESSROOM_BLOB_DIR")
	r.String(&cfg.PublicURL, "PRESSROOM_BLOB_PUBLIC_URL")
	r.String(&cfg.SigningKey, "PRESSROOM_BLOB_SIGNING_KEY")
	r.Int64(&cfg.MaxUploadBytes, "PRESSROOM_BLOB_MAX_UPLOAD_BYTES")
	r.Int64(&cfg.MaxObjectBytes, "PRESSROOM_BLOB_MAX_OBJECT_BYTES")
	var origins string
	r.String(&origins, "PRESSROOM_BLOB_CORS_ORIGINS")
	for o := range strings.SplitSeq(origins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			cfg.CORSOrigins = append(cfg.CORSOrigins, strings.TrimSuffix(o, "/"))
		}
	}
	cfg.PublicURL = strings.TrimSuffix(cfg.PublicURL, "/")

	r.String(&cfg.S3.Endpoint, "PRESSROOM_S3_ENDPOINT")
	r.String(&cfg.S3.PublicEndpoint, "PRESSROOM_S3_PUBLIC_ENDPOINT")
	r.String(&cfg.S3.Region, "PRESSROOM_S3_REGION")
	r.String(&cfg.S3.Bucket, "PRESSROOM_S3_BUCKET")
	r.String(&cfg.S3.AccessKeyID, "PRESSROOM_S3_ACCESS_KEY_ID")
	r.String(&cfg.S3.SecretAccessKey, "PRESSROOM_S3_SECRET_ACCESS_KEY")
	r.Bool(&cfg.S3.UsePathStyle, "PRESSROOM_S3_USE_PATH_STYLE")
	r.Bool(&cfg.S3.UseTLS, "PRESSROOM_S3_USE_TLS")
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work, naming its variable. production demands a
// real signing key for the local store.
func (c Config) Validate(production bool) error {
	if c.MaxObjectBytes <= 0 {
		return errors.New("PRESSROOM_BLOB_MAX_OBJECT_BYTES must be positive")
	}
	switch c.Backend {
	case BackendLocal:
		return c.validateLocal(production)
	case BackendS3:
		return c.S3.validate()
	default:
		return fmt.Errorf("PRESSROOM_BLOB_BACKEND=%q: want local or s3", c.Backend)
	}
}

func (c Config) validateLocal(production bool) error {
	if c.Dir == "" {
		return errors.New("PRESSROOM_BLOB_DIR is empty: want the folder that holds the blobs")
	}
	u, err := url.Parse(c.PublicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("PRESSROOM_BLOB_PUBLIC_URL=%q: want an absolute http(s) URL such as http://127.0.0.1:8080/blobs", c.PublicURL)
	}
	if strings.HasSuffix(c.PublicURL, "/") {
		return fmt.Errorf("PRESSROOM_BLOB_PUBLIC_URL=%q: want no trailing slash", c.PublicURL)
	}
	if err := c.ValidateKeys(env.Exposure{Production: production}); err != nil {
		return err
	}
	if c.SigningKey != "" && len(c.SigningKey) < minSigningKeyLength {
		return fmt.Errorf("PRESSROOM_BLOB_SIGNING_KEY is %d bytes: want at least %d", len(c.SigningKey), minSigningKeyLength)
	}
	if c.MaxUploadBytes <= 0 {
		return errors.New("PRESSROOM_BLOB_MAX_UPLOAD_BYTES must be positive")
	}
	for _, o := range c.CORSOrigins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" {
			return fmt.Errorf("PRESSROOM_BLOB_CORS_ORIGINS: %q is not an origin such as https://app.example.com", o)
		}
	}
	return nil
}

// ValidateKeys refuses the public development signing key when x requires real keys (see
// env.Exposure). Only the local store signs URLs with it; S3 signs with its own credentials.
func (c Config) ValidateKeys(x env.Exposure) error {
	if c.Backend != BackendLocal {
		return nil
	}
	return x.CheckKey("PRESSROOM_BLOB_SIGNING_KEY", c.SigningKey, devSigningKeySeed, minSigningKeyLength)
}

func (c S3Config) validate() error {
	switch {
	case c.Endpoint == "":
		return errors.New("PRESSROOM_S3_ENDPOINT is empty: want host[:port] of the S3 service")
	case strings.Contains(c.Endpoint, "://") || strings.Contains(c.Endpoint, "/"):
		return fmt.Errorf("PRESSROOM_S3_ENDPOINT=%q: want host[:port] without scheme or path (HTTPS is PRESSROOM_S3_USE_TLS)", c.Endpoint)
	case c.PublicEndpoint != "" && !validPublicEndpoint(c.PublicEndpoint):
		return fmt.Errorf("PRESSROOM_S3_PUBLIC_ENDPOINT=%q: want an absolute http(s) URL without path, such as https://files.example.com", c.PublicEndpoint)
	case c.Region == "":
		return errors.New("PRESSROOM_S3_REGION is empty: want the bucket's region, such as us-east-1")
	case c.Bucket == "":
		return errors.New("PRESSROOM_S3_BUCKET is empty: want the bucket that holds the blobs")
	case c.AccessKeyID == "":
		return errors.New("PRESSROOM_S3_ACCESS_KEY_ID is empty")
	case c.SecretAccessKey == "":
		return errors.New("PRESSROOM_S3_SECRET_ACCESS_KEY is empty")
	}
	return nil
}

// validPublicEndpoint reports whether s is scheme://host[:port] and nothing more, http or https.
func validPublicEndpoint(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil &&
		(u.Path == "" || u.Path == "/") && u.RawQuery == "" && u.Fragment == ""
}

// BrowserOrigins are the origins browsers load blobs from and upload them to, for the UI's
// Content-Security-Policy: the local store's PublicURL, or the S3 endpoint browsers reach, both
// as the service's own host and as the bucket's virtual host (the client picks one by endpoint).
func (c Config) BrowserOrigins() []string {
	if c.Backend != BackendS3 {
		if u, err := url.Parse(c.PublicURL); err == nil && u.Host != "" {
			return []string{u.Scheme + "://" + u.Host}
		}
		return nil
	}
	scheme, host := "https", c.S3.Endpoint
	if !c.S3.UseTLS {
		scheme = "http"
	}
	if c.S3.PublicEndpoint != "" {
		if u, err := url.Parse(c.S3.PublicEndpoint); err == nil {
			scheme, host = u.Scheme, u.Host
		}
	}
	origins := []string{scheme + "://" + host}
	if !c.S3.UsePathStyle {
		origins = append(origins, scheme+"://"+c.S3.Bucket+"."+host)
	}
	return origins
}

// signingKey is the configured key, or the development key when none is set.
func (c Config) signingKey() []byte {
	if c.SigningKey != "" {
		return []byte(c.SigningKey)
	}
	sum := sha256.Sum256([]byte(devSigningKeySeed))
	return sum[:]
}
