package uploads

import (
	"context"
	"fmt"
)

// SweepAbandoned deletes the files of signed uploads nobody completed, once their signature has
// been expired for SweepGrace (the file can no longer change, and a client that was going to
// complete it has had time to), and reports how many signed uploads it settled.
func (s *Service) SweepAbandoned(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := s.store.sweep(ctx, s.cfg.SweepGrace, func(keys []string) error {
			for _, k := range keys {
				if err := s.d.Store.Delete(ctx, k); err != nil {
					return fmt.Errorf("delete abandoned upload: %w", err)
				}
			}
			return nil
		})
		total += n
		if err != nil || n < sweepBatch {
			return total, err
		}
	}
}
