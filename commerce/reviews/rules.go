package reviews

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"html"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/microcosm-cc/bluemonday"

	"github.com/pressroom/pressroom/commerce/checkout"
)

// Statuses of a review: a new one waits for the seller (pending), who publishes or hides it.
const (
	StatusPending   = "pending"
	StatusPublished = "published"
	StatusHidden    = "hidden"
)

// Statuses is every status, in the order screens list them.
var Statuses = []string{StatusPending, StatusPublished, StatusHidden}

// A store's review setting (stores.review_setting) decides what its product pages show.
const (
	// SettingDisable: no reviews, and no review links in the delivery e-mails.
	SettingDisable = "disable"
	// SettingOnlyStore: the published reviews written of this store's sales.
	SettingOnlyStore = "enable-only-store"
	// SettingShare: the published reviews of the campaign from all the seller's stores.
	SettingShare = "enable-share-review"
)

// Limits of a review.
const (
	MaxBody   = 2000
	MaxAuthor = 60
	MaxReply  = 2000
	// MaxPhotoBytes is the largest photo a buyer may add.
	MaxPhotoBytes = 5 << 20
)

// Messages the buyer and the seller read.
const (
	MsgRating       = "Choose a rating from 1 to 5 stars."
	MsgBody         = "Write a few words about the product."
	MsgAuthor       = "Enter the name to show with your review."
	MsgPhotoType    = "The photo must be a PNG, JPEG or WebP image."
	MsgPhotoTooBig  = "The photo is too large: at most 5 MiB."
	MsgNotFound     = "This review link is not valid. Use the link from your delivery e-mail."
	MsgNotDelivered = "You can review this item once it has been delivered."
	MsgClosed       = "This order was cancelled or refunded, so it cannot be reviewed."
	MsgReviewsOff   = "This store does not take reviews at the moment."
	MsgAlready      = "You have already reviewed this item. Thank you!"
)

// Why an item cannot be reviewed.
var (
	// ErrNotFound: no such item in this store.
	ErrNotFound = errors.New("review: no such item")
	// ErrNotDelivered: the item has not been delivered yet.
	ErrNotDelivered = errors.New("review: not delivered")
	// ErrClosed: the order was cancelled, refunded or deleted.
	ErrClosed = errors.New("review: order closed")
	// ErrReviewsOff: the store's review setting is disable.
	ErrReviewsOff = errors.New("review: the store takes no reviews")
	// ErrAlreadyReviewed: the item has its review (one per item).
	ErrAlreadyReviewed = errors.New("review: already reviewed")
)

// Message is the buyer's words for an error of this package, "" for any other error.
func Message(err error) string {
	switch {
	case errors.Is(err, ErrNotFound):
		return MsgNotFound
	case errors.Is(err, ErrNotDelivered):
		return MsgNotDelivered
	case errors.Is(err, ErrClosed):
		return MsgClosed
	case errors.Is(err, ErrReviewsOff):
		return MsgReviewsOff
	case errors.Is(err, ErrAlreadyReviewed):
		return MsgAlready
	}
	return ""
}

// Token signs the review link of a store's order item under key (PRESSROOM_STOREFRONT_SIGNING_KEY):
// whoever holds it got the item's delivery e-mail.
func Token(key string, storeID, itemID int64) string {
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write([]byte("review:" + strconv.FormatInt(storeID, 10) + ":" + strconv.FormatInt(itemID, 10)))
	return hex.EncodeToString(mac.Sum(nil))[:32]
}

// Valid reports whether token is the review token of the store's order item.
func Valid(key string, storeID, itemID int64, token string) bool {
	return hmac.Equal([]byte(token), []byte(Token(key, storeID, itemID)))
}

// Path is the review page of an order item under its store's base (/ on the store's host,
// /s/{slug} by path).
func Path(key string, storeID, itemID int64) string {
	return "/reviews/" + strconv.FormatInt(itemID, 10) + "/" + Token(key, storeID, itemID)
}

// eligible is the rule of who may review: the item of this store was delivered, its order was not
// cancelled, refunded or deleted, the store takes reviews, and the item has no review yet.
func eligible(it Item) error {
	switch {
	case it.Reviewed:
		return ErrAlreadyReviewed
	case it.OrderStatus == "cancelled" || it.OrderStatus == "refunded" || it.OrderStatus == "deleted":
		return ErrClosed
	case it.DeliveredAt == nil:
		return ErrNotDelivered
	case it.ReviewSetting == SettingDisable:
		return ErrReviewsOff
	}
	return nil
}

// plain keeps no markup: what a buyer or a seller writes is plain text.
var plain = bluemonday.StrictPolicy()

// Clean makes s plain text as reviews and replies keep it: markup taken out (a tag's text kept,
// a script's dropped), control characters other than line breaks and invalid UTF-8 removed, line
// breaks made \n, runs of blank lines and spaces shortened, ends trimmed. Screens escape it when they
// show it.
func Clean(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = html.UnescapeString(plain.Sanitize(s))
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	var b strings.Builder
	spaces, breaks := 0, 0
	for _, r := range s {
		switch {
		case r == '\n':
			breaks++
			spaces = 0
			continue
		case unicode.IsSpace(r):
			spaces++
			continue
		case unicode.IsControl(r) || unicode.In(r, unicode.Bidi_Control):
			continue
		}
		if breaks > 0 && b.Len() > 0 {
			b.WriteString(strings.Repeat("\n", min(breaks, 2)))
		} else if spaces > 0 && b.Len() > 0 {
			b.WriteByte(' ')
		}
		spaces, breaks = 0, 0
		b.WriteRune(r)
	}
	return b.String()
}

// Input is a review as the buyer sends it. Photo, when set, is the blob key the storefront stored
// the file under (PhotoKey) and its file name.
type Input struct {
	Rating int
	Author string
	Body   string
	Photo  *Photo
}

// Photo is a file the buyer added, stored and waiting for its check.
type Photo struct {
	Key, FileName string
}

// check cleans the input and lists what is wrong, by field.
func (in *Input) check() error {
	var errs []checkout.FieldError
	add := func(f, m string) { errs = append(errs, checkout.FieldError{Field: f, Message: m}) }
	in.Author = strings.Join(strings.Fields(Clean(in.Author)), " ")
	in.Body = Clean(in.Body)
	if in.Rating < 1 || in.Rating > 5 {
		add("rating", MsgRating)
	}
	switch n := utf8.RuneCountInString(in.Body); {
	case n == 0:
		add("body", MsgBody)
	case n > MaxBody:
		add("body", "Your review may be at most "+strconv.Itoa(MaxBody)+" characters long; it has "+strconv.Itoa(n)+".")
	}
	switch n := utf8.RuneCountInString(in.Author); {
	case n == 0:
		add("author", MsgAuthor)
	case n > MaxAuthor:
		add("author", "The name may be at most "+strconv.Itoa(MaxAuthor)+" characters long.")
	}
	if len(errs) > 0 {
		return &checkout.InvalidError{Errors: errs}
	}
	return nil
}

// CheckReply cleans a seller's reply and says what is wrong with it, "" when nothing is; an empty
// reply takes the reply away.
func CheckReply(reply string) (string, string) {
	reply = Clean(reply)
	if n := utf8.RuneCountInString(reply); n > MaxReply {
		return reply, "The reply may be at most " + strconv.Itoa(MaxReply) + " characters long; it has " + strconv.Itoa(n) + "."
	}
	return reply, ""
}

// ShownName is how a buyer's name is offered for their review: the first name and the initial of
// the last ("Jo Buyer" -> "Jo B.").
func ShownName(customer string) string {
	words := strings.Fields(Clean(customer))
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	last, _ := utf8.DecodeRuneInString(words[len(words)-1])
	return words[0] + " " + string(unicode.ToUpper(last)) + "."
}
