package mockuptask

import (
	"context"
	"errors"
	"image/color"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
)

// requeue runs Requeue in a transaction of its own.
func (f *fixture) requeue(t *testing.T, campaignID, mockupID int64) (int64, error) {
	t.Helper()
	tx, err := f.db.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	id, err := Requeue(context.Background(), tx, campaignID, mockupID)
	if err != nil {
		return 0, err
	}
	return id, tx.Commit()
}

func TestRequeueFailedMockup(t *testing.T) {
	f := newFixture(t)
	f.queue(t, 1, queue.Bulk)
	m := f.mockups(t)[0]
	if _, err := f.requeue(t, f.campaignID, m.ID); err != nil {
		t.Fatalf("requeue of a pending mockup: %v, want nothing done", err)
	}
	// The print file is missing: the mockup fails for good.
	f.store.Delete(context.Background(), "print/1/front.png")
	if err := f.run(t, m.ID, 1); err == nil {
		t.Fatal("render without a print file succeeded")
	}
	if got := f.mockups(t)[0]; got.Status != StatusFailed || got.Error != MsgMissingPrint {
		t.Fatalf("row = %+v, want failed with %q alone", got, MsgMissingPrint)
	}

	if _, err := f.requeue(t, f.campaignID+1, m.ID); !errors.Is(err, ErrMockupNotFound) {
		t.Fatalf("requeue through another campaign: %v, want ErrMockupNotFound", err)
	}
	oid, err := f.requeue(t, f.campaignID, m.ID)
	if err != nil || oid == 0 {
		t.Fatalf("requeue: %d, %v", oid, err)
	}
	// a second request while it is queued adds nothing
	if again, err := f.requeue(t, f.campaignID, m.ID); err != nil || again != 0 {
		t.Fatalf("second requeue: %d, %v, want nothing added", again, err)
	}
	task := f.outbox(t, []int64{oid})[0]
	if want := "mockup-" + itoa(m.ID) + "-r1-retry1"; task.Type != TypeMockup || task.TaskID != want || task.Queue != "renderer.interactive" {
		t.Fatalf("outbox task = %+v, want %s %s on renderer.interactive", task, TypeMockup, want)
	}
	if got := f.mockups(t)[0]; got.Status != StatusPending || got.Error != "" {
		t.Fatalf("row after requeue = %+v, want pending", got)
	}

	// The print file is back: the queued task makes the mockup.
	put(t, f.store, "print/1/front.png", solid(t, 450, 540, color.NRGBA{220, 20, 30, 255}))
	if err := f.h.ProcessTask(context.Background(), asynq.NewTask(task.Type, task.Payload)); err != nil {
		t.Fatal(err)
	}
	if got := f.mockups(t)[0]; got.Status != StatusDone {
		t.Fatalf("row after the retry's render = %+v, want done", got)
	}
	if _, err := f.requeue(t, f.campaignID, m.ID); !errors.Is(err, ErrNotFailed) {
		t.Fatalf("requeue of a done mockup: %v, want ErrNotFailed", err)
	}
}

func TestRequeueFailed3DMockup(t *testing.T) {
	f := newFixture(t)
	f.queue(t, 1, queue.Interactive)
	m := f.mockups(t)[2]
	if m.TemplateID != f.back3 {
		t.Fatalf("mockup %+v, want the 3D template's", m)
	}
	f.db.MustExec(`UPDATE campaign_mockups SET status = 'failed', error = 'x' WHERE id = $1`, m.ID)
	oid, err := f.requeue(t, f.campaignID, m.ID)
	if err != nil || oid == 0 {
		t.Fatalf("requeue: %d, %v", oid, err)
	}
	task := f.outbox(t, []int64{oid})[0]
	if want := "mockup3d-" + itoa(m.ID) + "-r1-retry1"; task.Type != TypeMockup3D || task.TaskID != want || task.Queue != "renderer.interactive" {
		t.Fatalf("outbox task = %+v, want %s %s on renderer.interactive", task, TypeMockup3D, want)
	}
}

func TestRequeueRefusesAChangedDesign(t *testing.T) {
	f := newFixture(t)
	f.queue(t, 1, queue.Interactive)
	m := f.mockups(t)[0]
	f.db.MustExec(`UPDATE campaign_mockups SET status = 'failed', error = 'x' WHERE id = $1`, m.ID)
	// saved again: revision 2's print file is still being made
	f.db.MustExec(`UPDATE campaign_designs SET revision = 2, export_status = 'pending' WHERE id = $1`, f.design)
	if _, err := f.requeue(t, f.campaignID, m.ID); !errors.Is(err, ErrDesignChanged) {
		t.Fatalf("requeue of an outdated mockup: %v, want ErrDesignChanged", err)
	}
	if got := f.mockups(t)[0]; got.Status != StatusFailed {
		t.Fatalf("refused requeue changed the row: %+v", got)
	}
}
