package mail

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"mime"
	"mime/multipart"
	"net"
	stdmail "net/mail"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/testinfra"
)

// smtpSink is a minimal SMTP server that records one message's envelope and data.
type smtpSink struct {
	ln   net.Listener
	got  chan string
	from string
	to   string
}

func newSink(t *testing.T) *smtpSink {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &smtpSink{ln: ln, got: make(chan string, 1)}
	t.Cleanup(func() { ln.Close() })
	go s.serve()
	return s
}

func (s *smtpSink) serve() {
	conn, err := s.ln.Accept()
	if err != nil {
		return
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	reply := func(line string) { conn.Write([]byte(line + "\r\n")) }
	reply("220 sink ready")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "HELO"):
			reply("250 sink")
		case strings.HasPrefix(cmd, "MAIL FROM:"):
			s.from = strings.TrimSpace(line[len("MAIL FROM:"):])
			reply("250 ok")
		case strings.HasPrefix(cmd, "RCPT TO:"):
			s.to = strings.TrimSpace(line[len("RCPT TO:"):])
			reply("250 ok")
		case cmd == "DATA":
			reply("354 go on")
			var data strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil || l == ".\r\n" {
					break
				}
				data.WriteString(l)
			}
			s.got <- data.String()
			reply("250 queued")
		case cmd == "QUIT":
			reply("221 bye")
			return
		default:
			reply("250 ok")
		}
	}
}

func TestSendsThroughSMTPWhenConfigured(t *testing.T) {
	sink := newSink(t)
	host, port, _ := net.SplitHostPort(sink.ln.Addr().String())
	cfg, err := LoadConfig(env.Map(map[string]string{
		"PRESSROOM_SMTP_HOST": host, "PRESSROOM_SMTP_PORT": port, "PRESSROOM_SMTP_FROM": "Pressroom <no-reply@example.com>",
	}))
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Local() {
		t.Fatal("a configured server must be used")
	}
	msg := Message{To: "seller@example.com", Subject: "Reset your password", Body: "line one\nline two\n"}
	if err := m.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	select {
	case data := <-sink.got:
		for _, want := range []string{"Subject: Reset your password\r\n", "To: seller@example.com\r\n", "line one\r\nline two\r\n"} {
			if !strings.Contains(data, want) {
				t.Errorf("message lacks %q:\n%s", want, data)
			}
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no message reached the server")
	}
	if sink.from != "<no-reply@example.com>" || sink.to != "<seller@example.com>" {
		t.Fatalf("envelope from %s to %s", sink.from, sink.to)
	}
}

func TestKeepsMessagesInTheOutboxWithoutSMTP(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	m, err := New(DefaultConfig(), db)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := m.Send(context.Background(), Message{To: "a" + strconv.Itoa(i) + "@example.com", Subject: "Hello", Body: "b"}); err != nil {
			t.Fatal(err)
		}
	}
	got, total, err := ListOutbox(context.Background(), db, "a2@", 15, 0)
	if err != nil || total != 1 || len(got) != 1 || got[0].To != "a2@example.com" {
		t.Fatalf("outbox = %+v, %d, %v", got, total, err)
	}
	if _, total, _ := ListOutbox(context.Background(), db, "", 2, 0); total != 3 {
		t.Fatalf("total = %d", total)
	}
	if err := m.Send(context.Background(), Message{To: "x@example.com\r\nBcc: y@example.com", Subject: "s"}); err == nil {
		t.Fatal("header injection must be refused")
	}
}

func TestConfigNamesTheVariable(t *testing.T) {
	for _, tt := range []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{"PRESSROOM_SMTP_PORT": "70000"}, "PRESSROOM_SMTP_PORT"},
		{map[string]string{"PRESSROOM_SMTP_FROM": "nobody"}, "PRESSROOM_SMTP_FROM"},
		{map[string]string{"PRESSROOM_SMTP_TIMEOUT": "soon"}, "PRESSROOM_SMTP_TIMEOUT"},
		{map[string]string{"PRESSROOM_MAIL_PROVIDER": "postmark"}, "PRESSROOM_MAIL_PROVIDER"},
		{map[string]string{"PRESSROOM_MAIL_PROVIDER": "ses", "PRESSROOM_SMTP_USERNAME": "u", "PRESSROOM_SMTP_PASSWORD": "p"}, "PRESSROOM_SES_REGION"},
		{map[string]string{"PRESSROOM_MAIL_PROVIDER": "mailgun"}, "PRESSROOM_SMTP_PASSWORD"},
	} {
		cfg, err := LoadConfig(env.Map(tt.vars))
		if err == nil {
			err = cfg.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want naming %s", tt.vars, err, tt.want)
		}
	}
}

// TestProviders: mailgun and ses reach their SMTP endpoints; smtp without a host keeps the outbox.
func TestProviders(t *testing.T) {
	creds := map[string]string{"PRESSROOM_SMTP_USERNAME": "postmaster@mg.example", "PRESSROOM_SMTP_PASSWORD": "secret"}
	for _, tt := range []struct {
		vars map[string]string
		host string
	}{
		{map[string]string{}, ""},
		{map[string]string{"PRESSROOM_MAIL_PROVIDER": "mailgun"}, "smtp.mailgun.org"},
		{map[string]string{"PRESSROOM_MAIL_PROVIDER": "ses", "PRESSROOM_SES_REGION": "eu-west-1"}, "email-smtp.eu-west-1.amazonaws.com"},
		{map[string]string{"PRESSROOM_MAIL_PROVIDER": "ses", "PRESSROOM_SMTP_HOST": "vpce.example"}, "vpce.example"},
	} {
		vars := map[string]string{}
		for k, v := range creds {
			vars[k] = v
		}
		for k, v := range tt.vars {
			vars[k] = v
		}
		cfg, err := LoadConfig(env.Map(vars))
		if err == nil {
			err = cfg.Validate()
		}
		if err != nil || cfg.Host != tt.host {
			t.Errorf("%v: host %q (%v), want %q", tt.vars, cfg.Host, err, tt.host)
		}
	}
}

// TestComposesHTMLAndTheSender: a campaign mail carries text and HTML alternatives, each
// quoted-printable (a 2,000-character line stays under SMTP's limit), the store's sender as From
// or its name with Reply-To, and the parts decode back to what was sent.
func TestComposesHTMLAndTheSender(t *testing.T) {
	configured := stdmail.Address{Name: "Pressroom", Address: "no-reply@example.com"}
	long := strings.Repeat("é", 2000)
	html := `<p style="color:#e03131">Sale ` + long + `</p>`
	data, err := compose(configured, Message{To: "b@example.com", Subject: "Sale", Body: "Sale " + long, HTML: html,
		FromName: "Acme Shop", ReplyTo: "hello@acme.example"}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	msg, err := stdmail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got := msg.Header.Get("From"); got != `"Acme Shop" <no-reply@example.com>` {
		t.Errorf("From = %q", got)
	}
	if got := msg.Header.Get("Reply-To"); got != "<hello@acme.example>" {
		t.Errorf("Reply-To = %q", got)
	}
	for _, line := range strings.Split(string(data), "\r\n") {
		if len(line) > 998 {
			t.Fatalf("a line of %d bytes", len(line))
		}
	}
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/alternative" {
		t.Fatalf("Content-Type %q (%v)", msg.Header.Get("Content-Type"), err)
	}
	parts := multipart.NewReader(msg.Body, params["boundary"])
	for _, want := range []struct{ contentType, body string }{{"text/plain; charset=utf-8", "Sale " + long}, {"text/html; charset=utf-8", html}} {
		p, err := parts.NextPart() // decodes quoted-printable
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(p)
		if p.Header.Get("Content-Type") != want.contentType || string(body) != want.body {
			t.Errorf("part %s = %q", p.Header.Get("Content-Type"), body)
		}
	}

	// A sender on a verified domain is the From itself.
	data, err = compose(configured, Message{To: "b@example.com", Subject: "s", Body: "b", From: `"Acme Shop" <news@acme.example>`}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if msg, _ := stdmail.ReadMessage(bytes.NewReader(data)); msg.Header.Get("From") != `"Acme Shop" <news@acme.example>` || msg.Header.Get("Reply-To") != "" {
		t.Errorf("headers %v", msg.Header)
	}
	if err := (&Mailer{}).Send(context.Background(), Message{To: "b@example.com", Subject: "s", ReplyTo: "not an address"}); err == nil {
		t.Error("a bad Reply-To must be refused")
	}
}
