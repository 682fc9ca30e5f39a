package netguard

import (
	"errors"
	"net/netip"
	"testing"
)

func TestCheckIP(t *testing.T) {
	tests := []struct {
		ip      string
		allowed bool
	}{
		{"8.8.8.8", true},
		{"1.1.1.1", true},
		{"93.184.216.34", true},
		{"2606:4700:4700::1111", true},
		{"64:ff9b::808:808", true}, // NAT64 of 8.8.8.8
		{"2002:808:808::1", true},  // 6to4 of 8.8.8.8
		{"::ffff:8.8.8.8", true},
		{"127.0.0.1", false},
		{"127.255.255.254", false},
		{"0.0.0.0", false},
		{"0.1.2.3", false},
		{"10.0.0.1", false},
		{"172.16.0.1", false},
		{"172.31.255.255", false},
		{"192.168.0.1", false},
		{"100.64.0.1", false},
		{"100.127.255.255", false},
		{"169.254.169.254", false},
		{"192.0.0.170", false},
		{"192.0.2.1", false},
		{"198.18.0.1", false},
		{"198.51.100.7", false},
		{"203.0.113.9", false},
		{"224.0.0.251", false},
		{"239.255.255.250", false},
		{"240.0.0.1", false},
		{"255.255.255.255", false},
		{"::", false},
		{"::1", false},
		{"::ffff:127.0.0.1", false},
		{"::ffff:10.0.0.1", false},
		{"::ffff:169.254.169.254", false},
		{"::127.0.0.1", false},
		{"::8.8.8.8", false}, // IPv4-compatible is deprecated: refused whatever it carries
		{"64:ff9b::7f00:1", false},
		{"64:ff9b::a9fe:a9fe", false},
		{"64:ff9b:1::1", false},
		{"2002:7f00:1::1", false},
		{"2002:a00:1::1", false},
		{"2001::1", false},     // Teredo
		{"2001:db8::1", false}, // documentation
		{"3fff::1", false},
		{"fc00::1", false},
		{"fd12:3456::1", false},
		{"fe80::1", false},
		{"fe80::1%eth0", false},
		{"fec0::1", false},
		{"ff02::1", false},
		{"100::1", false},
		{"::ffff:0:7f00:1", false}, // SIIT translated form, outside 2000::/3
	}
	for _, tc := range tests {
		t.Run(tc.ip, func(t *testing.T) {
			err := CheckIP(netip.MustParseAddr(tc.ip))
			if (err == nil) != tc.allowed {
				t.Fatalf("CheckIP(%s) = %v, want allowed %v", tc.ip, err, tc.allowed)
			}
			var ae *AddrError
			if err != nil && !errors.As(err, &ae) {
				t.Errorf("error %T, want *AddrError", err)
			}
		})
	}
	if CheckIP(netip.Addr{}) == nil {
		t.Error("zero Addr allowed")
	}
}

func TestCheckAddrPorts(t *testing.T) {
	tests := []struct {
		addr    string
		anyPort bool
		allowed bool
	}{
		{"8.8.8.8:80", false, true},
		{"8.8.8.8:443", false, true},
		{"8.8.8.8:22", false, false},
		{"8.8.8.8:6379", false, false},
		{"8.8.8.8:6379", true, true},
		{"127.0.0.1:80", true, false},
	}
	for _, tc := range tests {
		t.Run(tc.addr, func(t *testing.T) {
			if err := CheckAddr(netip.MustParseAddrPort(tc.addr), tc.anyPort); (err == nil) != tc.allowed {
				t.Fatalf("CheckAddr = %v, want allowed %v", err, tc.allowed)
			}
		})
	}
}

func TestParseURL(t *testing.T) {
	tests := []struct {
		raw  string
		want string // "ok", "bad" (ErrBadURL) or "addr" (*AddrError)
	}{
		{"https://cdn.example.com/a.png", "ok"},
		{"http://cdn.example.com:8080/a.png?x=1#f", "ok"},
		{"http://8.8.8.8/a.png", "ok"}, // literals are checked by Policy.CheckURL
		{"http://[2606:4700::1]/a.png", "ok"},
		{"http://xn--bcher-kva.example/a.png", "ok"},
		{"ftp://cdn.example.com/a.png", "bad"},
		{"file:///etc/passwd", "bad"},
		{"//cdn.example.com/a.png", "bad"},
		{"/local.png", "bad"},
		{"http:///a.png", "bad"},
		{"http://user:pw@cdn.example.com/", "bad"},
		{"http:cdn.example.com", "bad"},
		{"http://cdn.example.com:99999/", "bad"},
		{"http://cdn.example.com:0/", "bad"},
		{"http://[::1/", "bad"},
		{"http://a b.example/", "bad"},
		{"http://2130706433/", "addr"},
		{"http://0x7f.0.0.1/", "addr"},
		{"http://0x7F000001/", "addr"},
		{"http://0177.0.0.1/", "addr"},
		{"http://127.1/", "addr"},
		{"http://1.2.3.4.5/", "addr"},
		{"http://127.0.0.1./", "addr"},
		{"http://example.123/", "addr"},
	}
	for _, tc := range tests {
		t.Run(tc.raw, func(t *testing.T) {
			_, err := ParseURL(tc.raw)
			var ae *AddrError
			got := "ok"
			switch {
			case errors.As(err, &ae):
				got = "addr"
			case errors.Is(err, ErrBadURL):
				got = "bad"
			case err != nil:
				t.Fatalf("unexpected error kind %v", err)
			}
			if got != tc.want {
				t.Fatalf("ParseURL(%q) = %v (%s), want %s", tc.raw, err, got, tc.want)
			}
		})
	}
}
