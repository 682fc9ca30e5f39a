package chromepool

import (
	"bufio"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestStaleProfilesRemovedAtStart starts a pool over a profile folder holding the profile of a process
// killed with SIGKILL, a profile left without any lock, the profile of a live process, one of this
// process and a folder of someone else's: the pool removes the first two, whole, and keeps the others.
func TestStaleProfilesRemovedAtStart(t *testing.T) {
	dir := t.TempDir()
	killed, killedCmd := holdProfile(t, dir)
	if err := killedCmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killedCmd.Wait()
	live, _ := holdProfile(t, dir)
	unlocked := filepath.Join(dir, profilePrefix+"unlocked")
	other := filepath.Join(dir, "other-folder")
	for _, d := range []string{unlocked, other} {
		if err := os.MkdirAll(filepath.Join(d, "Default"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	own, err := newProfile(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer own.remove()

	cfg := DefaultConfig()
	cfg.ProfileDir = dir
	p, err := New(cfg, stubSite(t), "http://127.0.0.1:1", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for path, want := range map[string]bool{killed: false, unlocked: false, live: true, own.path: true, other: true} {
		_, err := os.Stat(path)
		if exists := err == nil; exists != want {
			t.Errorf("%s exists %v after the pool started; want %v", filepath.Base(path), exists, want)
		}
	}
}

// TestHoldProfile is run by holdProfile in a process of its own: it makes a profile in the folder
// PRESSROOM_TEST_HOLD_PROFILE, prints its path and holds it until its standard input closes.
func TestHoldProfile(t *testing.T) {
	dir := os.Getenv("PRESSROOM_TEST_HOLD_PROFILE")
	if dir == "" {
		t.Skip("run by TestStaleProfilesRemovedAtStart")
	}
	p, err := newProfile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.path, "Local State"), make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString(p.path + "\n")
	io.Copy(io.Discard, os.Stdin)
	p.remove()
}

// holdProfile starts a process (this test binary) holding a profile in dir, and returns the profile's
// path and the process, which ends at cleanup.
func holdProfile(t *testing.T, dir string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldProfile$")
	cmd.Env = append(os.Environ(), "PRESSROOM_TEST_HOLD_PROFILE="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the profile holder printed no path: %v", err)
	}
	return strings.TrimSpace(line), cmd
}

// stubSite is a Site over a UI folder with a placeholder 3D page: enough for a pool that renders nothing.
func stubSite(t *testing.T) *Site {
	t.Helper()
	ui := t.TempDir()
	if err := os.WriteFile(filepath.Join(ui, PagePath), []byte("page"), 0o644); err != nil {
		t.Fatal(err)
	}
	site, err := NewSite(ui)
	if err != nil {
		t.Fatal(err)
	}
	return site
}
