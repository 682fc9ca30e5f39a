package netguard

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// AddrError is a refusal of an address a guarded client must not reach. Reason is for logs; users see
// MsgForbiddenAddr.
type AddrError struct {
	Addr   string
	Reason string
}

func (e *AddrError) Error() string {
	return fmt.Sprintf("netguard: address %s refused: %s", e.Addr, e.Reason)
}

// ErrBadURL is returned for addresses that are not absolute http or https URLs with a host.
var ErrBadURL = errors.New("netguard: not an absolute http or https url")

func refuse(addr, reason string) error { return &AddrError{Addr: addr, Reason: reason} }

// Prefixes that are never public, whatever else is said of them. Where a range is also caught by a
// netip method it is listed anyway, so the table reads as the whole policy.
var (
	deniedV4 = prefixes(
		"0.0.0.0/8",       // "this network", unspecified
		"10.0.0.0/8",      // RFC 1918
		"100.64.0.0/10",   // CGNAT, RFC 6598
		"127.0.0.0/8",     // loopback
		"169.254.0.0/16",  // link-local, cloud metadata (169.254.169.254)
		"172.16.0.0/12",   // RFC 1918
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // TEST-NET-1
		"192.88.99.0/24",  // 6to4 relay anycast
		"192.168.0.0/16",  // RFC 1918
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // TEST-NET-2
		"203.0.113.0/24",  // TEST-NET-3
		"224.0.0.0/4",     // multicast
		"240.0.0.0/4",     // reserved, and 255.255.255.255 broadcast
	)
	deniedV6 = prefixes(
		"::/96",          // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
		"64:ff9b:1::/48", // local-use NAT64, RFC 8215
		"100::/64",       // discard
		"2001::/23",      // IETF protocol assignments, Teredo (2001::/32), benchmarking, ORCHID
		"2001:db8::/32",  // documentation
		"3fff::/20",      // documentation, RFC 9637
		"5f00::/16",      // SRv6 SIDs
		"fc00::/7",       // unique local
		"fe80::/10",      // link-local
		"fec0::/10",      // site-local, deprecated
		"ff00::/8",       // multicast
	)
	globalV6  = netip.MustParsePrefix("2000::/3")
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

func prefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// CheckIP refuses every address that is not public unicast: loopback, private, link-local,
// CGNAT, unspecified, multicast, broadcast, documentation and reserved ranges, in IPv4 and IPv6,
// and IPv6 forms carrying such an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4).
// Addresses with a zone are refused. IPv6 must be global unicast (2000::/3) or NAT64 of a public
// IPv4 address.
func CheckIP(ip netip.Addr) error {
	if !ip.IsValid() {
		return refuse("invalid", "not an IP address")
	}
	s := ip.String()
	if ip.Zone() != "" {
		return refuse(s, "scoped address")
	}
	if ip.Is4In6() {
		return checkEmbedded(s, ip.Unmap(), "IPv4-mapped")
	}
	if ip.Is4() {
		for _, p := range deniedV4 {
			if p.Contains(ip) {
				return refuse(s, "non-public IPv4 range "+p.String())
			}
		}
		return nil
	}
	b := ip.As16()
	switch {
	case nat64.Contains(ip):
		return checkEmbedded(s, netip.AddrFrom4([4]byte(b[12:16])), "NAT64")
	case sixToFour.Contains(ip):
		if err := checkEmbedded(s, netip.AddrFrom4([4]byte(b[2:6])), "6to4"); err != nil {
			return err
		}
	}
	for _, p := range deniedV6 {
		if p.Contains(ip) {
			return refuse(s, "non-public IPv6 range "+p.String())
		}
	}
	if !globalV6.Contains(ip) {
		return refuse(s, "not IPv6 global unicast")
	}
	return nil
}

func checkEmbedded(outer string, v4 netip.Addr, form string) error {
	if err := CheckIP(v4); err != nil {
		return refuse(outer, form+" form of "+err.(*AddrError).Reason)
	}
	return nil
}

// CheckAddr is the default dial policy: CheckIP, and the port must be 80 or 443 unless anyPort.
func CheckAddr(ap netip.AddrPort, anyPort bool) error {
	if err := checkPort(ap, anyPort); err != nil {
		return err
	}
	return CheckIP(ap.Addr())
}

// checkPort refuses ports other than 80 and 443 unless anyPort.
func checkPort(ap netip.AddrPort, anyPort bool) error {
	if !anyPort && ap.Port() != 80 && ap.Port() != 443 {
		return refuse(ap.String(), "port other than 80 and 443")
	}
	return nil
}

// ParseURL checks the form of an address a guarded client may fetch: absolute http or https, a host, no
// user information. A host that a browser or C resolver would read as IPv4 in a legacy form
// (2130706433, 0x7f.0.0.1, 0177.0.0.1, 127.1) is refused with an *AddrError: it is no name, and
// which address it means depends on who reads it. IP literals in standard form pass here;
// Policy.CheckURL checks them before dialling (urlAddr), and every address, named
// or literal, again where it counts: on the IP actually dialled.
func ParseURL(raw string) (*url.URL, error) {
	if len(raw) > 4096 {
		return nil, fmt.Errorf("%w: longer than 4096 bytes", ErrBadURL)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadURL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%w: scheme %q", ErrBadURL, u.Scheme)
	}
	if u.Opaque != "" || u.User != nil {
		return nil, fmt.Errorf("%w: opaque or with user information", ErrBadURL)
	}
	host := u.Hostname()
	if host == "" {
		return nil, fmt.Errorf("%w: no host", ErrBadURL)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.ParseUint(p, 10, 16); err != nil || n == 0 {
			return nil, fmt.Errorf("%w: port %q", ErrBadURL, p)
		}
	}
	if strings.HasPrefix(u.Host, "[") {
		if _, err := netip.ParseAddr(host); err != nil {
			return nil, fmt.Errorf("%w: bad IPv6 literal %q", ErrBadURL, host)
		}
		return u, nil
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return u, nil
	}
	if numericHost(host) {
		return nil, refuse(host, "numeric host in a legacy IPv4 form")
	}
	for _, r := range host {
		// Names are letters, digits, '-', '_' and dots; anything else (percent escapes decoded
		// to odd bytes, spaces) is no host a resolver should see.
		if !(r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80) {
			return nil, fmt.Errorf("%w: host %q", ErrBadURL, host)
		}
	}
	return u, nil
}

// numericHost reports whether host's last label is a number as the WHATWG URL parser (and
// inet_aton) read them: decimal, 0x hexadecimal or 0-prefixed octal. Such hosts are parsed as
// IPv4 by browsers and C resolvers.
func numericHost(host string) bool {
	host = strings.TrimSuffix(host, ".")
	last := host[strings.LastIndexByte(host, '.')+1:]
	if last == "" {
		return false
	}
	l := strings.ToLower(last)
	if strings.HasPrefix(l, "0x") {
		l = l[2:]
		return strings.Trim(l, "0123456789abcdef") == ""
	}
	return strings.Trim(l, "0123456789") == ""
}

// urlAddr is the IP and port of u when its host is an IP literal in standard form.
func urlAddr(u *url.URL) (netip.AddrPort, bool) {
	ip, err := netip.ParseAddr(u.Hostname())
	if err != nil {
		return netip.AddrPort{}, false
	}
	port := uint16(80)
	if u.Scheme == "https" {
		port = 443
	}
	if p := u.Port(); p != "" {
		n, _ := strconv.ParseUint(p, 10, 16)
		port = uint16(n)
	}
	return netip.AddrPortFrom(ip, port), true
}
