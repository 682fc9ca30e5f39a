package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// newToken returns a bearer token of 256 random bits and the hash stored for it.
func newToken() (token string, hash []byte) {
	b := make([]byte, 32)
	rand.Read(b) // never fails: crypto/rand panics instead of returning weak bytes
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token)
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
