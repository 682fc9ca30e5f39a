package testinfra

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/redis/go-redis/v9"

	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/schema"
)

// unavailable skips the test, or fails it when the run demands real infrastructure.
func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("PRESSROOM_TEST_REQUIRE_INFRA") == "1" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// Postgres returns a handle to a new database migrated to the latest schema, and its URL (for code
// under test that opens its own connections). The database is dropped when the test ends.
func Postgres(t testing.TB) (*sqlx.DB, string) {
	t.Helper()
	adminURL := os.Getenv("PRESSROOM_TEST_DATABASE_URL")
	if adminURL == "" {
		unavailable(t, "PRESSROOM_TEST_DATABASE_URL is not set: run scripts/test, or point it at a Postgres role that may create databases")
		return nil, ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	admin, err := sqlx.Open("postgres", adminURL)
	if err != nil {
		t.Fatalf("open %s: %v", adminURL, err)
	}
	defer admin.Close()
	conn, err := admin.Connx(ctx)
	if err != nil {
		unavailable(t, "reach test Postgres: %v", err)
		return nil, ""
	}
	defer conn.Close()

	// One advisory lock serialises template creation and cloning across parallel test packages.
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(4242001)`); err != nil {
		t.Fatalf("lock: %v", err)
	}
	template, err := ensureTemplate(ctx, conn, adminURL)
	if err == nil {
		name := "pressroom_test_" + randomHex(6)
		_, err = conn.ExecContext(ctx, fmt.Sprintf(`CREATE DATABASE %s TEMPLATE %s`, name, template))
		if err == nil {
			conn.ExecContext(ctx, `SELECT pg_advisory_unlock(4242001)`)
			return openClone(t, adminURL, name)
		}
	}
	conn.ExecContext(ctx, `SELECT pg_advisory_unlock(4242001)`)
	t.Fatalf("prepare test database: %v", err)
	return nil, ""
}

// ensureTemplate creates and migrates a template database named after the migrations' content,
// so a changed migration yields a new template instead of a stale one.
func ensureTemplate(ctx context.Context, conn *sqlx.Conn, adminURL string) (string, error) {
	sum := sha256.New()
	err := fs.WalkDir(schema.Migrations, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(schema.Migrations, path)
		sum.Write([]byte(path))
		sum.Write(b)
		return err
	})
	if err != nil {
		return "", err
	}
	name := "pressroom_tmpl_" + hex.EncodeToString(sum.Sum(nil))[:12]
	var exists bool
	if err := conn.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`CREATE DATABASE %s`, name)); err != nil {
		return "", err
	}
	db, err := database.Open(ctx, database.Config{URL: withDatabase(adminURL, name)})
	if err == nil {
		err = database.Migrate(ctx, db, slog.New(slog.DiscardHandler))
		db.Close()
	}
	if err != nil {
		conn.ExecContext(ctx, fmt.Sprintf(`DROP DATABASE IF EXISTS %s WITH (FORCE)`, name))
		return "", fmt.Errorf("migrate template: %w", err)
	}
	return name, nil
}

func openClone(t testing.TB, adminURL, name string) (*sqlx.DB, string) {
	t.Helper()
	dbURL := withDatabase(adminURL, name)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := database.Open(ctx, database.Config{URL: dbURL, MaxOpenConns: 10, MaxIdleConns: 5})
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	t.Cleanup(func() {
		db.Close()
		admin, err := sqlx.Open("postgres", adminURL)
		if err != nil {
			t.Errorf("drop %s: %v", name, err)
			return
		}
		defer admin.Close()
		// FORCE ends the test's sessions but, for a role without pg_signal_backend, not an autovacuum
		// worker that happens to be on the database: that one finishes soon, so the drop is tried again.
		for attempt := 1; ; attempt++ {
			_, err := admin.Exec(fmt.Sprintf(`DROP DATABASE IF EXISTS %s WITH (FORCE)`, name))
			if err == nil {
				return
			}
			if attempt == 40 {
				t.Errorf("drop %s: %v", name, err)
				return
			}
			time.Sleep(250 * time.Millisecond)
		}
	})
	return db, dbURL
}

func withDatabase(rawURL, name string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	u.Path = "/" + name
	return u.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// redisDatabases is how many logical databases the test Redis offers (scripts/test configures 64);
// database 0 holds only the leases.
const redisDatabases = 64

// Redis leases a logical Redis database to the test, flushed before use and released at the end,
// and returns the address and database number to connect with.
func Redis(t testing.TB) (addr string, db int) {
	t.Helper()
	addr = os.Getenv("PRESSROOM_TEST_REDIS_ADDR")
	if addr == "" {
		unavailable(t, "PRESSROOM_TEST_REDIS_ADDR is not set: run scripts/test, or point it at a Redis server")
		return "", 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	lease := redis.NewClient(&redis.Options{Addr: addr})
	defer lease.Close()
	if err := lease.Ping(ctx).Err(); err != nil {
		unavailable(t, "reach test Redis at %s: %v", addr, err)
		return "", 0
	}
	owner := randomHex(8)
	for ctx.Err() == nil {
		for n := 1; n < redisDatabases; n++ {
			key := fmt.Sprintf("pressroom:test-lease:%d", n)
			ok, err := lease.SetNX(ctx, key, owner, 10*time.Minute).Result()
			if err != nil {
				t.Fatalf("lease Redis database: %v", err)
			}
			if !ok {
				continue
			}
			c := redis.NewClient(&redis.Options{Addr: addr, DB: n})
			err = c.FlushDB(ctx).Err()
			c.Close()
			if err != nil {
				t.Fatalf("flush Redis database %d: %v", n, err)
			}
			t.Cleanup(func() {
				c := redis.NewClient(&redis.Options{Addr: addr})
				defer c.Close()
				c.Del(context.Background(), key)
			})
			return addr, n
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no free Redis database on %s within 30s", addr)
	return "", 0
}

// S3Server is a real S3-compatible service for tests, with a bucket that exists and a key prefix
// of the test's own.
type S3Server struct {
	// Endpoint is host:port, spoken to over plain HTTP.
	Endpoint        string
	Region          string
	Bucket          string
	AccessKeyID     string
	SecretAccessKey string
	// Prefix ("test-<random>/") starts every key the test should use; objects under it are
	// removed when the test ends.
	Prefix string
}

// S3 returns the S3 service named by PRESSROOM_TEST_S3_ENDPOINT (host:port, plain HTTP, e.g. a
// versitygw started by scripts/test), with PRESSROOM_TEST_S3_ACCESS_KEY_ID,
// PRESSROOM_TEST_S3_SECRET_ACCESS_KEY, PRESSROOM_TEST_S3_BUCKET (default pressroom-test, created
// when missing) and PRESSROOM_TEST_S3_REGION (default us-east-1).
func S3(t testing.TB) S3Server {
	t.Helper()
	s := S3Server{
		Endpoint:        os.Getenv("PRESSROOM_TEST_S3_ENDPOINT"),
		Region:          os.Getenv("PRESSROOM_TEST_S3_REGION"),
		Bucket:          os.Getenv("PRESSROOM_TEST_S3_BUCKET"),
		AccessKeyID:     os.Getenv("PRESSROOM_TEST_S3_ACCESS_KEY_ID"),
		SecretAccessKey: os.Getenv("PRESSROOM_TEST_S3_SECRET_ACCESS_KEY"),
		Prefix:          "test-" + randomHex(6) + "/",
	}
	if s.Endpoint == "" {
		unavailable(t, "PRESSROOM_TEST_S3_ENDPOINT is not set: run scripts/test, or point it at an S3-compatible server (host:port)")
		return S3Server{}
	}
	if s.AccessKeyID == "" || s.SecretAccessKey == "" {
		t.Fatalf("PRESSROOM_TEST_S3_ENDPOINT is set but PRESSROOM_TEST_S3_ACCESS_KEY_ID or PRESSROOM_TEST_S3_SECRET_ACCESS_KEY is not")
	}
	if s.Bucket == "" {
		s.Bucket = "pressroom-test"
	}
	if s.Region == "" {
		s.Region = "us-east-1"
	}
	conn, err := net.DialTimeout("tcp", s.Endpoint, 5*time.Second)
	if err != nil {
		unavailable(t, "reach test S3 at %s: %v", s.Endpoint, err)
		return S3Server{}
	}
	conn.Close()

	c, err := minio.New(s.Endpoint, &minio.Options{
		Creds:        credentials.NewStaticV4(s.AccessKeyID, s.SecretAccessKey, ""),
		Region:       s.Region,
		BucketLookup: minio.BucketLookupPath,
	})
	if err != nil {
		t.Fatalf("S3 client for %s: %v", s.Endpoint, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	exists, err := c.BucketExists(ctx, s.Bucket)
	if err == nil && !exists {
		err = c.MakeBucket(ctx, s.Bucket, minio.MakeBucketOptions{Region: s.Region})
		if resp := minio.ToErrorResponse(err); resp.Code == "BucketAlreadyOwnedByYou" || resp.Code == "BucketAlreadyExists" {
			err = nil // another test package made it meanwhile
		}
	}
	if err != nil {
		t.Fatalf("prepare test bucket %s on %s: %v", s.Bucket, s.Endpoint, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for obj := range c.ListObjects(ctx, s.Bucket, minio.ListObjectsOptions{Prefix: s.Prefix, Recursive: true}) {
			if obj.Err != nil {
				t.Errorf("list %s for clean-up: %v", s.Prefix, obj.Err)
				return
			}
			if err := c.RemoveObject(ctx, s.Bucket, obj.Key, minio.RemoveObjectOptions{}); err != nil {
				t.Errorf("clean up %s: %v", obj.Key, err)
			}
		}
	})
	return s
}

// StripeURL returns the address of the stripe-mock named by PRESSROOM_TEST_STRIPE_URL (started by
// scripts/test), a stand-in for Stripe's API that takes any test key.
func StripeURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("PRESSROOM_TEST_STRIPE_URL")
	if u == "" {
		unavailable(t, "PRESSROOM_TEST_STRIPE_URL is not set: run scripts/test, or start stripe-mock and point it there")
	}
	return u
}
