package testinfra

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"sync"
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
	adminURL := adminURL(t)
	name, err := cloneMigrated(adminURL, "pressroom_test_")
	if errors.Is(err, errUnreachable) {
		unavailable(t, "%v", err)
	}
	if err != nil {
		t.Fatalf("prepare test database: %v", err)
	}
	return openClone(t, adminURL, name)
}

var errUnreachable = errors.New("reach test Postgres")

// adminURL is PRESSROOM_TEST_DATABASE_URL; without it the test skips (or fails, see unavailable).
func adminURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("PRESSROOM_TEST_DATABASE_URL")
	if u == "" {
		unavailable(t, "PRESSROOM_TEST_DATABASE_URL is not set: run scripts/test, or point it at a Postgres role that may create databases")
	}
	return u
}

// cloneMigrated creates a database named prefix plus a random suffix from the migrated template.
func cloneMigrated(adminURL, prefix string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	admin, err := sqlx.Open("postgres", adminURL)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", adminURL, err)
	}
	defer admin.Close()
	conn, err := admin.Connx(ctx)
	if err != nil {
		return "", fmt.Errorf("%w: %v", errUnreachable, err)
	}
	defer conn.Close()

	// One advisory lock serialises template creation and cloning across parallel test packages.
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(4242001)`); err != nil {
		return "", fmt.Errorf("lock: %w", err)
	}
	defer conn.ExecContext(ctx, `SELECT pg_advisory_unlock(4242001)`)
	template, err := ensureTemplate(ctx, conn, adminURL)
	if err != nil {
		return "", err
	}
	return createFrom(ctx, conn, prefix, template)
}

// createFrom creates a database named prefix plus a random suffix as a copy of template, and answers its name.
func createFrom(ctx context.Context, db sqlx.ExecerContext, prefix, template string) (string, error) {
	name := prefix + randomHex(6)
	if _, err := db.ExecContext(ctx, fmt.Sprintf(`CREATE DATABASE %s TEMPLATE %s`, name, template)); err != nil {
		return "", err
	}
	return name, nil
}

// Snapshot is a database made once per test process (migrated, then filled by a slow step such as the
// demo seed) that tests get copies of, so each test starts from the filled state without paying for
// the step. The zero value is ready to use; a package using one drops it at the end of TestMain.
type Snapshot struct {
	mu       sync.Mutex
	adminURL string
	name     string // empty until made
	err      error  // why it could not be made; every later test fails with it
}

// Postgres is testinfra.Postgres on a copy of the snapshot: a new database holding what fill wrote,
// and its URL, dropped when the test ends. fill runs on the first call only, on the snapshot itself
// (handle and URL).
func (s *Snapshot) Postgres(t testing.TB, fill func(db *sqlx.DB, dbURL string) error) (*sqlx.DB, string) {
	t.Helper()
	adminURL := adminURL(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.name == "" && s.err == nil {
		s.adminURL = adminURL
		s.name, s.err = makeSnapshot(adminURL, fill)
	}
	if errors.Is(s.err, errUnreachable) {
		unavailable(t, "%v", s.err)
	}
	if s.err != nil {
		t.Fatalf("prepare the snapshot database: %v", s.err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	admin, err := sqlx.Open("postgres", adminURL)
	var name string
	if err == nil {
		defer admin.Close()
		// Postgres waits a few seconds for the fill's closed sessions to end before refusing the copy.
		name, err = createFrom(ctx, admin, "pressroom_test_", s.name)
	}
	if err != nil {
		t.Fatalf("copy the snapshot database: %v", err)
	}
	return openClone(t, adminURL, name)
}

func makeSnapshot(adminURL string, fill func(db *sqlx.DB, dbURL string) error) (string, error) {
	name, err := cloneMigrated(adminURL, "pressroom_snap_")
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dbURL := withDatabase(adminURL, name)
	db, err := database.Open(ctx, database.Config{URL: dbURL, MaxOpenConns: 10, MaxIdleConns: 5})
	if err == nil {
		err = fill(db, dbURL)
		db.Close()
	}
	if err != nil {
		dropDatabase(adminURL, name)
		return "", fmt.Errorf("fill: %w", err)
	}
	return name, nil
}

// Drop removes the snapshot's database, if it was made; call it after m.Run in TestMain.
func (s *Snapshot) Drop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.name != "" {
		dropDatabase(s.adminURL, s.name)
		s.name = ""
	}
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
		if err := dropDatabase(adminURL, name); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	})
	return db, dbURL
}

// dropDatabase drops name. FORCE ends the test's sessions but, for a role without pg_signal_backend, not
// an autovacuum worker that happens to be on the database: that one finishes soon, so the drop is tried again.
func dropDatabase(adminURL, name string) error {
	admin, err := sqlx.Open("postgres", adminURL)
	if err != nil {
		return err
	}
	defer admin.Close()
	for attempt := 1; ; attempt++ {
		_, err := admin.Exec(fmt.Sprintf(`DROP DATABASE IF EXISTS %s WITH (FORCE)`, name))
		if err == nil || attempt == 40 {
			return err
		}
		time.Sleep(250 * time.Millisecond)
	}
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
