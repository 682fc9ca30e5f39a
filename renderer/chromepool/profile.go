package chromepool

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// profilePrefix starts the name of every profile folder of a pool, so that a pool finds the folders a
// killed one left behind.
const profilePrefix = "pressroom-chrome-"

// profile is a browser's profile folder. The pool holds an exclusive flock on the folder for as long as
// the browser may use it; the kernel drops the lock when the holding process dies, however it dies, so a
// folder whose lock can be taken belongs to nobody.
type profile struct {
	path string
	lock *os.File
}

// newProfile makes and locks a fresh profile folder in dir.
func newProfile(dir string) (*profile, error) {
	for range 3 {
		path, err := os.MkdirTemp(dir, profilePrefix+"*")
		if err != nil {
			return nil, fmt.Errorf("chromepool: profile folder: %w", err)
		}
		p, err := lockProfile(path)
		if err != nil {
			return nil, err
		}
		if p != nil {
			return p, nil
		}
		// Another pool's sweep took the folder between its making and its locking, and removes it.
	}
	return nil, fmt.Errorf("chromepool: profile folder in %s: taken by another pool's sweep three times", dir)
}

// lockProfile takes the lock of the folder at path. It returns nil, without an error, when another
// process holds the lock, when the folder at path is no longer the one locked (a sweep removed it) or
// is another user's.
func lockProfile(path string) (*profile, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("chromepool: open profile folder: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, nil
		}
		return nil, fmt.Errorf("chromepool: lock profile folder %s: %w", path, err)
	}
	locked, err1 := f.Stat()
	named, err2 := os.Stat(path)
	if err1 != nil || err2 != nil || !os.SameFile(locked, named) {
		f.Close()
		return nil, nil
	}
	return &profile{path: path, lock: f}, nil
}

// remove deletes the folder, then drops its lock.
func (p *profile) remove() error {
	err := os.RemoveAll(p.path)
	p.lock.Close()
	if err != nil {
		return fmt.Errorf("chromepool: remove profile: %w", err)
	}
	return nil
}

// removeStaleProfiles deletes the profile folders in dir that no running process holds: those of a pool
// whose process was killed. A live pool's folders, in this process or another, stay. It returns how many
// folders it removed.
func removeStaleProfiles(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("chromepool: read the profile folder %s (PRESSROOM_CHROME_PROFILE_DIR): %w", dir, err)
	}
	removed := 0
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), profilePrefix) {
			continue
		}
		p, err := lockProfile(filepath.Join(dir, e.Name()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if p == nil {
			continue // in use
		}
		if err := p.remove(); err != nil {
			errs = append(errs, err)
			continue
		}
		removed++
	}
	return removed, errors.Join(errs...)
}
