package paymentaccounts

import (
	"maps"
	"net/http"
	"slices"

	"github.com/pressroom/pressroom/bff/envelope"
)

// Messages the screens show.
const (
	MsgNotFound      = "Payment account not found."
	MsgMethod        = "Choose a payout method: bank transfer, Payoneer, PingPong, LianLian Pay or Payoneer (Vietnam)."
	MsgMethodFixed   = "An account keeps its payout method. To be paid another way, add another account."
	MsgRequired      = "This field is required."
	MsgUnknownField  = "This field is not one of this payout method's."
	MsgCountry       = "Choose the bank's country from the list."
	MsgAdded         = "The payment account was added. Open the link we e-mailed you to confirm it; payouts can be sent to it after that."
	MsgChanged       = "The payment account was changed. Open the link we e-mailed you to confirm the change; payouts can be sent to it after that."
	MsgSaved         = "The payment account was saved."
	MsgDeleted       = "The payment account was deleted."
	MsgOpenPayout    = "A payout in progress goes to this account. It can be deleted once that payout is completed or cancelled."
	MsgDefault       = "Payouts now go to this account by default."
	MsgNotValid      = "Only a confirmed account can be the default. Open the link we e-mailed you first."
	MsgResent        = "We e-mailed you a new confirmation link."
	MsgAlreadyValid  = "This account is already confirmed."
	MsgResendSoon    = "A link was sent less than a minute ago. Check your inbox, or try again in a minute."
	MsgConfirmed     = "The payment account is confirmed. Payouts can be sent to it."
	MsgWasConfirmed  = "This payment account was already confirmed."
	MsgBadLink       = "This confirmation link is not valid. Open the latest link we e-mailed you, or send a new one from Payment Accounts."
	MsgExpired       = "This confirmation link has expired. Send a new one from Payment Accounts."
	MsgReason        = "Say why the account is invalid, in at most 500 characters; the seller reads it."
	MsgInvalidated   = "The payment account is marked invalid; the seller was told."
	MsgUnsealable    = "The stored details of this account can no longer be read; the seller must enter them again."
	MsgChangeInvalid = "This account was marked invalid. Change its details; we then e-mail you a new link."
)

// Input is an account as the form sends it: its method and its fields by name. On a change, a
// sensitive field left empty (or as the masked value the form was given) keeps the stored value.
type Input struct {
	Method string            `json:"method"`
	Fields map[string]string `json:"fields"`
}

// checked is an input split as stored: the plain details, and the sensitive values given (those
// kept are absent).
type checked struct {
	method  Method
	details map[string]string
	secrets map[string]string
}

// check validates in against its method, every problem at once by field ("fields.<name>"). On a
// change, old is the account as stored (its method must stay, its masked values mean "keep").
func (in Input) check(old *Account) (checked, []envelope.FieldError) {
	var errs []envelope.FieldError
	add := func(f, m string) { errs = append(errs, envelope.FieldError{Field: f, Message: m}) }
	m, ok := methodOf(in.Method)
	switch {
	case !ok:
		add("method", MsgMethod)
		return checked{}, errs
	case old != nil && old.Method != in.Method:
		add("method", MsgMethodFixed)
		return checked{}, errs
	}
	out := checked{method: m, details: map[string]string{}, secrets: map[string]string{}}
	fields := maps.Clone(in.Fields)
	for _, f := range m.Fields {
		v := fields[f.Name]
		delete(fields, f.Name)
		if f.Sensitive && old != nil && (v == "" || v == old.Fields[f.Name]) {
			continue // kept as stored
		}
		if f.normalise != nil {
			var problem string
			if v, problem = f.normalise(v); problem != "" && v != "" {
				add("fields."+f.Name, problem)
				continue
			}
		}
		if v == "" {
			if f.Required {
				add("fields."+f.Name, MsgRequired)
			}
			continue
		}
		if f.Sensitive {
			out.secrets[f.Name] = v
		} else {
			out.details[f.Name] = v
		}
	}
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		add("fields."+name, MsgUnknownField)
	}
	return out, errs
}

func invalid(errs ...envelope.FieldError) error {
	return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
}
