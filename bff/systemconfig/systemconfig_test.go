package systemconfig

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/testinfra"
)

func TestLoadSeededReferenceData(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	s, err := Load(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Countries) != 249 {
		t.Errorf("countries: got %d, want the 249 of ISO 3166-1", len(s.Countries))
	}
	if !slices.Contains(s.Countries, Country{Code: "VN", Name: "Vietnam"}) || !slices.Contains(s.Countries, Country{Code: "US", Name: "United States"}) {
		t.Errorf("countries lack VN or US: %v", s.Countries[:5])
	}
	for _, want := range []Location{
		{Code: "US-CA", Name: "California", Type: "state"},
		{Code: "US-DC", Name: "District of Columbia", Type: "district"},
		{Code: "CA-ON", Name: "Ontario", Type: "province"},
		{Code: "AU-NT", Name: "Northern Territory", Type: "territory"},
	} {
		if !slices.Contains(s.Locations, want) {
			t.Errorf("locations lack %+v", want)
		}
	}
	if len(s.Colors) < 20 || s.Colors[0] != (Color{Name: "White", HexCode: "#ffffff"}) {
		t.Errorf("colours: got %d starting %v, want the garment palette starting with White", len(s.Colors), s.Colors[:1])
	}
	if s.Currency != (Currency{Locale: "en-US", Code: "USD"}) {
		t.Errorf("currency: got %+v, want USD in en-US", s.Currency)
	}
	if s.Configs[KeyMaintenance] != "false" {
		t.Errorf("configs: got %v, want maintenance false", s.Configs)
	}
}

func TestCurrencyFollowsTheConfigs(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	db.MustExec(`UPDATE system_configs SET value = 'EUR' WHERE key = $1`, KeyCurrencyCode)
	db.MustExec(`UPDATE system_configs SET value = 'de-DE' WHERE key = $1`, KeyCurrencyLocale)
	s, err := Load(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if s.Currency != (Currency{Locale: "de-DE", Code: "EUR"}) {
		t.Errorf("currency: got %+v, want EUR in de-DE", s.Currency)
	}
}

func TestMaintenanceSwitch(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	// maintenance reads the switch from the stored configs, as GET /api/public/platform does.
	maintenance := func() (bool, error) {
		configs, err := Configs(ctx, db, "")
		if err != nil {
			return false, err
		}
		return maintenanceOf(configs)
	}
	for _, c := range []struct {
		value   string
		want    bool
		wantErr bool
	}{
		{"false", false, false},
		{"true", true, false},
		{"1", true, false},
		{"", false, false},
		{"yes please", false, true},
	} {
		db.MustExec(`UPDATE system_configs SET value = $2 WHERE key = $1`, KeyMaintenance, c.value)
		got, err := maintenance()
		if (err != nil) != c.wantErr || got != c.want {
			t.Errorf("maintenance %q: got %v, %v; want %v, error %v", c.value, got, err, c.want, c.wantErr)
		}
	}
	db.MustExec(`DELETE FROM system_configs WHERE key = $1`, KeyMaintenance)
	if got, err := maintenance(); err != nil || got {
		t.Errorf("without the key: got %v, %v; want false", got, err)
	}
}

func TestSet(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	for _, c := range []struct {
		key, value string
		want       *envelope.FieldError
	}{
		{"maintenance", "true", nil},
		{"maintenance", "soon", &envelope.FieldError{Field: "value", Message: MsgBadMaintenance}},
		{"support.email", "help@example.com", nil},
		{"Bad Key", "x", &envelope.FieldError{Field: "key", Message: MsgBadKey}},
		{"notes", strings.Repeat("x", maxValueLength+1), &envelope.FieldError{Field: "value", Message: MsgValueTooLong}},
	} {
		got := check(c.key, c.value)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("check %q (-want +got):\n%s", c.key, diff)
		}
		if got == nil {
			if err := Set(ctx, db, c.key, c.value); err != nil {
				t.Errorf("set %q: %v", c.key, err)
			}
		}
	}
	s, err := Load(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if s.Configs["maintenance"] != "true" || s.Configs["support.email"] != "help@example.com" {
		t.Errorf("configs after set: %v", s.Configs)
	}
}

func TestBrandOf(t *testing.T) {
	configs := map[string]string{
		"brand.second.hosts":        "ink.example.com, Studio.Example.com",
		"brand.second.name":         "Inkwell",
		"brand.seller_centre.hosts": "seller.example.com",
		"brand.seller_centre.name":  "",
	}
	for host, want := range map[string]Brand{
		"ink.example.com":         {Kind: BrandSecond, Name: "Inkwell"},
		"studio.example.com:8443": {Kind: BrandSecond, Name: "Inkwell"},
		"seller.example.com":      {Kind: BrandSellerCentre, Name: DefaultBrandName},
		"app.example.com":         {Kind: BrandDefault, Name: DefaultBrandName},
		"":                        {Kind: BrandDefault, Name: DefaultBrandName},
	} {
		if got := BrandOf(configs, host); got != want {
			t.Errorf("brand of %q: got %+v, want %+v", host, got, want)
		}
	}
}

func TestPlatformAnswer(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	db.MustExec(`UPDATE system_configs SET value = 'true' WHERE key = $1`, KeyMaintenance)
	db.MustExec(`UPDATE system_configs SET value = 'ink.localhost' WHERE key = 'brand.second.hosts'`)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/api/public/platform", nil)
	req.Host = "ink.localhost:8080"
	c := echo.New().NewContext(req, rec)
	if err := (handlers{db: db}).platform(c); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Success bool     `json:"success"`
		Data    Platform `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	want := Platform{Maintenance: true, Brand: Brand{Kind: BrandSecond, Name: "Inkwell"}}
	if rec.Code != http.StatusOK || !body.Success || body.Data != want {
		t.Errorf("got %d %s, want 200 with %+v", rec.Code, rec.Body, want)
	}
}
