package database

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/lib/pq"
)

// Follower is told what a Postgres notification channel carries: Listening once the channel is
// listened to (notifications from then on will arrive; any sent before may have been missed),
// Changed for each notification's payload, and Lost as soon as the connection is gone (until the
// next Listening, notifications may be missed). Calls come from one goroutine, in that order.
type Follower interface {
	Listening()
	Changed(payload string)
	Lost()
}

// Followers is one Follower telling each of its followers in turn: several readers of one channel
// share one listening connection.
type Followers []Follower

// Listening tells each follower.
func (fs Followers) Listening() {
	for _, f := range fs {
		f.Listening()
	}
}

// Changed tells each follower.
func (fs Followers) Changed(payload string) {
	for _, f := range fs {
		f.Changed(payload)
	}
}

// Lost tells each follower.
func (fs Followers) Lost() {
	for _, f := range fs {
		f.Lost()
	}
}

// Follow listens to channel on its own connection to cfg.URL until ctx ends, telling f what
// arrives. A dead connection is found within two cfg.NotifyPing (the connection is asked every
// ping) and replaced, after a pause that doubles from a ping up to a minute while Postgres cannot
// be reached.
//
// The connection is named "pressroom <channel>" (application_name in pg_stat_activity).
func Follow(ctx context.Context, cfg Config, channel string, f Follower, log *slog.Logger) error {
	ping := cmp.Or(cfg.NotifyPing, DefaultConfig().NotifyPing)
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return fmt.Errorf("follow %s: %w", channel, err)
	}
	q := u.Query()
	q.Set("application_name", "pressroom "+channel)
	u.RawQuery = q.Encode()
	wait := ping
	for {
		listened, err := followOnce(ctx, u.String(), channel, ping, f)
		f.Lost()
		if listened {
			wait = ping
		}
		if ctx.Err() != nil {
			return nil
		}
		log.Warn("database notifications lost; retrying", "channel", channel, "err", err, "retry_in", wait)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Minute)
	}
}

// followOnce connects, listens and passes notifications to f until the connection fails or ctx
// ends; listened says whether it got as far as listening.
func followOnce(ctx context.Context, dsn, channel string, ping time.Duration, f Follower) (listened bool, err error) {
	ch := make(chan *pq.Notification, 256)
	cn, err := pq.NewListenerConn(dsn, ch)
	if err != nil {
		return false, fmt.Errorf("connect: %w", err)
	}
	defer cn.Close()
	if _, err := cn.Listen(channel); err != nil {
		return false, fmt.Errorf("listen %s: %w", channel, err)
	}
	f.Listening()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The pinger closes the connection when ctx ends or when a ping fails or takes longer than ping
	// (a peer gone without a word); closing ends ch, which ends the loop below.
	go func() {
		tick := time.NewTicker(ping)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				cn.Close()
				return
			case <-tick.C:
				hung := time.AfterFunc(ping, func() { cn.Close() })
				err := cn.Ping()
				hung.Stop()
				if err != nil {
					cn.Close()
					return
				}
			}
		}
	}()
	for n := range ch {
		if n != nil {
			f.Changed(n.Extra)
		}
	}
	if ctx.Err() != nil {
		return true, ctx.Err()
	}
	return true, fmt.Errorf("connection closed: %w", cn.Err())
}
