package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/env"
)

// Email providers (smtp, mailgun, ses). Mailgun and Amazon SES are reached through
// their SMTP endpoints with the account's SMTP credentials, so one delivery path serves all three.
const (
	ProviderSMTP    = "smtp"
	ProviderMailgun = "mailgun"
	ProviderSES     = "ses"
)

// Config says where mail goes.
type Config struct {
	// Provider is the e-mail provider (PRESSROOM_MAIL_PROVIDER: smtp, the default, mailgun or ses). For
	// mailgun and ses, Host defaults to the provider's SMTP endpoint (ses in PRESSROOM_SES_REGION) and
	// Username and Password are required.
	Provider string
	// Region is the Amazon SES region (PRESSROOM_SES_REGION), for Provider ses.
	Region string
	// Host is the SMTP server (PRESSROOM_SMTP_HOST, default empty for smtp: messages go to the local outbox).
	Host string
	// Port is the SMTP port (PRESSROOM_SMTP_PORT, default 587); STARTTLS is used when the server offers it.
	Port int
	// Username and Password authenticate to the server (PRESSROOM_SMTP_USERNAME, PRESSROOM_SMTP_PASSWORD,
	// default empty: no authentication).
	Username, Password string
	// From is the sender address (PRESSROOM_SMTP_FROM, default "Pressroom <no-reply@pressroom.local>").
	From string
	// Timeout bounds one delivery (PRESSROOM_SMTP_TIMEOUT, default 10s).
	Timeout time.Duration
	// AllowOutbox lets a production deployment run without an SMTP server, keeping every message in
	// the local outbox (PRESSROOM_MAIL_ALLOW_OUTBOX, default false: production needs PRESSROOM_SMTP_HOST).
	AllowOutbox bool
	// OutboxShowLinks shows the tokens of links in the admin's view of the local outbox
	// (PRESSROOM_MAIL_OUTBOX_SHOW_LINKS, default false: they read [hidden]; refused in production).
	// Development and the test stack turn it on, where the outbox is the only inbox.
	OutboxShowLinks bool
}

// DefaultConfig keeps every message in the local outbox.
func DefaultConfig() Config {
	return Config{Provider: ProviderSMTP, Port: 587, From: "Pressroom <no-reply@pressroom.local>", Timeout: 10 * time.Second}
}

// LoadConfig reads the PRESSROOM_SMTP_* variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.Provider, "PRESSROOM_MAIL_PROVIDER")
	r.String(&cfg.Region, "PRESSROOM_SES_REGION")
	r.String(&cfg.Host, "PRESSROOM_SMTP_HOST")
	r.Int(&cfg.Port, "PRESSROOM_SMTP_PORT")
	r.String(&cfg.Username, "PRESSROOM_SMTP_USERNAME")
	r.String(&cfg.Password, "PRESSROOM_SMTP_PASSWORD")
	r.String(&cfg.From, "PRESSROOM_SMTP_FROM")
	r.Duration(&cfg.Timeout, "PRESSROOM_SMTP_TIMEOUT")
	r.Bool(&cfg.AllowOutbox, "PRESSROOM_MAIL_ALLOW_OUTBOX")
	r.Bool(&cfg.OutboxShowLinks, "PRESSROOM_MAIL_OUTBOX_SHOW_LINKS")
	if cfg.Host == "" {
		switch cfg.Provider {
		case ProviderMailgun:
			cfg.Host = "smtp.mailgun.org"
		case ProviderSES:
			if cfg.Region != "" {
				cfg.Host = "email-smtp." + cfg.Region + ".amazonaws.com"
			}
		}
	}
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work, naming its variable.
func (c Config) Validate() error {
	switch {
	case c.Provider != ProviderSMTP && c.Provider != ProviderMailgun && c.Provider != ProviderSES:
		return fmt.Errorf("PRESSROOM_MAIL_PROVIDER=%q: want smtp, mailgun or ses", c.Provider)
	case c.Provider == ProviderSES && c.Host == "":
		return errors.New("PRESSROOM_SES_REGION: want the Amazon SES region, e.g. eu-west-1 (or set PRESSROOM_SMTP_HOST)")
	case c.Provider != ProviderSMTP && (c.Username == "" || c.Password == ""):
		return fmt.Errorf("PRESSROOM_SMTP_USERNAME and PRESSROOM_SMTP_PASSWORD: %s needs its SMTP credentials", c.Provider)
	case c.Port < 1 || c.Port > 65535:
		return errors.New("PRESSROOM_SMTP_PORT: want 1 to 65535")
	case c.Timeout <= 0:
		return errors.New("PRESSROOM_SMTP_TIMEOUT must be positive")
	}
	if _, err := mail.ParseAddress(c.From); err != nil {
		return fmt.Errorf("PRESSROOM_SMTP_FROM=%q: want an address such as \"Pressroom <no-reply@example.com>\"", c.From)
	}
	return nil
}

// CheckProduction refuses what a production deployment must not run with: no SMTP server (every
// reset link would sit in the outbox) unless AllowOutbox says so, and live links shown in the outbox.
func (c Config) CheckProduction() error {
	switch {
	case c.Host == "" && !c.AllowOutbox:
		return errors.New("PRESSROOM_SMTP_HOST: production needs an SMTP server (or PRESSROOM_MAIL_ALLOW_OUTBOX=true to keep mail in the local outbox)")
	case c.OutboxShowLinks:
		return errors.New("PRESSROOM_MAIL_OUTBOX_SHOW_LINKS must not be set in production")
	}
	return nil
}

// Message is one e-mail: plain text, or text and HTML alternatives.
type Message struct {
	To      string
	Subject string
	// Body is the text; the local outbox keeps it.
	Body string
	// HTML, when set, goes with Body as multipart/alternative (mail clients show it, Body is the fallback).
	HTML string
	// From, when set, is the From header (a store's sender on its verified domain); otherwise the
	// configured PRESSROOM_SMTP_FROM, named FromName when that is set. The envelope sender stays the
	// configured address, which receives the bounces.
	From     string
	FromName string
	// ReplyTo, when set, is where replies go (a store's sender whose domain is not verified).
	ReplyTo string
}

// Mailer delivers messages.
type Mailer struct {
	cfg Config
	db  *sqlx.DB
}

// New validates cfg and builds a Mailer; db holds the local outbox.
func New(cfg Config, db *sqlx.DB) (*Mailer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Mailer{cfg: cfg, db: db}, nil
}

// Local reports whether messages stay in the local outbox (no SMTP server configured).
func (m *Mailer) Local() bool { return m.cfg.Host == "" }

// Send delivers msg by SMTP, or stores it in the local outbox when no server is configured.
func (m *Mailer) Send(ctx context.Context, msg Message) error {
	if strings.ContainsAny(msg.To+msg.Subject+msg.From+msg.FromName+msg.ReplyTo, "\r\n") {
		return errors.New("mail: header values must not contain line breaks")
	}
	for _, a := range []string{msg.From, msg.ReplyTo} {
		if _, err := mail.ParseAddress(a); a != "" && err != nil {
			return fmt.Errorf("mail: address %q: %w", a, err)
		}
	}
	if m.Local() {
		const q = `INSERT INTO mail_outbox (to_address, subject, body) VALUES ($1, $2, $3)`
		if _, err := m.db.ExecContext(ctx, q, msg.To, msg.Subject, msg.Body); err != nil {
			return fmt.Errorf("store mail in the outbox: %w", err)
		}
		return nil
	}
	return m.sendSMTP(ctx, msg)
}

func (m *Mailer) sendSMTP(ctx context.Context, msg Message) error {
	from, _ := mail.ParseAddress(m.cfg.From)
	addr := net.JoinHostPort(m.cfg.Host, strconv.Itoa(m.cfg.Port))
	ctx, cancel := context.WithTimeout(ctx, m.cfg.Timeout)
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("smtp dial %s: %w", addr, err)
	}
	deadline, _ := ctx.Deadline()
	conn.SetDeadline(deadline)
	c, err := smtp.NewClient(conn, m.cfg.Host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("smtp hello: %w", err)
	}
	defer c.Close()
	if ok, _ := c.Extension("STARTTLS"); ok {
		if err := c.StartTLS(tlsConfig(m.cfg.Host)); err != nil {
			return fmt.Errorf("smtp starttls: %w", err)
		}
	}
	if m.cfg.Username != "" {
		if err := c.Auth(smtp.PlainAuth("", m.cfg.Username, m.cfg.Password, m.cfg.Host)); err != nil {
			return fmt.Errorf("smtp auth: %w", err)
		}
	}
	if err := c.Mail(from.Address); err != nil {
		return fmt.Errorf("smtp from: %w", err)
	}
	if err := c.Rcpt(msg.To); err != nil {
		return fmt.Errorf("smtp to: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("smtp data: %w", err)
	}
	data, err := compose(*from, msg, time.Now())
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("smtp write: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("smtp data end: %w", err)
	}
	return c.Quit()
}

// compose is msg as SMTP DATA from the configured sender: headers, then the text alone or the text
// and HTML alternatives, each quoted-printable so no line outgrows SMTP's limit.
func compose(configured mail.Address, msg Message, now time.Time) ([]byte, error) {
	from := configured
	if msg.FromName != "" {
		from.Name = msg.FromName
	}
	fromHeader := from.String()
	if msg.From != "" {
		a, _ := mail.ParseAddress(msg.From)
		fromHeader = a.String()
	}
	var b bytes.Buffer
	b.WriteString("From: " + fromHeader + "\r\nTo: " + msg.To + "\r\nSubject: " + mime.QEncoding.Encode("utf-8", msg.Subject) +
		"\r\nDate: " + now.Format(time.RFC1123Z) + "\r\nMIME-Version: 1.0\r\n")
	if msg.ReplyTo != "" {
		a, _ := mail.ParseAddress(msg.ReplyTo)
		b.WriteString("Reply-To: " + a.String() + "\r\n")
	}
	if msg.HTML == "" {
		b.WriteString("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n")
		if err := writeQP(&b, msg.Body); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	parts := multipart.NewWriter(&b)
	b.WriteString("Content-Type: multipart/alternative; boundary=" + parts.Boundary() + "\r\n\r\n")
	for _, p := range []struct{ contentType, text string }{{"text/plain", msg.Body}, {"text/html", msg.HTML}} {
		w, err := parts.CreatePart(textproto.MIMEHeader{
			"Content-Type": {p.contentType + "; charset=utf-8"}, "Content-Transfer-Encoding": {"quoted-printable"},
		})
		if err != nil {
			return nil, err
		}
		if err := writeQP(w, p.text); err != nil {
			return nil, err
		}
	}
	if err := parts.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeQP writes text quoted-printable with CRLF line ends.
func writeQP(w io.Writer, text string) error {
	qp := quotedprintable.NewWriter(w)
	if _, err := qp.Write([]byte(strings.ReplaceAll(text, "\r\n", "\n"))); err != nil {
		return err
	}
	return qp.Close()
}

// Stored is one message of the local outbox.
type Stored struct {
	ID        int64     `db:"id" json:"id"`
	To        string    `db:"to_address" json:"to"`
	Subject   string    `db:"subject" json:"subject"`
	Body      string    `db:"body" json:"body"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
}

// ListOutbox returns a page of the local outbox, newest first, filtered by recipient or subject
// containing q, and the total count.
func ListOutbox(ctx context.Context, db *sqlx.DB, q string, limit, offset int) ([]Stored, int, error) {
	const list = `
SELECT id, to_address, subject, body, created_at FROM mail_outbox
WHERE $1 = '' OR to_address ILIKE '%' || $1 || '%' OR subject ILIKE '%' || $1 || '%'
ORDER BY id DESC LIMIT $2 OFFSET $3`
	const count = `
SELECT count(*) FROM mail_outbox
WHERE $1 = '' OR to_address ILIKE '%' || $1 || '%' OR subject ILIKE '%' || $1 || '%'`
	var out []Stored
	if err := sqlx.SelectContext(ctx, db, &out, list, q, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("list mail outbox: %w", err)
	}
	var total int
	if err := sqlx.GetContext(ctx, db, &total, count, q); err != nil {
		return nil, 0, fmt.Errorf("count mail outbox: %w", err)
	}
	return out, total, nil
}
