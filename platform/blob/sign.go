package blob

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// A local signed URL is {PublicURL}/{key}?method=PUT&expires=UNIX&ct=TYPE&max=BYTES&sig=MAC, where
// MAC is the unpadded base64url HMAC-SHA256, under the signing key, of
//
//	"pressroom-blob-url/2\n" + method + "\n" + key + "\n" + expires + "\n" + ct + "\n" + max
//
// followed, for a download (SignDownload, which adds &name=FILE), by "\n" + name: the name is as
// tamper-proof as the key, and URLs without one keep their MAC. ct and max are empty (and absent
// from the URL) for GET; a PUT always carries both, so the size cap is as tamper-proof as the key.
// Keys need no escaping (ValidateKey). A name holds no control character (ContentDisposition), so
// no two URLs sign the same text.

const signVersion = "pressroom-blob-url/2\n"

func (s *Local) mac(method, key string, expires int64, ct, max, name string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(signVersion + method + "\n" + key + "\n" + strconv.FormatInt(expires, 10) + "\n" + ct + "\n" + max))
	if name != "" {
		m.Write([]byte("\n" + name))
	}
	return m.Sum(nil)
}

func (s *Local) sign(method, key, ct string, maxBytes int64, name string, ttl time.Duration) string {
	expires := s.now().Add(ttl).Unix()
	q := url.Values{}
	q.Set("method", method)
	q.Set("expires", strconv.FormatInt(expires, 10))
	max := ""
	if ct != "" {
		q.Set("ct", ct)
	}
	if maxBytes > 0 {
		max = strconv.FormatInt(maxBytes, 10)
		q.Set("max", max)
	}
	if name != "" {
		q.Set("name", name)
	}
	q.Set("sig", base64.RawURLEncoding.EncodeToString(s.mac(method, key, expires, ct, max, name)))
	return s.publicURL + "/" + key + "?" + q.Encode()
}

// SignUpload signs a PUT of key with exactly contentType and at most maxBytes (capped further by
// MaxUploadBytes), for ttl (MinTTL to MaxTTL).
func (s *Local) SignUpload(_ context.Context, key, contentType string, maxBytes int64, ttl time.Duration) (SignedUpload, error) {
	if err := checkSignUpload(key, contentType, maxBytes, ttl); err != nil {
		return SignedUpload{}, err
	}
	maxBytes = min(maxBytes, s.maxUpload, s.maxObject)
	return SignedUpload{
		Method: http.MethodPut, URL: s.sign(http.MethodPut, key, contentType, maxBytes, "", ttl),
		Headers: map[string]string{"Content-Type": contentType}, MaxBytes: maxBytes,
	}, nil
}

// SignGet signs a GET (or HEAD) of key for ttl (MinTTL to MaxTTL). The object need not exist yet.
func (s *Local) SignGet(_ context.Context, key string, ttl time.Duration) (string, error) {
	if err := checkSignGet(key, ttl); err != nil {
		return "", err
	}
	return s.sign(http.MethodGet, key, "", 0, "", ttl), nil
}

// SignDownload signs a GET of key that the Handler answers with the Content-Disposition of fileName.
func (s *Local) SignDownload(_ context.Context, key, fileName string, ttl time.Duration) (string, error) {
	if err := checkSignGet(key, ttl); err != nil {
		return "", err
	}
	if _, err := ContentDisposition(fileName); err != nil {
		return "", err
	}
	return s.sign(http.MethodGet, key, "", 0, fileName, ttl), nil
}

func checkSignGet(key string, ttl time.Duration) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	return checkTTL(ttl)
}

func checkSignUpload(key, contentType string, maxBytes int64, ttl time.Duration) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if contentType == "" {
		return errors.New("blob: a signed upload needs its content type")
	}
	if _, err := checkContentType(contentType); err != nil {
		return err
	}
	if maxBytes < 1 {
		return errors.New("blob: a signed upload needs its size cap")
	}
	return checkTTL(ttl)
}

// refusal is why the Handler turns a request away, in words the uploader may show.
type refusal struct {
	status  int
	message string
}

// The refusals of signed requests.
var (
	refusedUnsigned  = &refusal{http.StatusForbidden, "The address is not signed."}
	refusedSignature = &refusal{http.StatusForbidden, "The address signature is invalid."}
	refusedExpired   = &refusal{http.StatusForbidden, "The address has expired. Please request a new one."}
	refusedMethod    = &refusal{http.StatusForbidden, "The address is not signed for this method."}
	refusedType      = &refusal{http.StatusForbidden, "The Content-Type header does not match the signed upload."}
)

// signed is what a verified signature allows.
type signed struct {
	contentType string
	// maxBytes caps a PUT's body; 0 for a GET.
	maxBytes int64
	// fileName is the name a download is saved under; "" for any other request.
	fileName string
}

// verify checks a request's signature for method on key and returns what it signed. The MAC is
// compared in constant time before the expiry and the cap are trusted.
func (s *Local) verify(q url.Values, method, key string) (signed, *refusal) {
	sig, exp, signedMethod := q.Get("sig"), q.Get("expires"), q.Get("method")
	if sig == "" || exp == "" || signedMethod == "" {
		return signed{}, refusedUnsigned
	}
	expires, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return signed{}, refusedSignature
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return signed{}, refusedSignature
	}
	ct, max, name := q.Get("ct"), q.Get("max"), q.Get("name")
	if !hmac.Equal(got, s.mac(signedMethod, key, expires, ct, max, name)) {
		return signed{}, refusedSignature
	}
	if s.now().Unix() > expires {
		return signed{}, refusedExpired
	}
	if signedMethod != method {
		return signed{}, refusedMethod
	}
	out := signed{contentType: ct, fileName: name}
	if method == http.MethodPut {
		// Only this package signs, always with a cap; a PUT signed without one is not ours.
		if out.maxBytes, err = strconv.ParseInt(max, 10, 64); err != nil || out.maxBytes < 1 {
			return signed{}, refusedUnsigned
		}
	}
	return out, nil
}
