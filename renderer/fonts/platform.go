package fonts

import (
	"embed"
	"fmt"
	"path"
	"strings"
	"sync"
)

// PlatformPrefix starts the keys (fontUrl values) of the platform fonts. The files are embedded, not
// stored: the renderer and the bff answer such a key from the binary.
const PlatformPrefix = "fonts/platform/"

// KeyPrefix starts the keys of every font file, platform fonts and sellers' uploads alike
// ("fonts/{sellerId}/{random}.ttf"); GET /api/{key} serves them.
const KeyPrefix = "fonts/"

// ContentType is the media type of a font file by its key's extension: Read leaves every accepted file
// TrueType or OpenType, stored as .ttf or .otf.
func ContentType(key string) string {
	if strings.HasSuffix(key, ".otf") {
		return "font/otf"
	}
	return "font/ttf"
}

//go:embed platform/*.ttf
var platformFiles embed.FS

// Platform is one font shipped with Pressroom (platform/, each with its licence file beside it).
type Platform struct {
	// Key is the font's fontUrl, PlatformPrefix + its file name.
	Key string
	// Data is the TrueType file.
	Data []byte
	// Info is what Read found in it.
	Info Info
}

var (
	platformOnce sync.Once
	platformList []Platform
	platformErr  error
)

// PlatformFonts lists the platform fonts, read once, in the order of their family names.
func PlatformFonts() ([]Platform, error) {
	platformOnce.Do(func() {
		entries, err := platformFiles.ReadDir("platform")
		if err != nil {
			platformErr = err
			return
		}
		for _, e := range entries {
			data, err := platformFiles.ReadFile(path.Join("platform", e.Name()))
			if err != nil {
				platformErr = err
				return
			}
			info, _, err := Read(data)
			if err != nil {
				platformErr = fmt.Errorf("platform font %s: %w", e.Name(), err)
				return
			}
			platformList = append(platformList, Platform{Key: PlatformPrefix + e.Name(), Data: data, Info: info})
		}
	})
	return platformList, platformErr
}

// PlatformFile answers the file of a platform font's key, if key is one.
func PlatformFile(key string) ([]byte, bool) {
	if !strings.HasPrefix(key, PlatformPrefix) {
		return nil, false
	}
	list, err := PlatformFonts()
	if err != nil {
		return nil, false
	}
	for _, p := range list {
		if p.Key == key {
			return p.Data, true
		}
	}
	return nil, false
}
