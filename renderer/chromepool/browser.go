package chromepool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"
)

// browser is one Chromium process with its own profile and process group.
type browser struct {
	ctx     context.Context // the browser's chromedp context: done when the process is gone
	cancel  context.CancelFunc
	alloc   context.CancelFunc // cancels the allocator and waits for the process to be reaped
	pid     int
	profile *profile
	renders int
	tab     *tab // the open tab, kept between renders while Config.RendersPerTab allows
}

// startBrowser starts Chromium with a fresh temporary profile in a process group of its own.
func startBrowser(cfg Config) (*browser, error) {
	profile, err := newProfile(cfg.profileDir())
	if err != nil {
		return nil, err
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(cfg.ExecPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		// WebGL through SwiftShader: the machines have no GPU.
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.UserDataDir(profile.path),
		chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
			// Its own group, so stop kills every helper process with the main one; and killed with us.
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		}),
	)
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	b := &browser{ctx: ctx, cancel: cancel, alloc: allocCancel, profile: profile}
	if err := chromedp.Do(ctx); err != nil {
		b.stop()
		return nil, fmt.Errorf("chromepool: start %s: %w", cfg.ExecPath, err)
	}
	b.pid = chromedp.FromContext(ctx).Browser.Process().Pid
	return b, nil
}

// alive reports whether the browser process is still connected.
func (b *browser) alive() bool { return b.ctx.Err() == nil }

// stop kills the browser's process group, waits until the main process is reaped and removes the profile.
// A graceful close buys nothing: the profile is thrown away.
func (b *browser) stop() error {
	if b.tab != nil {
		b.tab.close()
		b.tab = nil
	}
	if b.pid > 0 {
		if err := syscall.Kill(-b.pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			return fmt.Errorf("chromepool: kill browser group %d: %w", b.pid, err)
		}
	}
	b.cancel()
	b.alloc()
	if b.pid > 0 {
		reapGroup(b.pid)
	}
	return b.profile.remove()
}

// reapGroup kills what is left of process group pgid and reaps the members that became our children.
// Chromium's helpers outlive a killed main process and are handed to the nearest subreaper: the pool
// makes this process one (see New), because an init that does not reap (as in some containers) would
// otherwise keep them as zombies. It gives up after two seconds; a member in uninterruptible sleep can
// take that long to die.
func reapGroup(pgid int) {
	self := os.Getpid()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		// A helper forked while the group was being killed joins the same group: kill it too.
		syscall.Kill(-pgid, syscall.SIGKILL)
		members := groupMembers(pgid)
		if len(members) == 0 {
			reapCrashHandlers(self)
			return
		}
		for pid, ppid := range members {
			if ppid == self {
				var ws syscall.WaitStatus
				syscall.Wait4(pid, &ws, 0, nil)
			}
		}
	}
}

// reapCrashHandlers kills and reaps this process's children named chrome_crashpad. Chromium starts its
// crash handler in a session of its own, outside the group reapGroup kills, and as a subreaper this process
// inherits it; a handler of another browser of the pool only stops collecting crash dumps, which the pool
// never reads (--disable-crashpad-for-testing would avoid the handler, but with it pages did not load on Chromium 156).
func reapCrashHandlers(self int) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, _, ok := procStat(pid)
		if !ok || ppid != self {
			continue
		}
		if comm, err := os.ReadFile("/proc/" + e.Name() + "/comm"); err != nil || strings.TrimSpace(string(comm)) != "chrome_crashpad" {
			continue
		}
		syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
	}
}

// groupMembers maps each process of group pgid to its parent, from /proc.
func groupMembers(pgid int) map[int]int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	members := map[int]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, pgrp, ok := procStat(pid)
		if ok && pgrp == pgid {
			members[pid] = ppid
		}
	}
	return members
}

// procStat reads a process's parent and process group from /proc/PID/stat.
func procStat(pid int) (ppid, pgrp int, ok bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after the last ')'.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 3 {
		return 0, 0, false
	}
	ppid, err1 := strconv.Atoi(fields[1])
	pgrp, err2 := strconv.Atoi(fields[2])
	return ppid, pgrp, err1 == nil && err2 == nil
}

// becomeSubreaper makes orphaned descendants (a dead browser's helpers) children of this process, so
// reapGroup can reap them.
func becomeSubreaper() error {
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return fmt.Errorf("chromepool: become a child subreaper: %w", errno)
	}
	return nil
}
