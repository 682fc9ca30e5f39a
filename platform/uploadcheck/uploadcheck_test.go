package uploadcheck

import "testing"

// TestContentType takes PNG, JPEG and WebP names in any case and refuses every other name.
func TestContentType(t *testing.T) {
	for name, want := range map[string]string{"a.png": "image/png", "a.JPG": "image/jpeg", "a.jpeg": "image/jpeg", "a.webp": "image/webp"} {
		if got, err := ContentType(name); err != nil || got != want {
			t.Errorf("%s: %q %v", name, got, err)
		}
	}
	for _, name := range []string{"a.txt", "a", "a.png.exe", "a.svg", "a.gif"} {
		if _, err := ContentType(name); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}
