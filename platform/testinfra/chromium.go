package testinfra

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Chromium is the browser a test drives: PRESSROOM_CHROMIUM_PATH or /usr/bin/chromium.
func Chromium(t testing.TB) string {
	t.Helper()
	path := os.Getenv("PRESSROOM_CHROMIUM_PATH")
	if path == "" {
		path = "/usr/bin/chromium"
	}
	if _, err := exec.LookPath(path); err != nil {
		unavailable(t, "no Chromium at %s (set PRESSROOM_CHROMIUM_PATH): %v", path, err)
	}
	return path
}

// Tool is the path of a command-line tool a test runs (pdftotext reads a printed PDF's text); scripts/test
// installs the ones the tests use.
func Tool(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		unavailable(t, "%s is not installed (scripts/test installs it): %v", name, err)
	}
	return path
}

// builtUI is the UI built once per test binary (see UI).
var builtUI struct {
	once sync.Once
	dir  string
	err  error
}

// UI is a built UI holding mockup3d.html, the page of the renderer's Chrome pool: PRESSROOM_TEST_UI_DIR
// when set, else ui/ (found above the test's folder) built once per test binary with Vite into a
// temporary folder, which RemoveUI deletes. scripts/test builds the UI only after go-test, so the
// tests build their own.
func UI(t testing.TB) string {
	t.Helper()
	if dir := os.Getenv("PRESSROOM_TEST_UI_DIR"); dir != "" {
		return dir
	}
	ui, err := repoPath("ui")
	if err != nil {
		t.Fatal(err)
	}
	vite := filepath.Join(ui, "node_modules", ".bin", "vite")
	if _, err := os.Stat(vite); err != nil {
		unavailable(t, "ui/node_modules is missing (run npm ci in ui/) or set PRESSROOM_TEST_UI_DIR to a built UI: %v", err)
	}
	builtUI.once.Do(func() {
		builtUI.dir, builtUI.err = os.MkdirTemp("", "pressroom-ui-")
		if builtUI.err != nil {
			return
		}
		cmd := exec.Command(vite, "build", "--outDir", builtUI.dir, "--emptyOutDir", "--logLevel", "warn")
		cmd.Dir = ui
		if out, err := cmd.CombinedOutput(); err != nil {
			builtUI.err = fmt.Errorf("vite build: %w\n%s", err, out)
		}
	})
	if builtUI.err != nil {
		t.Fatal(builtUI.err)
	}
	return builtUI.dir
}

// RemoveUI deletes the UI that UI built, if any; a TestMain calls it after the tests.
func RemoveUI() {
	if builtUI.dir != "" {
		os.RemoveAll(builtUI.dir)
	}
}

// repoPath is name in the repository holding the test's working folder (the one with go.mod).
func repoPath(name string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, name), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("testinfra: no go.mod above the test's folder")
		}
		dir = parent
	}
}
