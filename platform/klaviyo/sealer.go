package klaviyo

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"strconv"
)

// ErrUnsealable means a sealed key does not open under the configured secret: it was sealed under
// another PRESSROOM_EMAIL_SECRET_KEY, for another store, or was altered.
var ErrUnsealable = errors.New("the stored Klaviyo key cannot be decrypted; enter it again")

// Sealer encrypts the stores' Klaviyo private keys with AES-256-GCM. Each sealed value is bound to
// its store id (as additional data), so a value copied to another store's row does not open.
type Sealer struct {
	aead cipher.AEAD
}

// NewSealer derives the AES-256 key as SHA-256 of secret.
func NewSealer(secret string) (*Sealer, error) {
	if secret == "" {
		return nil, errors.New("email secret key is empty")
	}
	k := sha256.Sum256([]byte(secret))
	block, err := aes.NewCipher(k[:])
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

func storeAD(storeID int64) []byte {
	return []byte("klaviyo-key:store:" + strconv.FormatInt(storeID, 10))
}

// Seal encrypts plaintext for storeID: a random nonce followed by the ciphertext.
func (s *Sealer) Seal(storeID int64, plaintext string) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plaintext)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return s.aead.Seal(nonce, nonce, []byte(plaintext), storeAD(storeID)), nil
}

// Open decrypts what Seal made for storeID.
func (s *Sealer) Open(storeID int64, sealed []byte) (string, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n+s.aead.Overhead() {
		return "", ErrUnsealable
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], storeAD(storeID))
	if err != nil {
		return "", ErrUnsealable
	}
	return string(plain), nil
}
