package paymentgateways

import (
	"net/http"
	"strings"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/gateways"
)

// maxName bounds a gateway's name; maxKey a key as Stripe issues them (theirs are about 110).
const (
	maxName = 100
	maxKey  = 255
)

// Messages the screens show.
const (
	MsgNotFound       = "Payment gateway not found."
	MsgName           = "Give the gateway a name, such as My Stripe account."
	MsgSecretKey      = "Enter the secret key from Stripe's dashboard (Developers, API keys); it starts with sk_live_ or sk_test_."
	MsgPublishableKey = "Enter the publishable key from Stripe's dashboard (Developers, API keys); it starts with pk_live_ or pk_test_."
	MsgWebhookSecret  = "Enter the signing secret of the webhook endpoint you added in Stripe's dashboard; it starts with whsec_."
	MsgModes          = "The publishable key and the secret key must be of the same mode: both live, or both test."
	MsgStores         = "Choose stores of your own."
	MsgOtherAccount   = "These keys belong to another Stripe account. To take payments into another account, connect it as a new gateway."
	MsgUnreachable    = "Stripe could not be reached to check the keys. Nothing was saved; please try again."
	MsgCreated        = "The payment gateway is connected."
	MsgSaved          = "The payment gateway was saved."
	MsgRemoved        = "The payment gateway was deleted. Its stores take payments through Pressroom again."
	MsgRetired        = "The payment gateway was deleted. Its stores take payments through Pressroom again; payments buyers already started still complete into your Stripe account, and refunds of its orders still go back through it."
)

// Input is a gateway as the form sends it. On an update, an empty secret (or the masked value the
// form was given) keeps the stored one.
type Input struct {
	Name           string  `json:"name"`
	SecretKey      string  `json:"secret_key"`
	PublishableKey string  `json:"publishable_key"`
	WebhookSecret  string  `json:"webhook_secret"`
	StoreIDs       []int64 `json:"store_ids"`
}

// keeps reports whether a secret field left as sent means "keep the stored one".
func keeps(value, hint string) bool { return value == "" || value == hint }

// check normalises the input and lists the problems that need neither the database nor Stripe. On
// an update (old non-nil) an unchanged secret is not checked.
func (in *Input) check(old *Gateway) []envelope.FieldError {
	var errs []envelope.FieldError
	add := func(f, m string) { errs = append(errs, envelope.FieldError{Field: f, Message: m}) }
	in.Name = strings.TrimSpace(in.Name)
	in.SecretKey = strings.TrimSpace(in.SecretKey)
	in.PublishableKey = strings.TrimSpace(in.PublishableKey)
	in.WebhookSecret = strings.TrimSpace(in.WebhookSecret)
	if in.StoreIDs == nil {
		in.StoreIDs = []int64{}
	}
	switch {
	case in.Name == "":
		add("name", MsgName)
	case len([]rune(in.Name)) > maxName:
		errs = append(errs, envelope.TooLong("name", "name", maxName))
	}
	keepSecret := old != nil && keeps(in.SecretKey, old.SecretKey)
	if !keepSecret && !keyLike(in.SecretKey, "sk_live_", "sk_test_", "rk_live_", "rk_test_") {
		add("secret_key", MsgSecretKey)
	}
	if !keyLike(in.PublishableKey, "pk_live_", "pk_test_") {
		add("publishable_key", MsgPublishableKey)
	}
	if !(old != nil && keeps(in.WebhookSecret, old.WebhookSecret)) && !keyLike(in.WebhookSecret, "whsec_") {
		add("webhook_secret", MsgWebhookSecret)
	}
	if len(errs) == 0 {
		secretTest := gateways.TestKey(in.SecretKey)
		if keepSecret {
			secretTest = old.TestMode
		}
		if secretTest != gateways.TestKey(in.PublishableKey) {
			add("publishable_key", MsgModes)
		}
	}
	return errs
}

// keyLike: one of the prefixes, then at least a few characters, no spaces, not absurdly long.
func keyLike(v string, prefixes ...string) bool {
	if len(v) > maxKey || strings.ContainsAny(v, " \t\r\n") {
		return false
	}
	for _, p := range prefixes {
		if strings.HasPrefix(v, p) && len(v) >= len(p)+4 {
			return true
		}
	}
	return false
}

func invalid(errs ...envelope.FieldError) error {
	return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
}
