package tracking

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/bff/envelope"
)

// Kinds of event.
const (
	KindClick  = "click"
	KindSubmit = "submit"
)

// Limits of a tracking payload.
const (
	MaxCampaignLength = 200
	MaxFieldLength    = 1_000
	MaxQueryKeys      = 20
)

// Messages of the checks.
const (
	MsgCampaignRequired = "The utm campaign field is required."
	MsgTooManyKeys      = "The query may hold at most 20 parameters."
)

// ClientInfo is what the browser tells about itself; the IP is added by
// the bff.
type ClientInfo struct {
	Browser      string `json:"browser"`
	Device       string `json:"device"`
	OS           string `json:"os"`
	UserAgent    string `json:"user_agent"`
	VisitorID    string `json:"visitor_id"`
	TabSessionID string `json:"tab_session_id"`
}

// Payload is the body of both track calls.
type Payload struct {
	UTMCampaign string `json:"utm_campaign"`
	// Query is the tracking query the cs_track cookie kept (utm_source, utm_medium, ...).
	Query      map[string]string `json:"query"`
	ClientInfo ClientInfo        `json:"client_info"`
}

// label turns a field name into words for a message: client_info.user_agent, "client info user agent".
var label = strings.NewReplacer("_", " ", ".", " ")

// Check trims p and returns what is wrong with it.
func Check(p *Payload) []envelope.FieldError {
	p.UTMCampaign = strings.TrimSpace(p.UTMCampaign)
	var errs []envelope.FieldError
	long := func(field, v string, limit int) {
		if utf8.RuneCountInString(v) > limit {
			errs = append(errs, envelope.TooLong(field, label.Replace(field), limit))
		}
	}
	if p.UTMCampaign == "" {
		errs = append(errs, envelope.FieldError{Field: "utm_campaign", Message: MsgCampaignRequired})
	}
	long("utm_campaign", p.UTMCampaign, MaxCampaignLength)
	if len(p.Query) > MaxQueryKeys {
		errs = append(errs, envelope.FieldError{Field: "query", Message: MsgTooManyKeys})
	}
	for k, v := range p.Query {
		long("query", k+v, MaxFieldLength)
	}
	ci := p.ClientInfo
	for _, f := range []struct{ field, v string }{
		{"client_info.browser", ci.Browser}, {"client_info.device", ci.Device}, {"client_info.os", ci.OS},
		{"client_info.user_agent", ci.UserAgent}, {"client_info.visitor_id", ci.VisitorID}, {"client_info.tab_session_id", ci.TabSessionID},
	} {
		long(f.field, f.v, MaxFieldLength)
	}
	return errs
}

// Event is one event to record.
type Event struct {
	Kind    string
	Payload Payload
	// UserID is the seller of a submit, 0 for a click.
	UserID int64
	IP     string
}

// Record stores e once: a second click of the same visitor and campaign, or a second submit of the
// same seller and campaign, is left out. It reports whether e was new.
func Record(ctx context.Context, db sqlx.ExecerContext, e Event) (bool, error) {
	const q = `
INSERT INTO utm_campaign_tracks (kind, utm_campaign, query, user_id, visitor_id, tab_session_id, browser, device, os, user_agent, ip)
VALUES ($1, $2, $3, NULLIF($4, 0), $5, $6, $7, $8, $9, $10, $11)
ON CONFLICT DO NOTHING`
	query := e.Payload.Query
	if query == nil {
		query = map[string]string{}
	}
	raw, err := json.Marshal(query)
	if err != nil {
		return false, fmt.Errorf("encode tracking query: %w", err)
	}
	ci := e.Payload.ClientInfo
	res, err := db.ExecContext(ctx, q, e.Kind, e.Payload.UTMCampaign, raw, e.UserID, ci.VisitorID, ci.TabSessionID,
		ci.Browser, ci.Device, ci.OS, ci.UserAgent, e.IP)
	if err != nil {
		return false, fmt.Errorf("record %s of %q: %w", e.Kind, e.Payload.UTMCampaign, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
