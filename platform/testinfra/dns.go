package testinfra

import (
	"errors"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/miekg/dns"
)

// DNSServer is a DNS server on loopback for tests of what checks DNS records: it answers TXT
// queries from its own records over UDP, in the real wire protocol. A name it holds no records for
// answers NXDOMAIN; any other query type of a name it knows answers with no records.
type DNSServer struct {
	// Addr is where it listens, host:port (the value of PRESSROOM_DNS_RESOLVER).
	Addr string
	srv  *dns.Server
	mu   sync.RWMutex
	txt  map[string][]string // by lower-case name without the trailing dot
}

// StartDNS serves on addr ("127.0.0.1:0" picks a free port) until Close.
func StartDNS(addr string) (*DNSServer, error) {
	pc, err := net.ListenPacket("udp", addr)
	if err != nil {
		return nil, err
	}
	s := &DNSServer{Addr: pc.LocalAddr().String(), txt: map[string][]string{}}
	started := make(chan struct{})
	s.srv = &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(s.answer), NotifyStartedFunc: func() { close(started) }}
	failed := make(chan error, 1)
	go func() { failed <- s.srv.ActivateAndServe() }()
	select {
	case <-started:
		return s, nil
	case err := <-failed:
		return nil, errors.Join(errors.New("dns server did not start"), err)
	}
}

// DNS starts a DNSServer on a free loopback port, closed when the test ends.
func DNS(t testing.TB) *DNSServer {
	t.Helper()
	s, err := StartDNS("127.0.0.1:0")
	if err != nil {
		t.Fatalf("start dns server: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// SetTXT makes name answer with one TXT record per value; no values removes name.
func (s *DNSServer) SetTXT(name string, values ...string) {
	name = strings.ToLower(strings.TrimSuffix(name, "."))
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(values) == 0 {
		delete(s.txt, name)
		return
	}
	s.txt[name] = append([]string(nil), values...)
}

// Close stops serving.
func (s *DNSServer) Close() error { return s.srv.Shutdown() }

func (s *DNSServer) answer(w dns.ResponseWriter, req *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(req)
	m.Authoritative = true
	if len(req.Question) != 1 {
		m.Rcode = dns.RcodeFormatError
		w.WriteMsg(m)
		return
	}
	q := req.Question[0]
	s.mu.RLock()
	values, ok := s.txt[strings.ToLower(strings.TrimSuffix(q.Name, "."))]
	s.mu.RUnlock()
	switch {
	case !ok:
		m.Rcode = dns.RcodeNameError
	case q.Qtype == dns.TypeTXT || q.Qtype == dns.TypeANY:
		for _, v := range values {
			m.Answer = append(m.Answer, &dns.TXT{
				Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: 0},
				Txt: splitTXT(v),
			})
		}
	}
	w.WriteMsg(m)
}

// splitTXT cuts a value into the 255-byte character-strings a TXT record is made of.
func splitTXT(v string) []string {
	var out []string
	for len(v) > 255 {
		out = append(out, v[:255])
		v = v[255:]
	}
	return append(out, v)
}
