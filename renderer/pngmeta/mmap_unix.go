//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package pngmeta

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// mapFile maps the rest of a regular file, from its current offset to its
// end, read-only into memory. unmap releases the mapping and leaves the file
// offset at the end, as reading it through would. Files that cannot be
// mapped (not regular, empty, larger than the address space) return an error
// and are read instead.
func mapFile(f *os.File) (data []byte, unmap func() error, err error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := fi.Size()
	if !fi.Mode().IsRegular() || size == 0 || int64(int(size)) != size {
		return nil, nil, fmt.Errorf("pngmeta: %s: not a mappable file", f.Name())
	}
	pos, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, nil, err
	}
	if pos >= size {
		return nil, nil, errors.New("pngmeta: file offset at end of file")
	}
	m, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("pngmeta: map %s: %w", f.Name(), err)
	}
	return m[pos:], func() error {
		_, seekErr := f.Seek(size, io.SeekStart)
		return errors.Join(syscall.Munmap(m), seekErr)
	}, nil
}
