package uploads

import (
	"strings"
	"testing"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/uploadcheck"
)

func TestUserKey(t *testing.T) {
	tests := []struct {
		name, filePath, fileName string
		wantPrefix, wantSuffix   string
	}{
		{"plain", "designs", "art.png", "u/7/designs/", "-art.png"},
		{"no folder", "", "art.PNG", "u/7/uploads/", "-art.png"},
		{"climbing folder", "../../etc/passwd", "x.jpg", "u/7/etc/passwd/", "-x.jpg"},
		{"deep folder is cut", "a/b/c/d/e", "x.webp", "u/7/a/b/c/", "-x.webp"},
		{"spaces and unicode", "my designs", "Ảnh đẹp (1).jpeg", "u/7/my-designs/", ".jpeg"},
		{"windows path in the name", "", `C:\Users\me\art.png`, "u/7/uploads/", "-art.png"},
		{"only dots", "..", "....png", "u/7/uploads/", "-file.png"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			key := UserKey(7, tc.filePath, tc.fileName)
			if !strings.HasPrefix(key, tc.wantPrefix) || !strings.HasSuffix(key, tc.wantSuffix) {
				t.Fatalf("UserKey = %q, want %s...%s", key, tc.wantPrefix, tc.wantSuffix)
			}
			if err := blob.ValidateKey(key); err != nil {
				t.Fatal(err)
			}
		})
	}
	if a, b := UserKey(7, "", "a.png"), UserKey(7, "", "a.png"); a == b {
		t.Fatal("two keys for the same name are equal")
	}
	if k := PublicKey("../a.png"); !strings.HasPrefix(k, "public/") || blob.ValidateKey(k) != nil {
		t.Fatalf("PublicKey = %q", k)
	}
	if k := UserKey(7, "", strings.Repeat("x", 500)+".png"); blob.ValidateKey(k) != nil {
		t.Fatalf("long name: %v", blob.ValidateKey(k))
	}
}

func TestConfig(t *testing.T) {
	cfg, err := LoadConfig(env.Map(map[string]string{"PRESSROOM_UPLOAD_PUBLIC_PER_HOUR": "5", "PRESSROOM_VARIANT_WAIT": "10s"}))
	if err != nil || cfg.PublicPerHour != 5 || cfg.VariantWait.Seconds() != 10 || cfg.Validate() != nil {
		t.Fatalf("cfg %+v, %v", cfg, err)
	}
	cfg.PublicPerHour = 0
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "PRESSROOM_UPLOAD_PUBLIC_PER_HOUR") {
		t.Fatalf("Validate = %v", err)
	}
}

// FuzzUserKey: whatever name and folder a client sends, the key is valid, under the user's
// prefix, and keeps an accepted extension.
func FuzzUserKey(f *testing.F) {
	for _, seed := range [][2]string{{"designs", "art.png"}, {"../..", "..\\..\\x.jpg"}, {"a//b/./c", "ünï cødé.webp"},
		{strings.Repeat("x/", 100), strings.Repeat("y", 400) + ".jpeg"}, {"", ".png"}, {"\x00/\xff", "\x00.png"}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, folder, name string) {
		key := UserKey(42, folder, name)
		if err := blob.ValidateKey(key); err != nil {
			t.Fatalf("UserKey(%q, %q) = %q: %v", folder, name, key, err)
		}
		if !strings.HasPrefix(key, "u/42/") || strings.Count(key, "/") > 2+maxFolderDepth {
			t.Fatalf("UserKey(%q, %q) = %q", folder, name, key)
		}
		if _, err := uploadcheck.ContentType(name); err == nil {
			if _, err := uploadcheck.ContentType(key); err != nil {
				t.Fatalf("UserKey(%q, %q) = %q lost the extension", folder, name, key)
			}
		}
	})
}
