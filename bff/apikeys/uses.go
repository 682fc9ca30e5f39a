package apikeys

import (
	"context"
	"time"
)

// Every admitted request is audited (docs/api.md, "Auditing"). While RecordUses runs, the uses are
// queued and written in batches by it, off the request path; otherwise, or when the queue is full,
// the request writes its own use. No use is dropped: RecordUses writes what is queued when it ends.

// Batching of the use rows: at most useBatch rows per statement, written at least every
// useFlushEvery, with up to useQueue waiting.
const (
	useBatch      = 500
	useFlushEvery = time.Second
	useQueue      = 4096
)

// use is one admitted request of a key.
type use struct {
	keyID, sellerID int64
	ip              string
	detail          []byte
	at              time.Time
}

// record queues u for RecordUses, or writes it at once when no writer runs or the queue is full.
func (s *Service) record(ctx context.Context, u use) {
	s.usesMu.RLock()
	queued := false
	if s.writing {
		select {
		case s.uses <- u:
			queued = true
		default:
		}
	}
	s.usesMu.RUnlock()
	if !queued {
		s.write(ctx, []use{u})
	}
}

// RecordUses writes the queued uses in batches until ctx ends, then writes what is left; requests
// made after that write their own.
func (s *Service) RecordUses(ctx context.Context) error {
	s.usesMu.Lock()
	s.writing = true
	s.usesMu.Unlock()
	tick := time.NewTicker(useFlushEvery)
	defer tick.Stop()
	batch := make([]use, 0, useBatch)
	for {
		select {
		case u := <-s.uses:
			if batch = append(batch, u); len(batch) < useBatch {
				continue
			}
		case <-tick.C:
		case <-ctx.Done():
			s.usesMu.Lock()
			s.writing = false
			s.usesMu.Unlock()
			// No use is queued from here on: write what is.
			for {
				select {
				case u := <-s.uses:
					if batch = append(batch, u); len(batch) == useBatch {
						s.write(context.WithoutCancel(ctx), batch)
						batch = batch[:0]
					}
				default:
					s.write(context.WithoutCancel(ctx), batch)
					return nil
				}
			}
		}
		s.write(context.WithoutCancel(ctx), batch)
		batch = batch[:0]
	}
}

// write records uses in one statement; a failure is logged with what it lost.
func (s *Service) write(ctx context.Context, uses []use) {
	if len(uses) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := s.store.used(ctx, uses); err != nil {
		s.d.Log.Error("api key uses not recorded", "uses", len(uses), "first_key_id", uses[0].keyID, "err", err)
	}
}
