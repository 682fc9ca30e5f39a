package netguard

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// Policy is where a guarded client may connect: public unicast addresses (CheckIP) on ports 80 and
// 443 (every port with AnyPort), and the ranges of Allow although they are not public, on the same
// ports.
type Policy struct {
	Allow   []netip.Prefix
	AnyPort bool
}

// Check is the policy for one IP and port.
func (p Policy) Check(ap netip.AddrPort) error {
	for _, a := range p.Allow {
		if a.Contains(ap.Addr().Unmap()) {
			return checkPort(ap, p.AnyPort)
		}
	}
	return CheckAddr(ap, p.AnyPort)
}

// CheckURL is ParseURL plus the policy for IP literals, so those are refused before any dial (the
// dial-time check would refuse them too).
func (p Policy) CheckURL(raw string) (*url.URL, error) {
	u, err := ParseURL(raw)
	if err != nil {
		return nil, err
	}
	if ap, ok := urlAddr(u); ok {
		if err := p.Check(ap); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// Control is a net.Dialer's Control hook applying the policy. It runs after name resolution, on
// the IP and port about to be connected, for every connection the dialer opens.
func (p Policy) Control(network, address string, _ syscall.RawConn) error {
	if network != "tcp4" && network != "tcp6" {
		return refuse(address, "network "+network)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return refuse(address, "unparsable dial address")
	}
	return p.Check(ap)
}

// Resolver is the resolver of host names: the system's when server is empty, else one asking
// server (host:port) only.
func Resolver(server string) *net.Resolver {
	if server == "" {
		return net.DefaultResolver
	}
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, server)
	}}
}

// ParseAllow reads a comma-separated list of CIDR prefixes or single addresses, as the variable
// named name holds it, into the ranges of Policy.Allow.
func ParseAllow(name, list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			a, aerr := netip.ParseAddr(f)
			if aerr != nil {
				return nil, fmt.Errorf("%s: %q is no CIDR prefix or IP address", name, f)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}
