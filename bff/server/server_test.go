package server

import (
	"bufio"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

// serve runs the bff's server with cfg on a loopback port, with two routes that read their body:
// /api/echo (an ordinary route) and /blobs/* (a transfer route).
func serve(t *testing.T, cfg Config) string {
	t.Helper()
	cfg.UIDir = ""
	cfg.BodyLimitExempt = []string{"/blobs/*"}
	read := func(c echo.Context) error {
		b, err := io.ReadAll(c.Request().Body)
		if err != nil {
			return err
		}
		return c.String(http.StatusOK, strconv.Itoa(len(b)))
	}
	e, err := New(cfg, slog.New(slog.DiscardHandler), func(e *echo.Echo) {
		e.PUT("/api/echo", read)
		e.PUT("/blobs/*", read)
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httpServer(cfg, e)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// closedByServer reports whether the server ends the connection (closing it, or answering and
// closing) within wait, which is far above the timeouts under test: the client only waits.
func closedByServer(t *testing.T, conn net.Conn, wait time.Duration) bool {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(wait))
	_, err := io.ReadAll(conn)
	return !errors.Is(err, os.ErrDeadlineExceeded)
}

func shortTimeouts() Config {
	cfg := DefaultConfig()
	cfg.ReadHeaderTimeout, cfg.ReadTimeout, cfg.WriteTimeout = 200*time.Millisecond, 300*time.Millisecond, time.Second
	cfg.TransferTimeout = time.Minute
	return cfg
}

func TestSlowClientsAreCutOff(t *testing.T) {
	addr := serve(t, shortTimeouts())
	cases := []struct {
		name    string
		request string
	}{
		{"headers never finished", "PUT /api/echo HTTP/1.1\r\nHost: x\r\n"},
		{"body never finished", "PUT /api/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, c.request); err != nil {
				t.Fatal(err)
			}
			if !closedByServer(t, conn, 5*time.Second) {
				t.Fatal("the server still holds the connection of a client that stopped sending")
			}
		})
	}
}

// A transfer route reads a body that takes longer than the read timeout to arrive.
func TestTransferRoutesOutlastTheReadTimeout(t *testing.T) {
	cfg := shortTimeouts()
	addr := serve(t, cfg)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const pieces, piece = 6, "0123456789"
	io.WriteString(conn, "PUT /blobs/u/1/a.png HTTP/1.1\r\nHost: x\r\nContent-Length: "+strconv.Itoa(pieces*len(piece))+"\r\n\r\n")
	for range pieces {
		// In all, twice the read timeout.
		time.Sleep(cfg.ReadTimeout / 3)
		if _, err := io.WriteString(conn, piece); err != nil {
			t.Fatalf("the server closed a transfer within its read timeout: %v", err)
		}
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || strings.TrimSpace(string(b)) != strconv.Itoa(pieces*len(piece)) {
		t.Fatalf("slow transfer = %d %q", res.StatusCode, b)
	}
}

func TestConfigTimeouts(t *testing.T) {
	for _, v := range []string{"PRESSROOM_HTTP_READ_TIMEOUT", "PRESSROOM_HTTP_WRITE_TIMEOUT", "PRESSROOM_HTTP_TRANSFER_TIMEOUT"} {
		cfg, err := LoadConfig(func(k string) (string, bool) {
			if k == v {
				return "0s", true
			}
			return "", false
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), v) {
			t.Errorf("%s=0s: Validate = %v, want an error naming it", v, err)
		}
	}
}
