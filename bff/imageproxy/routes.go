package imageproxy

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/netguard"
)

// Messages the UI shows for refusals.
const (
	MsgBadURL        = "The url must be an absolute http or https address."
	MsgForbiddenAddr = "This address is not allowed."
	MsgBadToken      = "This image link is not valid or has expired."
	MsgUpstream      = "The image could not be fetched from its host."
	MsgTimeout       = "The image host took too long to answer."
	MsgBusy          = "Too many images are being fetched right now. Please try again in a moment."
	MsgNotImage      = "The address did not return a PNG, JPEG, WebP or GIF image."
	MsgTooManyPixels = "The image has too many pixels."
	MsgRendererDown  = "The image service is not available right now. Please try again in a moment."
)

// Routes lists the proxy's endpoints under g (mounted at /api): the proxy itself is public, since
// img tags send no bearer token and the url token is the authorisation; signing needs a session.
func Routes(g *echo.Group, a *auth.Service, p *Proxy) {
	a.Handle(g, http.MethodGet, strings.TrimPrefix(Path, "/api"), access.Anyone, p.handleProxy)
	a.Handle(g, http.MethodPost, strings.TrimPrefix(SignPath, "/api"), access.SignedIn, p.handleSign)
}

// handleProxy serves GET /api/image-proxy?url=&is_thumbnail=&token=, within the client address's
// rate (counted before anything else, so that guessed tokens count too).
func (p *Proxy) handleProxy(c echo.Context) error {
	if err := p.limit.limited(c, clientKey(c.RealIP()), p.cfg.ClientRate); err != nil {
		return err
	}
	raw := c.QueryParam("url")
	if raw == "" {
		return envelope.Fail(http.StatusBadRequest, MsgBadURL, envelope.FieldError{Field: "url", Message: MsgBadURL})
	}
	if err := p.signer.verify(raw, c.QueryParam("token")); err != nil {
		return envelope.Fail(http.StatusForbidden, MsgBadToken, envelope.FieldError{Field: "token", Message: MsgBadToken})
	}
	f := original
	if s := c.QueryParam("is_thumbnail"); s != "" {
		if t, _ := strconv.ParseBool(s); t {
			// The thumbnail's format follows the browser's Accept, so caches must key on it.
			c.Response().Header().Add(echo.HeaderVary, "Accept")
			f = thumb
			if acceptsWebP(c.Request().Header.Values(echo.HeaderAccept)) {
				f = thumbWebP
			}
		}
	}
	e, err := p.get(c.Request().Context(), raw, f)
	if err != nil {
		ue := userError(err, p.cfg.MaxBytes)
		p.log.Info("image proxy refused", "url", raw, "status", ue.Status, "err", err)
		return ue
	}
	h := c.Response().Header()
	h.Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(p.cfg.MaxAge.Seconds())))
	h.Set("ETag", e.etag)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	if etagMatch(c.Request().Header.Get("If-None-Match"), e.etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, e.contentType, e.body)
}

// acceptsWebP reports whether an Accept header names image/webp with a quality above zero. A
// wildcard (*/* or image/*) is not taken for it: browsers that decode WebP name it.
func acceptsWebP(accept []string) bool {
	for _, line := range accept {
		for _, r := range strings.Split(line, ",") {
			mediaType, params, _ := strings.Cut(r, ";")
			if !strings.EqualFold(strings.TrimSpace(mediaType), "image/webp") {
				continue
			}
			for _, p := range strings.Split(params, ";") {
				if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(k, "q") {
					if q, err := strconv.ParseFloat(v, 64); err == nil && q <= 0 {
						return false
					}
				}
			}
			return true
		}
	}
	return false
}

// signRequest is the body of POST /api/image-proxy/sign, and its answer's data.
type signRequest struct {
	URL string `json:"url"`
}

// handleSign serves POST /api/image-proxy/sign: {url} → {url} of the proxy path with its token,
// within the signed-in account's rate.
func (p *Proxy) handleSign(c echo.Context) error {
	if p.cfg.AccountRate > 0 {
		if err := p.limit.limited(c, accountKey(auth.Caller(c).User.ID), p.cfg.AccountRate); err != nil {
			return err
		}
	}
	var in signRequest
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	signed, err := p.SignedURL(in.URL)
	if err != nil {
		return userError(err, p.cfg.MaxBytes)
	}
	return envelope.OK(c, signRequest{URL: signed})
}

// userError turns a proxy error into the envelope the user sees; the error itself is logged.
func userError(err error, maxBytes int64) *envelope.Error {
	var ae *netguard.AddrError
	switch {
	case errors.As(err, &ae):
		return envelope.Fail(http.StatusForbidden, MsgForbiddenAddr, envelope.FieldError{Field: "url", Message: MsgForbiddenAddr})
	case errors.Is(err, netguard.ErrBadURL):
		return envelope.Fail(http.StatusBadRequest, MsgBadURL, envelope.FieldError{Field: "url", Message: MsgBadURL})
	case errors.Is(err, ErrTooLarge):
		return envelope.Fail(http.StatusRequestEntityTooLarge,
			fmt.Sprintf("The image is larger than %d MiB.", max(1, maxBytes>>20)))
	case errors.Is(err, ErrTooManyPixels):
		return envelope.Fail(http.StatusRequestEntityTooLarge, MsgTooManyPixels)
	case errors.Is(err, ErrNotImage):
		return envelope.Fail(http.StatusUnsupportedMediaType, MsgNotImage)
	case errors.Is(err, ErrRendererDown):
		e := envelope.Fail(http.StatusServiceUnavailable, MsgRendererDown)
		e.Header = http.Header{"Retry-After": []string{"5"}}
		return e
	case errors.Is(err, ErrTimeout):
		return envelope.Fail(http.StatusGatewayTimeout, MsgTimeout)
	case errors.Is(err, ErrBusy):
		e := envelope.Fail(http.StatusServiceUnavailable, MsgBusy)
		e.Header = http.Header{"Retry-After": []string{"1"}}
		return e
	default:
		return envelope.Fail(http.StatusBadGateway, MsgUpstream)
	}
}

// etagMatch reports whether an If-None-Match header names tag (weak comparison, as RFC 9110
// asks for GET).
func etagMatch(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == tag || t == "*" {
			return true
		}
	}
	return false
}
