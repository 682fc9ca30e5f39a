package fonts

import (
	_ "embed"
	"sync"

	"golang.org/x/image/font/sfnt"
)

// DefaultFamily is the family name of the default font.
const DefaultFamily = "Roboto"

// RobotoRegular is the TrueType file of Roboto Regular.
//
//go:embed Roboto-Regular.ttf
var RobotoRegular []byte

var (
	defaultOnce sync.Once
	defaultFont *sfnt.Font
	defaultErr  error
)

// Default returns the parsed default font. The font is shared: callers must use their own sfnt.Buffer with it.
func Default() (*sfnt.Font, error) {
	defaultOnce.Do(func() {
		defaultFont, defaultErr = sfnt.Parse(RobotoRegular)
	})
	return defaultFont, defaultErr
}

// File is one embedded font file.
type File struct {
	// Family is the font family name documents use (fontFamily).
	Family string
	// Name is the file's name, e.g. "Roboto-Regular.ttf".
	Name string
	// Data is the TrueType file.
	Data []byte
}

// Files lists the embedded font files, so the editor can load exactly the outlines the renderer draws.
func Files() []File {
	return []File{{Family: DefaultFamily, Name: "Roboto-Regular.ttf", Data: RobotoRegular}}
}
