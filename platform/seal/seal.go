package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"errors"
)

// ErrUnsealable means a sealed value does not open: it was sealed under another secret, with
// another label, or was altered. Callers tell the user to enter the secret again.
var ErrUnsealable = errors.New("the stored secret cannot be decrypted")

// Box seals and opens values under one secret.
type Box struct {
	aead cipher.AEAD
}

// New derives the AES-256 key as SHA-256 of secret.
func New(secret string) (*Box, error) {
	if secret == "" {
		return nil, errors.New("seal: the secret is empty")
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
	return &Box{aead: aead}, nil
}

// Seal encrypts plaintext bound to label (the additional data): a random nonce followed by the
// ciphertext.
func (b *Box) Seal(label, plaintext string) ([]byte, error) {
	nonce := make([]byte, b.aead.NonceSize(), b.aead.NonceSize()+len(plaintext)+b.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return b.aead.Seal(nonce, nonce, []byte(plaintext), []byte(label)), nil
}

// Open decrypts what Seal made with the same label.
func (b *Box) Open(label string, sealed []byte) (string, error) {
	n := b.aead.NonceSize()
	if len(sealed) < n+b.aead.Overhead() {
		return "", ErrUnsealable
	}
	plain, err := b.aead.Open(nil, sealed[:n], sealed[n:], []byte(label))
	if err != nil {
		return "", ErrUnsealable
	}
	return string(plain), nil
}

// Last4 is what a masked secret shows of plaintext: its last four characters, none of a value so
// short that four would give most of it away.
func Last4(plaintext string) string {
	if len(plaintext) < 8 {
		return ""
	}
	return plaintext[len(plaintext)-4:]
}

// Mask is how a sealed secret is shown: prefix (the kind of value, never the secret part), dots,
// then its Last4.
func Mask(prefix, last4 string) string { return prefix + "••••••••" + last4 }
