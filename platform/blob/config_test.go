package blob

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pressroom/pressroom/platform/env"
)

func TestValidateKey(t *testing.T) {
	cases := []struct {
		key string
		ok  bool
	}{
		{"p/12/design_3_4.png", true},
		{"u/7/art.png", true},
		{"u/7/My-Art.v2.PNG", true},
		{"a", true},
		{".hidden", true},
		{strings.Repeat("a/", MaxKeyLength/2-1) + "ab", true},
		{"", false},
		{"/u/7/art.png", false},
		{"u/7/", false},
		{"u//7", false},
		{"u/./7", false},
		{"u/../7", false},
		{"..", false},
		{"u/7/art png", false},
		{"u/7/art%20.png", false},
		{"u\\7", false},
		{"u/7/ärt.png", false},
		{"u/7/art.png\x00", false},
		{"u/7/art~blob", false},
		{strings.Repeat("a", maxSegmentLength+1), false},
		{strings.Repeat("a/", MaxKeyLength/2) + "a", false},
	}
	for _, c := range cases {
		err := ValidateKey(c.key)
		if (err == nil) != c.ok {
			t.Errorf("ValidateKey(%q) = %v, want ok %v", c.key, err, c.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalidKey) {
			t.Errorf("ValidateKey(%q) = %v, not ErrInvalidKey", c.key, err)
		}
	}
}

func TestLoadConfig(t *testing.T) {
	cases := []struct {
		name string
		vars map[string]string
		want func(*Config)
	}{
		{"defaults", nil, func(*Config) {}},
		{"data dir and listen address move the defaults",
			map[string]string{"PRESSROOM_DATA_DIR": "/var/lib/pressroom", "PRESSROOM_HTTP_ADDR": "0.0.0.0:9000"},
			func(c *Config) { c.Dir, c.PublicURL = "/var/lib/pressroom/blobs", "http://127.0.0.1:9000/blobs" }},
		{"the dashboard's public address moves the default",
			map[string]string{"PRESSROOM_PUBLIC_URL": "https://dashboard.example.com/", "PRESSROOM_HTTP_ADDR": "0.0.0.0:9000"},
			func(c *Config) { c.PublicURL = "https://dashboard.example.com/blobs" }},
		{"local settings",
			map[string]string{
				"PRESSROOM_BLOB_DIR": "/srv/blobs", "PRESSROOM_BLOB_PUBLIC_URL": "https://app.example.com/blobs/",
				"PRESSROOM_BLOB_SIGNING_KEY": "k", "PRESSROOM_BLOB_MAX_UPLOAD_BYTES": "1000",
				"PRESSROOM_BLOB_MAX_OBJECT_BYTES": "2000", "PRESSROOM_BLOB_CORS_ORIGINS": "https://a.example.com/, https://b.example.com",
			},
			func(c *Config) {
				c.Dir, c.PublicURL, c.SigningKey, c.MaxUploadBytes, c.MaxObjectBytes = "/srv/blobs", "https://app.example.com/blobs", "k", 1000, 2000
				c.CORSOrigins = []string{"https://a.example.com", "https://b.example.com"}
			}},
		{"s3 settings",
			map[string]string{
				"PRESSROOM_BLOB_BACKEND": "s3", "PRESSROOM_S3_ENDPOINT": "s3.example.com", "PRESSROOM_S3_REGION": "eu-central-1",
				"PRESSROOM_S3_BUCKET": "b", "PRESSROOM_S3_ACCESS_KEY_ID": "ak", "PRESSROOM_S3_SECRET_ACCESS_KEY": "sk",
				"PRESSROOM_S3_USE_PATH_STYLE": "true", "PRESSROOM_S3_USE_TLS": "false",
			},
			func(c *Config) {
				c.Backend = BackendS3
				c.S3 = S3Config{Endpoint: "s3.example.com", Region: "eu-central-1", Bucket: "b", AccessKeyID: "ak", SecretAccessKey: "sk", UsePathStyle: true}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := LoadConfig(env.Map(c.vars))
			if err != nil {
				t.Fatal(err)
			}
			want := DefaultConfig()
			c.want(&want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, err := LoadConfig(env.Map(map[string]string{"PRESSROOM_S3_USE_TLS": "maybe"})); err == nil || !strings.Contains(err.Error(), "PRESSROOM_S3_USE_TLS") {
		t.Errorf("bad bool: %v, want an error naming PRESSROOM_S3_USE_TLS", err)
	}
}

func TestValidate(t *testing.T) {
	key := strings.Repeat("k", 32)
	s3 := map[string]string{
		"PRESSROOM_BLOB_BACKEND": "s3", "PRESSROOM_S3_ENDPOINT": "s3.example.com", "PRESSROOM_S3_BUCKET": "b",
		"PRESSROOM_S3_ACCESS_KEY_ID": "ak", "PRESSROOM_S3_SECRET_ACCESS_KEY": "sk",
	}
	with := func(base map[string]string, kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	cases := []struct {
		name       string
		vars       map[string]string
		production bool
		want       string // a variable the error must name; "" for valid
	}{
		{"development defaults", nil, false, ""},
		{"production without a key", nil, true, "PRESSROOM_BLOB_SIGNING_KEY"},
		{"production with a key", with(nil, "PRESSROOM_BLOB_SIGNING_KEY", key), true, ""},
		{"short key", with(nil, "PRESSROOM_BLOB_SIGNING_KEY", "short"), false, "PRESSROOM_BLOB_SIGNING_KEY"},
		{"unknown backend", with(nil, "PRESSROOM_BLOB_BACKEND", "gcs"), false, "PRESSROOM_BLOB_BACKEND"},
		{"relative public URL", with(nil, "PRESSROOM_BLOB_PUBLIC_URL", "/blobs"), false, "PRESSROOM_BLOB_PUBLIC_URL"},
		{"public URL with query", with(nil, "PRESSROOM_BLOB_PUBLIC_URL", "http://x/blobs?a=1"), false, "PRESSROOM_BLOB_PUBLIC_URL"},
		{"zero upload limit", with(nil, "PRESSROOM_BLOB_MAX_UPLOAD_BYTES", "0"), false, "PRESSROOM_BLOB_MAX_UPLOAD_BYTES"},
		{"negative object limit", with(nil, "PRESSROOM_BLOB_MAX_OBJECT_BYTES", "-1"), false, "PRESSROOM_BLOB_MAX_OBJECT_BYTES"},
		{"CORS origin with a path", with(nil, "PRESSROOM_BLOB_CORS_ORIGINS", "https://a.example.com/app"), false, "PRESSROOM_BLOB_CORS_ORIGINS"},
		{"s3 complete, production needs no blob key", s3, true, ""},
		{"s3 endpoint with scheme", with(s3, "PRESSROOM_S3_ENDPOINT", "https://s3.example.com"), false, "PRESSROOM_S3_ENDPOINT"},
		{"s3 without endpoint", with(s3, "PRESSROOM_S3_ENDPOINT", " "), false, "PRESSROOM_S3_ENDPOINT"},
		{"s3 without bucket", with(s3, "PRESSROOM_S3_BUCKET", ""), false, "PRESSROOM_S3_BUCKET"},
		{"s3 without access key", with(s3, "PRESSROOM_S3_ACCESS_KEY_ID", ""), false, "PRESSROOM_S3_ACCESS_KEY_ID"},
		{"s3 without secret", with(s3, "PRESSROOM_S3_SECRET_ACCESS_KEY", ""), false, "PRESSROOM_S3_SECRET_ACCESS_KEY"},
		{"s3 public endpoint", with(s3, "PRESSROOM_S3_PUBLIC_ENDPOINT", "https://files.example.com"), false, ""},
		{"s3 public endpoint without scheme", with(s3, "PRESSROOM_S3_PUBLIC_ENDPOINT", "files.example.com"), false, "PRESSROOM_S3_PUBLIC_ENDPOINT"},
		{"s3 public endpoint with a path", with(s3, "PRESSROOM_S3_PUBLIC_ENDPOINT", "https://example.com/s3"), false, "PRESSROOM_S3_PUBLIC_ENDPOINT"},
		{"s3 public endpoint not http", with(s3, "PRESSROOM_S3_PUBLIC_ENDPOINT", "ftp://files.example.com"), false, "PRESSROOM_S3_PUBLIC_ENDPOINT"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// New creates the local store's folder: keep it out of the source tree.
			cfg, err := LoadConfig(env.Map(with(c.vars, "PRESSROOM_DATA_DIR", t.TempDir())))
			if err != nil {
				t.Fatal(err)
			}
			err = cfg.Validate(c.production)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("Validate: %v, want nil", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("Validate: %v, want an error naming %s", err, c.want)
			}
			if _, nerr := New(cfg, c.production); (nerr == nil) != (err == nil) {
				t.Errorf("New: %v, Validate: %v", nerr, err)
			}
		})
	}
}

func TestBrowserOrigins(t *testing.T) {
	s3 := func(f func(*S3Config)) Config {
		c := DefaultConfig()
		c.Backend = BackendS3
		c.S3 = S3Config{Endpoint: "s3.example.com:9000", Bucket: "art", Region: "us-east-1", UseTLS: true}
		f(&c.S3)
		return c
	}
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"local", DefaultConfig(), []string{"http://127.0.0.1:8080"}},
		{"s3 on its endpoint", s3(func(*S3Config) {}), []string{"https://s3.example.com:9000", "https://art.s3.example.com:9000"}},
		{"s3 path style without TLS", s3(func(c *S3Config) { c.UsePathStyle, c.UseTLS = true, false }), []string{"http://s3.example.com:9000"}},
		{"s3 public endpoint", s3(func(c *S3Config) { c.PublicEndpoint, c.UsePathStyle = "https://files.example.com", true }), []string{"https://files.example.com"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.cfg.BrowserOrigins(); strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Fatalf("BrowserOrigins() = %v, want %v", got, tt.want)
			}
		})
	}
}
