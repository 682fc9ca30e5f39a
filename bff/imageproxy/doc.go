// Package imageproxy fetches images from foreign hosts for the UI, safely.
//
// GET /api/image-proxy?url=&is_thumbnail=&token= answers the image at url, or with is_thumbnail=1
// a thumbnail fitting the thumb box (160x200, never enlarged): WebP at quality 90 when the
// request's Accept names image/webp (browsers that decode it do), else JPEG when opaque and PNG when
// not; thumbnails answer Vary: Accept. img tags send no bearer token, so the route is public and the token is the authorisation:
// "<exp>.<sig>", exp in Unix seconds and sig the unpadded base64url HMAC-SHA256, under
// PRESSROOM_IMAGE_PROXY_KEY, of "pressroom.imageproxy.v1\n<exp>\n<url>" with url exactly as sent.
// It is never the session token. Expiries are rounded up to a whole UTC day so an address signed
// twice in a day is one address for the browser's cache. Signed users get tokens from
// POST /api/image-proxy/sign; other bff areas call (*Proxy).SignedURL for the foreign images of
// their lists.
//
// What is fetched: http and https only, ports 80 and 443 unless PRESSROOM_IMAGE_PROXY_ANY_PORT,
// no user information, no host in a legacy numeric IPv4 form (2130706433, 0x7f.0.0.1, 0177.0.0.1).
// The decisive check runs in the dialer's Control hook, on the IP actually dialled after name
// resolution (by the system's resolver or Config.DNSServer), for every connection including each
// redirect's: netguard.CheckIP refuses loopback, private, link-local (cloud metadata included), CGNAT,
// unspecified, multicast, broadcast, documentation and reserved ranges, and IPv6 forms carrying
// such IPv4 addresses (mapped, compatible, NAT64, 6to4); Teredo is refused outright. Only the
// ranges the operator lists in Config.Allow are reached although not public. Environment HTTP
// proxies are ignored, since they would dial for us. At most Config.MaxRedirects redirects, each URL
// checked again; one Config.Timeout for the whole fetch; bodies over Config.MaxBytes are refused.
//
// The bff decodes no pixel: it posts what it fetched to the renderer (Config.RendererURL, with
// Config.RendererKey; contract in renderer/imageapi), which sniffs the type from the bytes (PNG,
// JPEG, WebP, GIF; never the upstream's Content-Type), refuses images over Config.MaxPixels from
// their header, and makes the thumbnails. A renderer that cannot be reached or refuses the key
// makes the answer 503.
//
// Answers carry Cache-Control public with Config.MaxAge and a content ETag, and are kept in a
// byte-bounded in-memory LRU keyed by url and variant; concurrent first requests share one fetch
// (singleflight). Refusals are envelopes with a clear message: 400 bad url, 403 address not
// allowed or bad token, 413 too large, 415 not an image, 502/504 when the host fails.
//
// Rate limits, counted in Redis in fixed windows so that every bff process shares them: proxy
// requests per client address (Config.ClientRate; the route is public, so the address is what
// tells callers apart) and signings per account (Config.AccountRate). Over a limit the answer is
// 429 with Retry-After and a message saying when to try again. (bff/auth's login throttle counts
// failures and blocks, which is a different rule, and is kept private to that package.)
//
// It is not a general HTTP proxy and does not keep images across restarts (the renderer's variants
// do that for uploads).
package imageproxy
