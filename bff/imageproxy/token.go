package imageproxy

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// ErrBadToken is returned when a token is malformed, signed with another key, for another URL,
// or expired.
var ErrBadToken = errors.New("imageproxy: bad or expired token")

// tokenDomain separates these MACs from any other use of the key.
const tokenDomain = "pressroom.imageproxy.v1"

// signer makes and checks url tokens: "<exp>.<sig>", exp in Unix seconds and sig the unpadded
// base64url HMAC-SHA256 of tokenDomain, exp and the exact URL string, newline-separated.
type signer struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

func (s signer) mac(exp int64, raw string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(tokenDomain + "\n" + strconv.FormatInt(exp, 10) + "\n" + raw))
	return m.Sum(nil)
}

// sign returns the token for raw, expiring TTL from now rounded up to the next whole UTC day.
func (s signer) sign(raw string) string {
	const day = 24 * time.Hour
	exp := s.now().Add(s.ttl).Truncate(day).Add(day).Unix()
	return strconv.FormatInt(exp, 10) + "." + base64.RawURLEncoding.EncodeToString(s.mac(exp, raw))
}

// verify checks token against raw, in constant time for the signature.
func (s signer) verify(raw, token string) error {
	es, sig, ok := strings.Cut(token, ".")
	if !ok || len(es) > 12 || len(sig) != base64.RawURLEncoding.EncodedLen(sha256.Size) {
		return ErrBadToken
	}
	exp, err := strconv.ParseInt(es, 10, 64)
	if err != nil || exp <= 0 {
		return ErrBadToken
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac(exp, raw)) {
		return ErrBadToken
	}
	if !s.now().Before(time.Unix(exp, 0)) {
		return ErrBadToken
	}
	return nil
}
