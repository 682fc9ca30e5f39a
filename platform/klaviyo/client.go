package klaviyo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Revision is the API revision every request pins in its revision header.
const Revision = "2024-10-15"

// DefaultBaseURL is Klaviyo's API host.
const DefaultBaseURL = "https://a.klaviyo.com"

// MaxProfilesPerJob is the most profiles one bulk import job takes.
const MaxProfilesPerJob = 10000

// ErrRefused means Klaviyo answered with a client error (bad key, unknown list, invalid payload);
// retrying the same request cannot help. The wrapping *APIError carries Klaviyo's message.
var ErrRefused = errors.New("klaviyo refused the request")

// APIError is a non-2xx answer, with the detail of Klaviyo's first error.
type APIError struct {
	Status int
	// Message is Klaviyo's own words: the first error's detail, else its title.
	Message string
}

func (e *APIError) Error() string { return fmt.Sprintf("klaviyo answered %d: %s", e.Status, e.Message) }

// Unwrap makes client errors (4xx other than 429) match ErrRefused.
func (e *APIError) Unwrap() error {
	if e.Status >= 400 && e.Status < 500 && e.Status != http.StatusTooManyRequests {
		return ErrRefused
	}
	return nil
}

// Client calls Klaviyo with one private key.
type Client struct {
	base *url.URL
	key  string
	http *http.Client
	// Attempts is how many times one call is tried before its last error is returned (default 6).
	Attempts int
	// Backoff is the wait before the first retry of a 5xx or transport failure, doubled each time
	// (default 500ms).
	Backoff time.Duration
	// MaxWait caps one wait, whether from Retry-After or backoff (default 60s).
	MaxWait time.Duration
}

// New is a client of the API at baseURL (DefaultBaseURL when empty) with privateKey.
func New(baseURL, privateKey string, hc *http.Client) (*Client, error) {
	if baseURL == "" {
		baseURL = DefaultBaseURL
	}
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("klaviyo base URL %q: want http(s)://host", baseURL)
	}
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return &Client{base: u, key: privateKey, http: hc, Attempts: 6, Backoff: 500 * time.Millisecond, MaxWait: time.Minute}, nil
}

// List is the part of a Klaviyo list Pressroom reads.
type List struct {
	ID   string
	Name string
}

// GetList reads list id, which proves the key works and may read lists.
func (c *Client) GetList(ctx context.Context, id string) (List, error) {
	var out struct {
		Data struct {
			ID         string `json:"id"`
			Attributes struct {
				Name string `json:"name"`
			} `json:"attributes"`
		} `json:"data"`
	}
	if err := c.do(ctx, http.MethodGet, "/api/lists/"+url.PathEscape(id)+"/", nil, &out); err != nil {
		return List{}, err
	}
	return List{ID: out.Data.ID, Name: out.Data.Attributes.Name}, nil
}

// Profile is one profile to upsert; Email identifies it.
type Profile struct {
	Email     string `json:"email"`
	FirstName string `json:"first_name,omitempty"`
	LastName  string `json:"last_name,omitempty"`
}

type resource struct {
	Type       string `json:"type"`
	ID         string `json:"id,omitempty"`
	Attributes any    `json:"attributes,omitempty"`
}

// ImportJobBody is the request body of POST /api/profile-bulk-import-jobs/.
type ImportJobBody struct {
	Data struct {
		Type       string `json:"type"`
		Attributes struct {
			Profiles struct {
				Data []resource `json:"data"`
			} `json:"profiles"`
		} `json:"attributes"`
		Relationships struct {
			Lists struct {
				Data []resource `json:"data"`
			} `json:"lists"`
		} `json:"relationships"`
	} `json:"data"`
}

// ImportProfiles spawns a bulk import job that upserts profiles (by e-mail) and adds them to
// listID, and returns the job's id. Klaviyo runs the job after answering.
func (c *Client) ImportProfiles(ctx context.Context, listID string, profiles []Profile) (string, error) {
	if len(profiles) == 0 || len(profiles) > MaxProfilesPerJob {
		return "", fmt.Errorf("import %d profiles: want 1 to %d", len(profiles), MaxProfilesPerJob)
	}
	var body ImportJobBody
	body.Data.Type = "profile-bulk-import-job"
	for _, p := range profiles {
		body.Data.Attributes.Profiles.Data = append(body.Data.Attributes.Profiles.Data, resource{Type: "profile", Attributes: p})
	}
	body.Data.Relationships.Lists.Data = []resource{{Type: "list", ID: listID}}
	var out struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := c.do(ctx, http.MethodPost, "/api/profile-bulk-import-jobs/", body, &out); err != nil {
		return "", err
	}
	return out.Data.ID, nil
}

// do sends one call, retrying 429 after Retry-After and 5xx or transport failures with backoff.
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	var payload []byte
	if in != nil {
		var err error
		if payload, err = json.Marshal(in); err != nil {
			return err
		}
	}
	backoff := c.Backoff
	var last error
	for attempt := 1; ; attempt++ {
		wait, err := c.once(ctx, method, path, payload, out)
		if err == nil {
			return nil
		}
		last = err
		if errors.Is(err, ErrRefused) || ctx.Err() != nil || attempt >= c.Attempts {
			return last
		}
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.Status != http.StatusTooManyRequests {
			wait = backoff
			backoff *= 2
		}
		wait = min(wait, c.MaxWait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w (after %v)", ctx.Err(), last)
		case <-t.C:
		}
	}
}

// once sends the request a single time; on a 429 it returns how long Retry-After asks to wait.
func (c *Client) once(ctx context.Context, method, path string, payload []byte, out any) (time.Duration, error) {
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base.JoinPath(path).String(), body)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Klaviyo-API-Key "+c.key)
	req.Header.Set("revision", Revision)
	req.Header.Set("Accept", "application/vnd.api+json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/vnd.api+json")
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return 0, fmt.Errorf("%s %s: read answer: %w", method, path, err)
	}
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		if out == nil || len(raw) == 0 {
			return 0, nil
		}
		if err := json.Unmarshal(raw, out); err != nil {
			return 0, fmt.Errorf("%s %s: decode answer: %w", method, path, err)
		}
		return 0, nil
	}
	apiErr := &APIError{Status: res.StatusCode, Message: errorMessage(raw, res.Status)}
	if res.StatusCode == http.StatusTooManyRequests {
		return retryAfter(res.Header.Get("Retry-After")), apiErr
	}
	return 0, apiErr
}

// retryAfter reads Retry-After in seconds (Klaviyo's form) or as an HTTP date; one second when
// absent or unreadable.
func retryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return time.Second
}

// errorMessage is the detail (else title) of the first JSON:API error, else fallback.
func errorMessage(raw []byte, fallback string) string {
	var body struct {
		Errors []struct {
			Title  string `json:"title"`
			Detail string `json:"detail"`
		} `json:"errors"`
	}
	if json.Unmarshal(raw, &body) == nil && len(body.Errors) > 0 {
		if d := strings.TrimSpace(body.Errors[0].Detail); d != "" {
			return d
		}
		if t := strings.TrimSpace(body.Errors[0].Title); t != "" {
			return t
		}
	}
	return fallback
}
