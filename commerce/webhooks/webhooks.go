package webhooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pressroom/pressroom/commerce/orders"
	"github.com/pressroom/pressroom/platform/netguard"
)

// Kinds of endpoint.
const (
	KindCustom   = "custom"
	KindSlack    = "slack"
	KindDiscord  = "discord"
	KindTeams    = "ms_teams"
	KindTelegram = "telegram"
)

// Kinds lists every kind in the order the settings show them.
var Kinds = []string{KindCustom, KindSlack, KindDiscord, KindTeams, KindTelegram}

// Events an endpoint may subscribe to: the order events of event_outbox.
var Events = []string{orders.EventCreated, orders.EventTrackingChanged, orders.EventStatusChanged}

// EventTest is the type of a test send.
const EventTest = "webhook.test"

// SignatureHeader carries a custom delivery's signature; EventHeader and EventIDHeader its type and
// id (the same on every try and replay of an event, so receivers can drop repeats).
const (
	SignatureHeader = "Pressroom-Signature"
	EventHeader     = "Pressroom-Event"
	EventIDHeader   = "Pressroom-Event-Id"
)

// Messages of bad input, by field.
const (
	MsgBadKind       = "The channel must be one of custom, slack, discord, ms_teams or telegram."
	MsgURLRequired   = "The URL is required."
	MsgBadURL        = "The URL must be an absolute http or https address."
	MsgForbiddenURL  = "The URL must point at a public address (not loopback, private or link-local)."
	MsgBadChannelURL = "The URL must be a %s webhook address starting with %s."
	MsgNameTooLong   = "The name may not be longer than 100 characters."
	MsgNoEvents      = "Choose at least one event."
	MsgBadEvent      = "Unknown event %q."
	MsgBotToken      = "The bot token must look like 123456:ABC-DEF..."
	MsgChatID        = "The chat id must be a number or an @channel name."
)

// FieldError is one problem of an endpoint's input, tied to its field.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// InvalidError is every problem of an input.
type InvalidError struct{ Errors []FieldError }

func (e *InvalidError) Error() string { return "webhooks: " + e.Errors[0].Message }

// Input is an endpoint as a seller writes it. For telegram, BotToken and ChatID replace URL.
type Input struct {
	Kind     string   `json:"kind"`
	Name     string   `json:"name"`
	URL      string   `json:"url"`
	BotToken string   `json:"bot_token"`
	ChatID   string   `json:"chat_id"`
	Events   []string `json:"events"`
	Enabled  *bool    `json:"enabled"`
}

var (
	botToken = regexp.MustCompile(`^[0-9]{1,20}:[A-Za-z0-9_-]{20,100}$`)
	chatID   = regexp.MustCompile(`^(-?[0-9]{1,20}|@[A-Za-z0-9_]{4,64})$`)
)

// Check trims in and reports every problem; the address is checked against the policy as it
// resolves now (literal addresses) and its form. The worker checks the address it dials again at
// every delivery.
func (c Config) Check(in *Input) error {
	in.Kind, in.Name, in.URL = strings.TrimSpace(in.Kind), strings.TrimSpace(in.Name), strings.TrimSpace(in.URL)
	in.BotToken, in.ChatID = strings.TrimSpace(in.BotToken), strings.TrimSpace(in.ChatID)
	var errs []FieldError
	add := func(f, m string) { errs = append(errs, FieldError{Field: f, Message: m}) }
	if !slices.Contains(Kinds, in.Kind) {
		add("kind", MsgBadKind)
	}
	if len([]rune(in.Name)) > 100 {
		add("name", MsgNameTooLong)
	}
	if in.Kind == KindTelegram {
		in.URL = ""
		if !botToken.MatchString(in.BotToken) {
			add("bot_token", MsgBotToken)
		}
		if !chatID.MatchString(in.ChatID) {
			add("chat_id", MsgChatID)
		}
	} else if m := c.checkURL(in.Kind, in.URL); m != "" {
		add("url", m)
	}
	if len(in.Events) == 0 {
		add("events", MsgNoEvents)
	}
	var seen []string
	for _, e := range in.Events {
		if !slices.Contains(Events, e) {
			add("events", strings.Replace(MsgBadEvent, "%q", strconv.Quote(e), 1))
		} else if !slices.Contains(seen, e) {
			seen = append(seen, e)
		}
	}
	in.Events = seen
	if len(errs) > 0 {
		return &InvalidError{Errors: errs}
	}
	return nil
}

// checkURL is the message of what is wrong with an endpoint's address, or "".
func (c Config) checkURL(kind, raw string) string {
	if raw == "" {
		return MsgURLRequired
	}
	if _, err := c.Policy().CheckURL(raw); err != nil {
		if _, ok := errors.AsType[*netguard.AddrError](err); ok {
			return MsgForbiddenURL
		}
		return MsgBadURL
	}
	base, label := "", ""
	switch kind {
	case KindSlack:
		base, label = c.SlackBase, "Slack"
	case KindDiscord:
		base, label = c.DiscordBase, "Discord"
	case KindTeams:
		base, label = c.TeamsBase, "Microsoft Teams"
	}
	if base != "" && !strings.HasPrefix(raw, base) {
		return strings.Replace(strings.Replace(MsgBadChannelURL, "%s", label, 1), "%s", base, 1)
	}
	return ""
}

// target is the address a delivery to an endpoint posts to.
func (c Config) target(e Endpoint) string {
	if e.Kind == KindTelegram {
		return c.TelegramBase + "/bot" + url.PathEscape(e.URL) + "/sendMessage"
	}
	return e.URL
}

// NewSecret is a fresh signing key for a custom endpoint.
func NewSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return "whsec_" + hex.EncodeToString(b)
}

// Sign is the value of SignatureHeader for body sent at t under secret:
// "t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<unix seconds>.<body>")>".
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte("."))
	m.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(m.Sum(nil))
}
