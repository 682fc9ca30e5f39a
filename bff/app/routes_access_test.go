package app

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/publicapi"
	"github.com/pressroom/pressroom/bff/review"
)

// userKind is one kind of caller the route table is walked for.
type userKind struct {
	name          string
	email         string // whose session; empty for anonymous
	roles         []string
	perms         []string
	tags          []string
	customPayment bool
	kind          string // session kind: own, switched, impersonation
	origin        string // e-mail of the team member or admin behind a switched or impersonating session
	host          string
	owesTFA       bool
	mustVerify    bool
	impersonating bool
	switched      bool
}

// expectAllowed is what docs/team-and-access.md says a kind of caller may do with a route declaring need, written
// out here independently of access.Need.Allows.
func expectAllowed(need access.Need, k userKind) bool {
	switch {
	case need.Public:
		return true
	case k.email == "":
		return false
	case (k.owesTFA || k.mustVerify) && !need.Pending:
		return false
	case need.NotImpersonating && k.impersonating:
		return false
	case need.OwnAccount && k.switched:
		return false
	case need.Tag != "" && !slices.Contains(k.tags, need.Tag):
		return false
	case need.CustomPayment && !k.customPayment:
		return false
	case len(need.Roles) > 0:
		return slices.ContainsFunc(need.Roles, func(r string) bool { return slices.Contains(k.roles, r) })
	case need.Permission != "":
		// Sellers pass every permission check; authorized accounts need the permission itself.
		return slices.Contains(k.roles, access.RoleSeller) || slices.Contains(k.perms, need.Permission)
	}
	return true
}

// mint opens a session straight in the database, so walking the table costs no bcrypt comparisons.
func (s *stack) mint(email, kind, origin string, tfaPassed bool) string {
	s.t.Helper()
	b := make([]byte, 32)
	rand.Read(b)
	token := base64.RawURLEncoding.EncodeToString(b)
	h := sha256.Sum256([]byte(token))
	const q = `
INSERT INTO sessions (user_id, token_hash, expires_at, kind, origin_user_id, tfa_passed)
SELECT u.id, $2, now() + interval '1 hour', $3, (SELECT id FROM users WHERE lower(email) = $4), $5
FROM users u WHERE lower(u.email) = $1`
	res, err := s.app.DB.Exec(q, email, h[:], kind, nullIfEmpty(origin), tfaPassed)
	if err != nil {
		s.t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		s.t.Fatalf("mint session for %s: no such user", email)
	}
	return token
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// addUser creates a user with roles and permissions, verified unless told.
func (s *stack) addUser(email string, roles, perms []string, verified bool, tfa bool) {
	s.t.Helper()
	const q = `
INSERT INTO users (name, email, password_hash, roles, permissions, status, email_verified_at, tfa_enable)
VALUES ($1, $1, 'x', $2, $3, 'verified', CASE WHEN $4 THEN now() END, $5)`
	if _, err := s.app.DB.Exec(q, email, pq.Array(roles), pq.Array(perms), verified, tfa); err != nil {
		s.t.Fatal(err)
	}
}

var pathParam = regexp.MustCompile(`:[^/]+`)

// TestEveryAPIRouteIsDeclaredAndEnforced walks the whole route table for every kind of caller and
// checks each answer against the route's declaration: 401 for anonymous callers refused, 403 for
// signed-in ones refused, and neither for callers admitted. A /api route without a declaration fails.
func TestEveryAPIRouteIsDeclaredAndEnforced(t *testing.T) {
	s := newStack(t)
	// The demo seller's tags (bff/seed): the team member switched into its account works under them.
	sellerTags := []string{access.TagNotify, access.TagEmailMarketing, access.TagPricing}
	kinds := []userKind{
		{name: "anonymous"},
		{name: "seller", email: "seller@example.com", roles: []string{"seller"}, tags: sellerTags},
		{name: "designer", email: "designer@example.com", roles: []string{"designer"}},
		{name: "admin", email: "admin@example.com", roles: []string{"admin"}},
		{name: "fulfillment-domain seller", email: "seller@example.com", roles: []string{"seller"}, tags: sellerTags, host: "fulfill.pressroom.test"},
		{name: "admin impersonating the seller", email: "seller@example.com", roles: []string{"seller"}, tags: sellerTags,
			kind: "impersonation", origin: "admin@example.com", impersonating: true},
		{name: "team member switched into the seller", email: "seller@example.com", roles: []string{"staff"}, tags: sellerTags,
			perms: []string{"get_orders", "get_campaigns", "get_reports"}, kind: "switched", origin: "team@example.com", switched: true},
		{name: "team member without permissions", email: "team-none@example.com", roles: []string{"staff"}},
		{name: "seller owing a two-factor code", email: "tfa-seller@example.com", roles: []string{"seller"}, owesTFA: true},
		{name: "seller who must verify the e-mail", email: "new-seller@example.com", roles: []string{"seller"}, mustVerify: true},
		{name: "seller without feature tags", email: "plain-seller@example.com", roles: []string{"seller"}},
		{name: "seller with custom payment", email: "custom-seller@example.com", roles: []string{"seller"}, customPayment: true},
		{name: "team member with get_payments in a custom-payment account", email: "custom-team@example.com", roles: []string{"staff"},
			perms: []string{"get_payments"}, customPayment: true},
	}
	s.addUser("plain-seller@example.com", []string{"seller"}, []string{}, true, false)
	s.addUser("team-none@example.com", []string{"staff"}, []string{}, true, false)
	s.addUser("tfa-seller@example.com", []string{"seller"}, []string{}, true, true)
	s.addUser("new-seller@example.com", []string{"seller"}, []string{}, false, false)
	s.addUser("custom-seller@example.com", []string{"seller"}, []string{}, true, false)
	s.addUser("custom-team@example.com", []string{"staff"}, []string{"get_payments"}, true, false)
	s.app.DB.MustExec(`UPDATE users SET custom_payment = true WHERE email IN ('custom-seller@example.com', 'custom-team@example.com')`)
	for _, p := range access.Permissions {
		email := "team-" + strings.ReplaceAll(p, "_", "-") + "@example.com"
		s.addUser(email, []string{"staff"}, []string{p}, true, false)
		kinds = append(kinds, userKind{name: "team member with " + p, email: email, roles: []string{"staff"}, perms: []string{p}})
	}

	routes := s.app.Echo.Routes()
	sort.Slice(routes, func(i, j int) bool { return routes[i].Path+routes[i].Method < routes[j].Path+routes[j].Method })
	var walked int
	for _, r := range routes {
		// The public API takes API keys, not sessions: TestOpenAPIMatchesRoutes walks it.
		if !strings.HasPrefix(r.Path, "/api/") || strings.HasPrefix(r.Path, publicapi.Base+"/") || r.Method == echo.RouteNotFound {
			continue
		}
		walked++
		need, ok := s.app.Auth.Declared(r.Method, r.Path)
		if !ok {
			t.Errorf("%s %s declares no access.Need: add it with auth.Service.Handle", r.Method, r.Path)
			continue
		}
		path := strings.ReplaceAll(pathParam.ReplaceAllString(r.Path, "1"), "*", "x")
		for _, k := range kinds {
			t.Run(fmt.Sprintf("%s %s as %s", r.Method, r.Path, k.name), func(t *testing.T) {
				var token string
				if k.email != "" {
					kind := k.kind
					if kind == "" {
						kind = "own"
					}
					token = s.mint(k.email, kind, k.origin, false)
				}
				var body any
				if r.Method != http.MethodGet && r.Method != http.MethodHead {
					body = map[string]any{}
				}
				var header []string
				if k.host != "" {
					header = []string{"Host", k.host}
				}
				got := s.do(r.Method, path, token, body, header...)
				want := expectAllowed(need, k)
				switch {
				case !want && k.email == "" && got.status != http.StatusUnauthorized:
					t.Fatalf("declared %q: anonymous got %d, want 401: %s", need, got.status, got.raw)
				case !want && k.email != "" && got.status != http.StatusForbidden:
					t.Fatalf("declared %q: got %d, want 403: %s", need, got.status, got.raw)
				case want && (got.status == http.StatusUnauthorized || got.status == http.StatusForbidden || got.status >= 500):
					t.Fatalf("declared %q: got %d, want the handler's answer: %s", need, got.status, got.raw)
				}
			})
		}
	}
	if walked < 20 {
		t.Fatalf("walked %d /api routes; the table looks incomplete", walked)
	}
	var denied int
	if err := s.app.DB.Get(&denied, `SELECT count(*) FROM audit_events WHERE action = 'permission.denied'`); err != nil || denied == 0 {
		t.Fatalf("permission refusals must be audited: %d rows, %v", denied, err)
	}
	var impersonated int
	if err := s.app.DB.Get(&impersonated, `SELECT count(*) FROM audit_events WHERE action = 'impersonation.request'`); err != nil || impersonated == 0 {
		t.Fatalf("impersonated requests must be audited: %d rows, %v", impersonated, err)
	}
}

// TestCampaignRoutesDeclareTheirPermissions pins what the campaign and font routes demand:
// reads get_campaigns, changes update_campaign, fonts anyone. The walk above then checks each is
// enforced as declared.
func TestCampaignRoutesDeclareTheirPermissions(t *testing.T) {
	s := newStack(t)
	read, write := access.Permitted(access.GetCampaigns), access.Permitted(access.UpdateCampaign)
	want := map[string]access.Need{
		"GET /api/seller/product-templates":                             read,
		"GET /api/seller/product-templates/models":                      read,
		"GET /api/seller/campaigns":                                     read,
		"POST /api/seller/campaigns":                                    write,
		"GET /api/seller/campaigns/:id":                                 read,
		"PUT /api/seller/campaigns/:id":                                 write,
		"DELETE /api/seller/campaigns/:id":                              write,
		"POST /api/seller/campaigns/:id/products":                       write,
		"DELETE /api/seller/campaigns/:id/products/:product_id":         write,
		"GET /api/seller/campaigns/:id/exports":                         read,
		"GET /api/seller/campaigns/:id/mockups":                         read,
		"PUT /api/seller/campaigns/:id/default-mockup":                  write,
		"POST /api/seller/campaigns/:id/calc-extra-print-cost-products": read,
		"GET /api/fonts":                                                access.Anyone,
		"GET /api/fonts/*":                                              access.Anyone,
		"GET /api/seller/fonts":                                         read,
		"POST /api/seller/fonts":                                        write,
		"DELETE /api/seller/fonts/:id":                                  write,
	}
	for route, need := range want {
		method, path, _ := strings.Cut(route, " ")
		got, ok := s.app.Auth.Declared(method, path)
		if !ok || got.String() != need.String() {
			t.Errorf("%s declares %q (%v), want %q", route, got, ok, need)
		}
	}
}

// TestBulkRoutesNeedCampaignPermissions pins the declarations of the bulk routes: reads
// need get_campaigns, changes update_campaign, so designers and team members without them get
// nothing; the walk above checks that the declarations are enforced.
func TestBulkRoutesNeedCampaignPermissions(t *testing.T) {
	s := newStack(t)
	const base = "/api/seller/bulk-campaigns/multi-print-spaces"
	read, write := access.Permitted(access.GetCampaigns), access.Permitted(access.UpdateCampaign)
	routes := []struct {
		method, path string
		want         access.Need
	}{
		{http.MethodGet, base, read},
		{http.MethodGet, base + "/records/:id", read},
		{http.MethodGet, base + "/templates", read},
		{http.MethodGet, base + "/uploads", read},
		{http.MethodGet, base + "/uploads/:id", read},
		{http.MethodGet, "/api/seller/campaign/bulk-v3/origin/:id", read},
		{http.MethodGet, "/api/seller/bulk-campaigns", read},
		{http.MethodGet, "/api/seller/bulk-campaigns/:id/log", read},
		{http.MethodPost, "/api/seller/bulk-campaigns", write},
		{http.MethodPost, base + "/records", write},
		{http.MethodPost, base + "/retry", write},
		{http.MethodPost, base + "/remove", write},
		{http.MethodPost, base + "/start", write},
		{http.MethodPost, base + "/stop", write},
		{http.MethodPost, base + "/start-all", write},
		{http.MethodPost, base + "/stop-all", write},
	}
	for _, r := range routes {
		if got, ok := s.app.Auth.Declared(r.method, r.path); !ok || got.String() != r.want.String() {
			t.Errorf("%s %s declares %q (%v), want %q", r.method, r.path, got, ok, r.want)
		}
	}
}

// TestReviewRoutesAreForDesigners pins the declarations of the design-order review routes:
// designers and admins only, so sellers, team members and anonymous callers get nothing; the walk
// above checks that the declarations are enforced.
func TestReviewRoutesAreForDesigners(t *testing.T) {
	s := newStack(t)
	const base = "/api" + review.Base
	want := access.Need{Roles: []string{access.RoleDesigner, access.RoleAdmin}}
	routes := []struct{ method, path string }{
		{http.MethodGet, base},
		{http.MethodGet, base + "/:id"},
		{http.MethodGet, base + "/:id/tiles/:revision/manifest"},
		{http.MethodGet, base + "/:id/tiles/:revision/:level/:tile"},
		{http.MethodPost, base + "/:id/approve"},
		{http.MethodPost, base + "/:id/reject"},
		{http.MethodPost, base + "/:id/replace"},
		{http.MethodPost, base + "/:id/rerender"},
	}
	for _, r := range routes {
		if got, ok := s.app.Auth.Declared(r.method, r.path); !ok || got.String() != want.String() {
			t.Errorf("%s %s declares %q (%v), want %q", r.method, r.path, got, ok, want)
		}
	}
}
