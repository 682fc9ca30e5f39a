package env

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// Exposure is what decides whether a process may fall back on the public development keys (the
// blob signing key, the image proxy key, the e-mail secret key): never in production, and never
// when it listens on an address other machines can reach, so that a deployment that forgot
// PRESSROOM_ENV=production does not run with keys printed in the source.
type Exposure struct {
	// Production is PRESSROOM_ENV == "production".
	Production bool
	// AddrVar names the variable Addr came from, such as PRESSROOM_HTTP_ADDR.
	AddrVar string
	// Addr is the host:port the process listens on; empty when it listens on none.
	Addr string
}

// RealKeysRequired reports whether the development keys are refused.
func (x Exposure) RealKeysRequired() bool {
	return x.Production || (x.Addr != "" && !Loopback(x.Addr))
}

// reason says why real keys are required, naming the variable to look at.
func (x Exposure) reason() string {
	if x.Production {
		return "in production (PRESSROOM_ENV=production)"
	}
	return fmt.Sprintf("when %s=%s listens beyond this machine (set PRESSROOM_ENV=production with real keys, or a loopback address such as 127.0.0.1)", x.AddrVar, x.Addr)
}

// CheckKey is the one rule for a secret key named by the variable name: when real keys are
// required, value must be set, at least minLen bytes and not dev (the public development key).
// Outside those cases an empty value is fine: the caller uses dev.
func (x Exposure) CheckKey(name, value, dev string, minLen int) error {
	if !x.RealKeysRequired() {
		return nil
	}
	switch {
	case value == "":
		return fmt.Errorf("%s is required %s: want at least %d random bytes", name, x.reason(), minLen)
	case value == dev:
		return fmt.Errorf("%s is the public development key, refused %s", name, x.reason())
	case len(value) < minLen:
		return fmt.Errorf("%s must be at least %d bytes, not %d, %s", name, minLen, len(value), x.reason())
	}
	return nil
}

// Loopback reports whether the listen address host:port reaches only this machine: a loopback IP
// (127.0.0.0/8, ::1) or localhost. An empty host, 0.0.0.0 and :: listen on every interface, and a
// host name or another IP is some interface other machines may reach: none of those is loopback.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}
