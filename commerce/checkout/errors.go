package checkout

import (
	"errors"
	"strings"
)

// FieldError is one problem with one input.
type FieldError struct {
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// InvalidError lists what is wrong with the input; nothing was stored.
type InvalidError struct{ Errors []FieldError }

func (e *InvalidError) Error() string {
	msgs := make([]string, len(e.Errors))
	for i, f := range e.Errors {
		msgs[i] = f.Field + ": " + f.Message
	}
	return "invalid input: " + strings.Join(msgs, "; ")
}

// Field answers the message for field, empty when it has none.
func (e *InvalidError) Field(field string) string {
	for _, f := range e.Errors {
		if f.Field == field {
			return f.Message
		}
	}
	return ""
}

func invalid(field, msg string) error {
	return &InvalidError{Errors: []FieldError{{Field: field, Message: msg}}}
}

// Errors of the checkout.
var (
	// ErrNotFound: no such cart, checkout or product in this store.
	ErrNotFound = errors.New("not found")
	// ErrClosed: the store does not sell at the moment.
	ErrClosed = errors.New("the store is closed")
	// ErrPaymentFailed: the gateway refused the payment; the checkout stays open.
	ErrPaymentFailed = errors.New("payment failed")
	// ErrEmptyCart: there is nothing to check out.
	ErrEmptyCart = errors.New("the cart is empty")
)
