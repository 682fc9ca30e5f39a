package bulk

import (
	"context"
	"slices"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/worker/tasks"
)

// idsBody names the records a row action applies to.
type idsBody struct {
	IDs []int64 `json:"ids"`
}

// bindIDs reads the ids of a row action: at least one, at most maxIDsPerCall, duplicates dropped.
func bindIDs(c echo.Context) ([]int64, error) {
	var b idsBody
	if err := envelope.Bind(c, &b); err != nil {
		return nil, err
	}
	if len(b.IDs) == 0 || len(b.IDs) > maxIDsPerCall {
		return nil, invalid(envelope.FieldError{Field: "ids", Message: MsgIDsRequired})
	}
	ids := slices.Clone(b.IDs)
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// change is one row action in a transaction: the records it changed and the outbox rows to send.
type change func(ctx context.Context, tx *sqlx.Tx, ownerID int64, ids []int64) ([]changed, []int64, error)

// act runs ch on ids in a transaction, sends its tasks, and answers per-id results in the order of
// ids: ok for those changed, else refused with why (or 'Record not found' for ids not the owner's).
func (s *Service) act(c echo.Context, ids []int64, ch change, removed bool, refusal string) error {
	ctx := c.Request().Context()
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows, outboxIDs, err := ch(ctx, tx, owner(c), ids)
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.dispatch(ctx, outboxIDs)
	if ids == nil { // start-all, stop-all: the records changed
		for _, r := range rows {
			ids = append(ids, r.ID)
		}
		slices.Sort(ids)
	}
	now, err := statuses(ctx, s.d.DB, owner(c), ids)
	if err != nil {
		return err
	}
	done := make(map[int64]bool, len(rows))
	for _, r := range rows {
		done[r.ID] = true
	}
	out := make([]ActionResult, 0, len(ids))
	for _, id := range ids {
		res := ActionResult{ID: id, OK: done[id], Status: now[id]}
		switch {
		case done[id] && removed:
			res.Status = StatusRemoved
		case done[id]:
		case res.Status == "":
			res.Message = MsgRecordNotFound
		default:
			res.Message = refusal
		}
		out = append(out, res)
	}
	return envelope.OK(c, out)
}

func startChange(all bool) change {
	return func(ctx context.Context, tx *sqlx.Tx, ownerID int64, ids []int64) ([]changed, []int64, error) {
		return requeue(ctx, tx, ownerID, ids, all, []string{tasks.BulkPending, tasks.BulkStopped})
	}
}

func stopChange(all bool) change {
	return func(ctx context.Context, tx *sqlx.Tx, ownerID int64, ids []int64) ([]changed, []int64, error) {
		rows, err := stop(ctx, tx, ownerID, ids, all)
		return rows, nil, err
	}
}

// retryChange queues failed records again: a record that failed before making its campaign gets a
// new attempt of its task; one whose print files failed gets those exports again.
func retryChange(ctx context.Context, tx *sqlx.Tx, ownerID int64, ids []int64) ([]changed, []int64, error) {
	again, outboxIDs, err := requeue(ctx, tx, ownerID, ids, false, []string{tasks.BulkFailed})
	if err != nil {
		return nil, nil, err
	}
	exported, exportIDs, err := reexport(ctx, tx, ownerID, ids)
	if err != nil {
		return nil, nil, err
	}
	return append(again, exported...), append(outboxIDs, exportIDs...), nil
}

func removeChange(ctx context.Context, tx *sqlx.Tx, ownerID int64, ids []int64) ([]changed, []int64, error) {
	rows, err := remove(ctx, tx, ownerID, ids)
	return rows, nil, err
}

func (s *Service) handleStart(c echo.Context) error {
	ids, err := bindIDs(c)
	if err != nil {
		return err
	}
	return s.act(c, ids, startChange(false), false, MsgCannotStart)
}

func (s *Service) handleStop(c echo.Context) error {
	ids, err := bindIDs(c)
	if err != nil {
		return err
	}
	return s.act(c, ids, stopChange(false), false, MsgCannotStop)
}

func (s *Service) handleRetry(c echo.Context) error {
	ids, err := bindIDs(c)
	if err != nil {
		return err
	}
	return s.act(c, ids, retryChange, false, MsgCannotRetry)
}

func (s *Service) handleRemove(c echo.Context) error {
	ids, err := bindIDs(c)
	if err != nil {
		return err
	}
	return s.act(c, ids, removeChange, true, "")
}

func (s *Service) handleStartAll(c echo.Context) error {
	return s.act(c, nil, startChange(true), false, MsgCannotStart)
}

func (s *Service) handleStopAll(c echo.Context) error {
	return s.act(c, nil, stopChange(true), false, MsgCannotStop)
}
