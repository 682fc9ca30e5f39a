package apikeys

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"time"
)

// Scopes a key may hold: the account areas (user, product, product_design, store, page) and orders.
const (
	ScopeUser          = "user"
	ScopeProduct       = "product"
	ScopeProductDesign = "product_design"
	ScopeStore         = "store"
	ScopePage          = "page"
	ScopeOrders        = "orders"
)

// Scopes lists every scope in the order the settings screen shows them.
var Scopes = []string{ScopeUser, ScopeProduct, ScopeProductDesign, ScopeStore, ScopePage, ScopeOrders}

// Secret prefixes: a secret reads as a Pressroom key, and as a live or a test-mode one.
const (
	livePrefix = "prk_live_"
	testPrefix = "prk_test_"
)

// shownPrefix is how many characters of a secret the screens show: its kind and 8 random ones.
const shownPrefix = len(livePrefix) + 8

// Key is an API key as the settings screen lists it; its secret is never kept.
type Key struct {
	ID         int64      `db:"id" json:"id"`
	Name       string     `db:"name" json:"name"`
	Prefix     string     `db:"prefix" json:"prefix"`
	Scopes     []string   `db:"-" json:"scopes"`
	TestMode   bool       `db:"test_mode" json:"test_mode"`
	ExpiresAt  *time.Time `db:"expires_at" json:"expires_at"`
	RevokedAt  *time.Time `db:"revoked_at" json:"revoked_at"`
	LastUsedAt *time.Time `db:"last_used_at" json:"last_used_at"`
	CreatedAt  time.Time  `db:"created_at" json:"created_at"`
}

// Active reports whether the key still works at now.
func (k Key) Active(now time.Time) bool {
	return k.RevokedAt == nil && (k.ExpiresAt == nil || k.ExpiresAt.After(now))
}

// Caller is the key a public API request was made with.
type Caller struct {
	KeyID    int64
	SellerID int64
	Scopes   []string
	TestMode bool
}

// Has reports whether the key holds scope.
func (c *Caller) Has(scope string) bool { return slices.Contains(c.Scopes, scope) }

// newSecret returns a secret of 256 random bits with its kind's prefix, and the hash stored for it.
func newSecret(testMode bool) (secret string, hash []byte) {
	b := make([]byte, 32)
	rand.Read(b) // never fails: crypto/rand panics instead of returning weak bytes
	p := livePrefix
	if testMode {
		p = testPrefix
	}
	secret = p + base64.RawURLEncoding.EncodeToString(b)
	return secret, hashSecret(secret)
}

func hashSecret(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}
