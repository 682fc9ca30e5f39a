package webhooks

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pressroom/pressroom/commerce/money"
)

// Request is one try of a delivery as it goes out.
type Request struct {
	URL    string
	Header http.Header
	Body   []byte
}

// event is what an order event's payload says, as far as the chat messages use it.
type event struct {
	Event      string `json:"event"`
	Number     any    `json:"number"` // a string in order events, kept as it comes
	Status     string `json:"status"`
	FromStatus string `json:"from_status"`
	Total      struct {
		Amount   int64  `json:"amount"`
		Currency string `json:"currency"`
	} `json:"total"`
	Shipments []struct {
		Carrier        string `json:"carrier"`
		TrackingNumber string `json:"tracking_number"`
		TrackingURL    string `json:"tracking_url"`
	} `json:"shipments"`
}

// statusLabels are the order statuses as the messages write them.
var statusLabels = map[string]string{
	"draft": "a draft", "pending_payment": "awaiting payment", "pending": "pending", "reviewing": "in design review",
	"designing": "being redesigned", "on_hold": "on hold", "processing": "in production", "completed": "completed",
	"cancelled": "cancelled", "refunded": "refunded", "archived": "archived", "deleted": "deleted",
}

func statusLabel(s string) string {
	if l, ok := statusLabels[s]; ok {
		return l
	}
	return strings.ReplaceAll(s, "_", " ")
}

// Summary is the one-line text of a delivery in the chat channels.
func Summary(typ string, payload []byte) string {
	if typ == EventTest {
		return "Test message from Pressroom: this channel receives your order notifications."
	}
	var e event
	if err := json.Unmarshal(payload, &e); err != nil {
		return "Pressroom event " + typ
	}
	number := fmt.Sprint(e.Number)
	order := "Order " + number
	switch typ {
	case "order.created":
		total := strconv.FormatInt(e.Total.Amount, 10) + " " + e.Total.Currency
		if c, err := money.ParseCurrency(e.Total.Currency); err == nil {
			total = money.Money{Amount: e.Total.Amount, Currency: c}.String()
		}
		return fmt.Sprintf("New order %s: %s", number, total)
	case "order.status_changed":
		if e.FromStatus != "" {
			return fmt.Sprintf("%s is now %s (was %s)", order, statusLabel(e.Status), statusLabel(e.FromStatus))
		}
		return fmt.Sprintf("%s is now %s", order, statusLabel(e.Status))
	case "order.tracking_changed":
		var parts []string
		for _, s := range e.Shipments {
			p := strings.TrimSpace(s.Carrier + " " + s.TrackingNumber)
			if s.TrackingURL != "" {
				p += " (" + s.TrackingURL + ")"
			}
			parts = append(parts, p)
		}
		if len(parts) == 0 {
			return order + ": tracking changed"
		}
		return order + " tracking: " + strings.Join(parts, ", ")
	}
	return order + ": " + typ
}

// Build is the request of one try of d to e at t: the event itself, signed, for custom endpoints;
// each chat channel's own message format for the others.
func (c Config) Build(e Endpoint, d Delivery, t time.Time) (Request, error) {
	h := http.Header{"Content-Type": {"application/json"}, "User-Agent": {"Pressroom-Webhooks/1"}}
	var body any
	text := Summary(d.EventType, d.Payload)
	switch e.Kind {
	case KindCustom:
		id := "test_" + strconv.FormatInt(d.ID, 10)
		if d.EventID != nil {
			id = "evt_" + strconv.FormatInt(*d.EventID, 10)
		}
		b, err := json.Marshal(map[string]any{"id": id, "type": d.EventType, "created_at": d.CreatedAt.UTC().Format(time.RFC3339),
			"data": json.RawMessage(d.Payload)})
		if err != nil {
			return Request{}, err
		}
		h.Set(EventHeader, d.EventType)
		h.Set(EventIDHeader, id)
		h.Set(SignatureHeader, Sign(e.Secret, t, b))
		return Request{URL: c.target(e), Header: h, Body: b}, nil
	case KindSlack:
		body = map[string]any{"text": text}
	case KindDiscord:
		body = map[string]any{"content": text, "allowed_mentions": map[string]any{"parse": []string{}}}
	case KindTeams:
		body = map[string]any{"@type": "MessageCard", "@context": "https://schema.org/extensions", "summary": text,
			"themeColor": "1C7ED6", "title": "Pressroom", "text": text}
	case KindTelegram:
		body = map[string]any{"chat_id": e.ChatID, "text": text, "disable_web_page_preview": true}
	default:
		return Request{}, fmt.Errorf("webhooks: unknown kind %q", e.Kind)
	}
	b, err := json.Marshal(body)
	if err != nil {
		return Request{}, err
	}
	return Request{URL: c.target(e), Header: h, Body: b}, nil
}
