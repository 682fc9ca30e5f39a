package klaviyo

import (
	"errors"
	"strconv"

	"github.com/pressroom/pressroom/platform/seal"
)

// ErrUnsealable means a sealed key does not open under the configured secret: it was sealed under
// another PRESSROOM_EMAIL_SECRET_KEY, for another store, or was altered.
var ErrUnsealable = errors.New("the stored Klaviyo key cannot be decrypted; enter it again")

// Sealer encrypts the stores' Klaviyo private keys (platform/seal). Each sealed value is bound to
// its store id, so a value copied to another store's row does not open.
type Sealer struct {
	box *seal.Box
}

// NewSealer seals under secret.
func NewSealer(secret string) (*Sealer, error) {
	box, err := seal.New(secret)
	if err != nil {
		return nil, err
	}
	return &Sealer{box: box}, nil
}

func storeLabel(storeID int64) string {
	return "klaviyo-key:store:" + strconv.FormatInt(storeID, 10)
}

// Seal encrypts plaintext for storeID.
func (s *Sealer) Seal(storeID int64, plaintext string) ([]byte, error) {
	return s.box.Seal(storeLabel(storeID), plaintext)
}

// Open decrypts what Seal made for storeID.
func (s *Sealer) Open(storeID int64, sealed []byte) (string, error) {
	plain, err := s.box.Open(storeLabel(storeID), sealed)
	if err != nil {
		return "", ErrUnsealable
	}
	return plain, nil
}
