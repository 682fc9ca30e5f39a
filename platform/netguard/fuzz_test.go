package netguard

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseURL checks that whatever ParseURL accepts is an absolute http(s) URL with a host that
// is either a standard IP literal or a name no resolver reads as IPv4 in a legacy form.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{
		"https://cdn.example.com/a.png", "http://2130706433/", "http://0x7f.0.0.1/", "http://0177.0.0.1/",
		"http://[::ffff:127.0.0.1]:80/", "http://127.1/", "http://%31%32%37.0.0.1/", "http://[fe80::1%25eth0]/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := ParseURL(raw)
		if err != nil {
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "" || u.User != nil {
			t.Fatalf("accepted %q: scheme %q host %q", raw, u.Scheme, u.Hostname())
		}
		host := u.Hostname()
		if _, err := netip.ParseAddr(host); err == nil {
			if _, ok := urlAddr(u); !ok {
				t.Fatalf("literal %q without an address", host)
			}
			return
		}
		if ip, ok := legacyIPv4(host); ok {
			t.Fatalf("accepted %q whose host %q reads as %s", raw, host, ip)
		}
		// Re-parsing what the client will send must give the same host.
		again, err := url.Parse(u.String())
		if err != nil || again.Hostname() != host {
			t.Fatalf("%q re-parses as %v, %v", u.String(), again, err)
		}
	})
}

// legacyIPv4 parses host as inet_aton and the WHATWG URL standard do: one to four parts, each
// decimal, 0x hexadecimal or 0-prefixed octal, the last filling the remaining bytes.
func legacyIPv4(host string) (netip.Addr, bool) {
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	var nums []uint64
	for _, p := range parts {
		base := 10
		switch {
		case len(p) > 1 && (p[:2] == "0x" || p[:2] == "0X"):
			p, base = p[2:], 16
			if p == "" {
				p = "0"
			}
		case len(p) > 1 && p[0] == '0':
			p, base = p[1:], 8
		}
		n, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		nums = append(nums, n)
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// FuzzCheckIP checks that no address CheckIP admits is, or carries, a non-public IPv4 address by
// the standard library's own classification.
func FuzzCheckIP(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "8.8.8.8", "::ffff:127.0.0.1", "64:ff9b::a00:1", "2002:a9fe:a9fe::", "2606:4700::1"} {
		b := netip.MustParseAddr(s).AsSlice()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ip, ok := netip.AddrFromSlice(b)
		if !ok || CheckIP(ip) != nil {
			return
		}
		for _, a := range []netip.Addr{ip, ip.Unmap()} {
			if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
				a.IsMulticast() || a.IsUnspecified() || a.IsInterfaceLocalMulticast() || !a.IsGlobalUnicast() {
				t.Fatalf("CheckIP admitted %s", a)
			}
		}
		if ip.Is4() && netip.MustParsePrefix("100.64.0.0/10").Contains(ip) {
			t.Fatalf("CheckIP admitted CGNAT %s", ip)
		}
		if ip.Is6() && !ip.Is4In6() {
			a16 := ip.As16()
			if nat64.Contains(ip) || sixToFour.Contains(ip) {
				v4 := netip.AddrFrom4([4]byte(a16[12:16]))
				if sixToFour.Contains(ip) {
					v4 = netip.AddrFrom4([4]byte(a16[2:6]))
				}
				if CheckIP(v4) != nil {
					t.Fatalf("CheckIP admitted %s carrying %s", ip, v4)
				}
			}
		}
	})
}
