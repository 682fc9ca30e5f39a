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

// A local signed URL is {PublicURL}/{key}?method=PUT&expires=UNIX&ct=TYPE&sig=MAC, where MAC is
// the unpadded base64url HMAC-SHA256, under the signing key, of
//
//	"pressroom-blob-url/1\n" + method + "\n" + key + "\n" + expires + "\n" + ct
//
// ct is empty (and absent from the URL) for GET. Keys need no escaping (ValidateKey).

const signVersion = "pressroom-blob-url/1\n"

func (s *Local) mac(method, key string, expires int64, ct string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(signVersion + method + "\n" + key + "\n" + strconv.FormatInt(expires, 10) + "\n" + ct))
	return m.Sum(nil)
}

func (s *Local) sign(method, key, ct string, ttl time.Duration) string {
	expires := s.now().Add(ttl).Unix()
	q := url.Values{}
	q.Set("method", method)
	q.Set("expires", strconv.FormatInt(expires, 10))
	if ct != "" {
		q.Set("ct", ct)
	}
	q.Set("sig", base64.RawURLEncoding.EncodeToString(s.mac(method, key, expires, ct)))
	return s.publicURL + "/" + key + "?" + q.Encode()
}

// SignPut signs a PUT of key with exactly contentType, for ttl (MinTTL to MaxTTL).
func (s *Local) SignPut(_ context.Context, key, contentType string, ttl time.Duration) (string, error) {
	if err := checkSignPut(key, contentType, ttl); err != nil {
		return "", err
	}
	return s.sign(http.MethodPut, key, contentType, ttl), nil
}

// SignGet signs a GET (or HEAD) of key for ttl (MinTTL to MaxTTL). The object need not exist yet.
func (s *Local) SignGet(_ context.Context, key string, ttl time.Duration) (string, error) {
	if err := ValidateKey(key); err != nil {
		return "", err
	}
	if err := checkTTL(ttl); err != nil {
		return "", err
	}
	return s.sign(http.MethodGet, key, "", ttl), nil
}

func checkSignPut(key, contentType string, ttl time.Duration) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if contentType == "" {
		return errors.New("blob: a signed upload needs its content type")
	}
	if _, err := checkContentType(contentType); err != nil {
		return err
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

// verify checks a request's signature for method on key and returns the signed content type.
// The MAC is compared in constant time before the expiry is trusted.
func (s *Local) verify(q url.Values, method, key string) (string, *refusal) {
	sig, exp, signedMethod := q.Get("sig"), q.Get("expires"), q.Get("method")
	if sig == "" || exp == "" || signedMethod == "" {
		return "", refusedUnsigned
	}
	expires, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return "", refusedSignature
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return "", refusedSignature
	}
	ct := q.Get("ct")
	if !hmac.Equal(got, s.mac(signedMethod, key, expires, ct)) {
		return "", refusedSignature
	}
	if s.now().Unix() > expires {
		return "", refusedExpired
	}
	if signedMethod != method {
		return "", refusedMethod
	}
	return ct, nil
}
