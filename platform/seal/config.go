package seal

import "github.com/pressroom/pressroom/platform/env"

// DevPaymentKey seals payment secrets outside production when PRESSROOM_PAYMENT_SECRET_KEY is unset.
// It is public (it is in the source), so values sealed with it are not protected: production and a
// bff on an address other machines reach refuse it.
const DevPaymentKey = "pressroom-dev-payment-secret-key-not-secret-0123456789"

// MinKeyLen is the shortest secret production accepts, in bytes.
const MinKeyLen = 32

// Config is the secret sellers' payment secrets are sealed under.
type Config struct {
	// PaymentKey seals sellers' Stripe keys and the sensitive fields of their payout accounts
	// (PRESSROOM_PAYMENT_SECRET_KEY; bff and storefront). Required in production and on a listen
	// address other machines can reach (see ValidateKeys), at least MinKeyLen bytes and not
	// DevPaymentKey; empty elsewhere means DevPaymentKey. Changing it makes the stored values
	// unreadable: sellers enter their keys and account numbers again.
	PaymentKey string
}

// LoadConfig reads PRESSROOM_PAYMENT_SECRET_KEY.
func LoadConfig(lookup env.Lookup) (Config, error) {
	var c Config
	r := env.NewReader(lookup)
	r.String(&c.PaymentKey, "PRESSROOM_PAYMENT_SECRET_KEY")
	return c, r.Err()
}

// ValidateKeys refuses an empty, short or development key when x requires real keys.
func (c Config) ValidateKeys(x env.Exposure) error {
	return x.CheckKey("PRESSROOM_PAYMENT_SECRET_KEY", c.PaymentKey, DevPaymentKey, MinKeyLen)
}

// PaymentBox is the Box of the payment key (DevPaymentKey when empty).
func (c Config) PaymentBox() (*Box, error) {
	if c.PaymentKey == "" {
		return New(DevPaymentKey)
	}
	return New(c.PaymentKey)
}
