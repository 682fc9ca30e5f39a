package imagelimit_test

import (
	"os"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/renderer/imagelimit"
)

func TestDefaultConfig(t *testing.T) {
	cfg := imagelimit.DefaultConfig()
	if cfg.MaxPixels < 13500*16200 {
		t.Errorf("MaxPixels %d does not admit a 13500x16200 print file", cfg.MaxPixels)
	}
	if cfg.MaxBytes != 300<<20 {
		t.Errorf("MaxBytes = %d, want 300 MiB", cfg.MaxBytes)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("default config invalid: %v", err)
	}
}

func TestLoadConfig(t *testing.T) {
	tests := []struct {
		name    string
		pixels  string // "" leaves the variable unset
		bytes   string
		want    imagelimit.Config
		wantErr string // a substring; "" for success
	}{
		{"unset uses defaults", "", "", imagelimit.DefaultConfig(), ""},
		{"both set", "1000000", "5000000", imagelimit.Config{MaxPixels: 1_000_000, MaxBytes: 5_000_000}, ""},
		{"underscores", "220_000_000", "", imagelimit.Config{MaxPixels: 220_000_000, MaxBytes: imagelimit.DefaultMaxBytes}, ""},
		{"spaces trimmed", " 42 ", "", imagelimit.Config{MaxPixels: 42, MaxBytes: imagelimit.DefaultMaxBytes}, ""},
		{"zero means default at use", "0", "", imagelimit.Config{MaxPixels: 0, MaxBytes: imagelimit.DefaultMaxBytes}, ""},
		{"pixels not a number", "lots", "", imagelimit.Config{}, imagelimit.EnvMaxPixels},
		{"bytes not a number", "", "300MB", imagelimit.Config{}, imagelimit.EnvMaxBytes},
		{"pixels negative", "-1", "", imagelimit.Config{}, imagelimit.EnvMaxPixels},
		{"bytes negative", "", "-5", imagelimit.Config{}, imagelimit.EnvMaxBytes},
		{"bytes overflow", "", "99999999999999999999", imagelimit.Config{}, imagelimit.EnvMaxBytes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(imagelimit.EnvMaxPixels, tc.pixels)
			t.Setenv(imagelimit.EnvMaxBytes, tc.bytes)
			got, err := imagelimit.LoadConfig(os.LookupEnv)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want one naming %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("LoadConfig: %v", err)
			}
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestValidateNamesBothVariables(t *testing.T) {
	err := imagelimit.Config{MaxPixels: -1, MaxBytes: -1}.Validate()
	if err == nil {
		t.Fatal("negative limits accepted")
	}
	for _, name := range []string{imagelimit.EnvMaxPixels, imagelimit.EnvMaxBytes} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not name %s", err, name)
		}
	}
}
