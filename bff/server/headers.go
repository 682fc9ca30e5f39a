package server

import (
	"strings"

	"github.com/labstack/echo/v4"
)

// contentSecurityPolicy is the policy of every answer of the bff, the UI first. Scripts come only
// from the bff itself (the built UI has no inline script: Vite emits module scripts, and the
// colour-scheme script is a file), so injected markup cannot run code. Styles allow inline
// because Mantine renders <style> elements for its CSS variables and responsive style props.
// Images may come from any https host: the e-mail campaign preview shows the seller's HTML as a
// mail client would (a srcdoc frame inherits this policy); every other foreign image goes through
// the image proxy. origins are where browsers load and upload blobs (see blob.BrowserOrigins).
// inlineScripts allows inline scripts, for the pages of a third-party tool that writes them (the
// queue monitor's page sets its settings in one); never for the UI.
func contentSecurityPolicy(origins []string, inlineScripts bool) string {
	extra := ""
	if len(origins) > 0 {
		extra = " " + strings.Join(origins, " ")
	}
	script := "script-src 'self'"
	if inlineScripts {
		script += " 'unsafe-inline'"
	}
	return strings.Join([]string{
		"default-src 'self'",
		script,
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob: https:" + extra,
		"font-src 'self' data:" + extra,
		"connect-src 'self'" + extra,
		"worker-src 'self' blob:",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// hstsValue asks browsers to use HTTPS only for a year. It is sent only on answers to requests
// that came over HTTPS: over plain HTTP a browser ignores it, and a development bff on
// http://127.0.0.1 must not pin localhost to HTTPS.
const hstsValue = "max-age=31536000"

// securityHeaders sets the headers every answer carries. A request came over HTTPS when its
// connection is TLS or, with trustProxy only, when the proxy in front says so in X-Forwarded-Proto
// (a client's own header is otherwise not believed). Paths under inlinePrefixes get the policy
// with inline scripts allowed.
func securityHeaders(origins []string, inlinePrefixes []string, trustProxy bool) echo.MiddlewareFunc {
	csp, inlineCSP := contentSecurityPolicy(origins, false), contentSecurityPolicy(origins, true)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			policy := csp
			for _, p := range inlinePrefixes {
				if path := c.Request().URL.Path; path == p || strings.HasPrefix(path, p+"/") {
					policy = inlineCSP
				}
			}
			h.Set("Content-Security-Policy", policy)
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("X-XSS-Protection", "0") // the old filters are themselves a leak; the policy protects
			h.Set("X-Frame-Options", "DENY")
			h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
			r := c.Request()
			proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",") // the first proxy's word
			if r.TLS != nil || (trustProxy && strings.EqualFold(strings.TrimSpace(proto), "https")) {
				h.Set("Strict-Transport-Security", hstsValue)
			}
			return next(c)
		}
	}
}
