package campaigns

import (
	"context"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/livecache"
)

// listsChannel is the notification channel of the campaign list triggers (schema/migrations): a
// payload "u:<owner id>" for any change that shows on that owner's list, "*" for all lists.
const listsChannel = "campaign_lists_changed"

// listKey is one page of one owner's campaign list, as asked.
type listKey struct {
	owner  int64
	q      envelope.ListQuery
	filter string
}

// key is the filter as a comparable value, for listKey.
func (f listFilter) key() string {
	return strings.Join(f.Kinds, ",") + "|" + strings.Join(f.Types, ",") + "|" + strings.Join(f.Statuses, ",")
}

// listPageConcerned says whether a notification concerns a cached page.
func listPageConcerned(payload string, k listKey, _ []byte) bool {
	id, err := strconv.ParseInt(strings.TrimPrefix(payload, "u:"), 10, 64)
	return err != nil || !strings.HasPrefix(payload, "u:") || id == k.owner
}

// newListCache keeps encoded campaign list pages while the process follows listsChannel.
func newListCache() *livecache.Cache[listKey, []byte] { return livecache.New(2000, listPageConcerned) }

// FollowChanges follows the notifications of changes to campaign lists until ctx ends, so that
// their pages are served from the process cache while it can (docs/performance.md).
func (s *Service) FollowChanges(ctx context.Context, db database.Config) error {
	return database.Follow(ctx, db, listsChannel, s.lists, s.d.Log)
}

// forgetLists drops the cached list pages of the caller's account after a change this process
// made, whether it succeeded or not: the notification follows the commit, but the next request
// may come first.
func (s *Service) forgetLists(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		s.lists.Changed("u:" + strconv.FormatInt(owner(c), 10))
		return err
	}
}
