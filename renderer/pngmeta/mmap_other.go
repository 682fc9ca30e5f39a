//go:build !(aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris)

package pngmeta

import (
	"errors"
	"os"
)

// mapFile is not available on this platform: Strip reads files as streams.
func mapFile(*os.File) ([]byte, func() error, error) { return nil, nil, errors.ErrUnsupported }
