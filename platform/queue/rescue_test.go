package queue

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/testinfra"
)

const blockType = "test:block"

// TestRescueRequeuesADeadServersTask runs a task in a server process, kills the process with SIGKILL
// and checks rescueOrphans: nothing is taken from the server while it lives (even with its lease
// looking stale), the task goes back to its queue once the dead server's list has expired, a live
// server runs it again as the same attempt, and a task rescued maxRescues times is left to Asynq.
func TestRescueRequeuesADeadServersTask(t *testing.T) {
	addr, db := testinfra.Redis(t)
	cfg := DefaultConfig()
	cfg.RedisAddr, cfg.RedisDB = addr, db
	rdb := cfg.NewRedisClient()
	defer rdb.Close()
	insp := asynq.NewInspectorFromRedisClient(rdb)
	client := asynq.NewClientFromRedisClient(rdb)
	q := Name(Renderer, Interactive)
	queues := []string{q}
	ctx := context.Background()

	enqueue := func(id string) {
		t.Helper()
		if _, err := client.Enqueue(asynq.NewTask(blockType, nil, asynq.Queue(q), asynq.TaskID(id), asynq.MaxRetry(3))); err != nil {
			t.Fatal(err)
		}
	}
	enqueue("rescue-1")
	child, running := startBlockingServer(t, cfg)
	if id := <-running; id != "rescue-1" {
		t.Fatalf("the server process runs %q; want rescue-1", id)
	}
	// While the server lives, its list names the task: even a lease that looks stale is left alone.
	waitFor(t, "the server to list its running task", func() bool { return lists(t, insp, child.Process.Pid, "rescue-1") })
	if n, err := rescueOrphans(ctx, rdb, insp, queues, time.Now().Add(leaseDuration)); err != nil || n != 0 {
		t.Fatalf("rescue while the server lives: %d requeued, %v; want none", n, err)
	}
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	// Killed: its list expires within two heartbeats.
	waitFor(t, "the dead server's list to expire", func() bool { return !lists(t, insp, child.Process.Pid, "") })
	stale := time.Now().Add(orphanAfter + time.Second)
	if n, err := rescueOrphans(ctx, rdb, insp, queues, stale); err != nil || n != 1 {
		t.Fatalf("rescue after the kill: %d requeued, %v; want 1", n, err)
	}
	if info, err := insp.GetTaskInfo(q, "rescue-1"); err != nil || info.State != asynq.TaskStatePending {
		t.Fatalf("the rescued task: %+v, %v; want pending", info, err)
	}
	if n, err := rescueOrphans(ctx, rdb, insp, queues, stale); err != nil || n != 0 {
		t.Fatalf("second rescue: %d requeued, %v; want none", n, err)
	}

	// A live server runs it again, as the same attempt (a rescue is not a failure).
	retries := make(chan int, 1)
	srv := NewServer(cfg, Renderer, 1, slog.New(slog.DiscardHandler))
	if err := srv.Start(asynq.HandlerFunc(func(ctx context.Context, task *asynq.Task) error {
		n, _ := asynq.GetRetryCount(ctx)
		retries <- n
		return nil
	})); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-retries:
		if n != 0 {
			t.Errorf("the rerun is retry %d; want 0", n)
		}
	case <-time.After(time.Minute):
		t.Fatal("the rescued task did not run again")
	}
	srv.Shutdown()

	// A task already rescued maxRescues times stays for Asynq's recoverer, which counts the losses.
	enqueue("rescue-2")
	child, running = startBlockingServer(t, cfg)
	<-running
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()
	rdb.Set(ctx, "pressroom:rescued:{"+q+"}:rescue-2", maxRescues, time.Minute)
	waitFor(t, "the dead server's list to expire", func() bool { return !lists(t, insp, child.Process.Pid, "") })
	if n, err := rescueOrphans(ctx, rdb, insp, queues, stale); err != nil || n != 0 {
		t.Fatalf("rescue of a task rescued %d times: %d requeued, %v; want none", maxRescues, n, err)
	}
	if info, err := insp.GetTaskInfo(q, "rescue-2"); err != nil || info.State != asynq.TaskStateActive {
		t.Fatalf("the task rescued too often: %+v, %v; want still active", info, err)
	}
}

// TestBlockingServer is run by startBlockingServer in a process of its own: a renderer queue server,
// on the Redis of PRESSROOM_TEST_BLOCKING_REDIS (addr/db), whose tasks print their id and block.
func TestBlockingServer(t *testing.T) {
	target := os.Getenv("PRESSROOM_TEST_BLOCKING_REDIS")
	if target == "" {
		t.Skip("run by TestRescueRequeuesADeadServersTask")
	}
	addr, db, _ := strings.Cut(target, "/")
	cfg := DefaultConfig()
	cfg.RedisAddr = addr
	cfg.RedisDB, _ = strconv.Atoi(db)
	srv := NewServer(cfg, Renderer, 1, slog.New(slog.DiscardHandler))
	if err := srv.Start(asynq.HandlerFunc(func(ctx context.Context, task *asynq.Task) error {
		id, _ := asynq.GetTaskID(ctx)
		os.Stdout.WriteString(id + "\n")
		<-ctx.Done()
		return ctx.Err()
	})); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, os.Stdin) // until the test ends or kills us
	srv.Shutdown()
}

// startBlockingServer starts TestBlockingServer; the channel gives the id of each task it starts.
func startBlockingServer(t *testing.T, cfg Config) (*exec.Cmd, <-chan string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBlockingServer$")
	cmd.Env = append(os.Environ(), "PRESSROOM_TEST_BLOCKING_REDIS="+cfg.RedisAddr+"/"+strconv.Itoa(cfg.RedisDB))
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
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	ids := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if id := strings.TrimSpace(sc.Text()); id != "" && !strings.HasPrefix(id, "PASS") && !strings.HasPrefix(id, "ok") {
				ids <- id
			}
		}
	}()
	return cmd, ids
}

// lists reports whether a live server of process pid lists task id as running (any task when id is
// empty).
func lists(t *testing.T, insp *asynq.Inspector, pid int, id string) bool {
	t.Helper()
	servers, err := insp.Servers()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range servers {
		if s.PID != pid {
			continue
		}
		if id == "" {
			return true
		}
		for _, w := range s.ActiveWorkers {
			if w.TaskID == id {
				return true
			}
		}
	}
	return false
}

// waitFor polls cond until it holds, failing after a minute (a bound for hangs, not a timing check).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}
