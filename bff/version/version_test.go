package version

import (
	"strings"
	"testing"
	"time"

	"github.com/pressroom/pressroom/platform/env"
)

func TestLoadConfig(t *testing.T) {
	tests := []struct {
		name    string
		vars    map[string]string
		want    string
		wantErr string
	}{
		{name: "PRESSROOM_BUILD_ID wins", vars: map[string]string{"PRESSROOM_BUILD_ID": "v1.4.2"}, want: "v1.4.2"},
		{name: "blank means the default", vars: map[string]string{"PRESSROOM_BUILD_ID": "  "}, want: started.Format(time.RFC3339)},
		{name: "unset means the process start time", vars: map[string]string{}, want: started.Format(time.RFC3339)},
		{name: "too long names the variable", vars: map[string]string{"PRESSROOM_BUILD_ID": strings.Repeat("a", 201)}, wantErr: "PRESSROOM_BUILD_ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := LoadConfig(env.Map(tt.vars))
			if err == nil {
				err = cfg.Validate()
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || cfg.BuildID != tt.want {
				t.Fatalf("BuildID = %q, err %v; want %q", cfg.BuildID, err, tt.want)
			}
		})
	}
}

func TestLinkedBuildIDIsTheDefault(t *testing.T) {
	defer func(old string) { linkedBuildID = old }(linkedBuildID)
	linkedBuildID = "4f2c9e1"
	if got := DefaultConfig().BuildID; got != "4f2c9e1" {
		t.Fatalf("DefaultConfig().BuildID = %q, want the linked value", got)
	}
}

func TestValidateRefusesEmpty(t *testing.T) {
	if err := (Config{}).Validate(); err == nil || !strings.Contains(err.Error(), "PRESSROOM_BUILD_ID") {
		t.Fatalf("err = %v", err)
	}
}
