package main

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/pressroom/pressroom/platform/testinfra"
)

// run serves DNS on dnsAddr and the record-setting HTTP API on control until ctx ends.
func run(ctx context.Context, dnsAddr, control string) error {
	dns, err := testinfra.StartDNS(dnsAddr)
	if err != nil {
		return err
	}
	defer dns.Close()
	ln, err := net.Listen("tcp", control)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: handler(dns), ReadHeaderTimeout: 5 * time.Second}
	log.Printf("testdns: dns on %s (udp), control on http://%s", dns.Addr, ln.Addr())
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Printf("testdns: stopped")
	return nil
}

func handler(dns *testinfra.DNSServer) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
	mux.HandleFunc("PUT /txt/{name}", func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(io.LimitReader(r.Body, 4096))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		dns.SetTXT(r.PathValue("name"), strings.TrimSpace(string(b)))
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("DELETE /txt/{name}", func(w http.ResponseWriter, r *http.Request) {
		dns.SetTXT(r.PathValue("name"))
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}
