package auth

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pressroom/pressroom/platform/livecache"
)

// callerCache keeps, per process, the sessions, users and team memberships requests are built from.
//
// Users and memberships are kept under the version Postgres keeps for their user (auth_versions,
// bumped by triggers on every change of a user, its balances, its stores or its memberships, from any
// process or statement); the versions come with the session, and an entry whose version differs is
// loaded again.
//
// Sessions (with those versions) are kept by token hash in a livecache following the auth_changed
// notifications (see Service.FollowChanges and docs/accounts.md, "caller cache"): the triggers send
// "s:<session id>" when a session is revoked, deleted or changed and "u:<user id>" when a user's
// version is bumped, and the sessions they concern are dropped as the notification arrives. While
// the notifications are not followed, each request reads its session from Postgres.
type callerCache struct {
	sessions *livecache.Cache[string, session]
	mu       sync.Mutex
	max      int
	users    map[int64]cachedUser
	members  map[[2]int64]cachedMembership
}

// sessionCacheTTL bounds how long a session is served from the cache: the session's use is noted
// in Postgres at most once a minute (see Store.liveSession), so reading it again once a minute
// keeps that note as it was.
const sessionCacheTTL = time.Minute

type cachedUser struct {
	version int64
	user    User
}

type cachedMembership struct {
	sellerVersion, memberVersion int64
	m                            teamMembership
}

func newCallerCache(max int) *callerCache {
	return &callerCache{
		sessions: livecache.New(max, sessionConcerned), max: max,
		users: map[int64]cachedUser{}, members: map[[2]int64]cachedMembership{},
	}
}

// sessionConcerned says whether a notification concerns a cached session: "s:<session id>" that
// session, "u:<user id>" the sessions acting as that user or on their behalf, "k:<api key id>"
// none; anything else, every session.
func sessionConcerned(payload string, _ string, ss session) bool {
	kind, num, _ := strings.Cut(payload, ":")
	id, err := strconv.ParseInt(num, 10, 64)
	switch {
	case err != nil:
		return true
	case kind == "s":
		return ss.ID == id
	case kind == "u":
		return ss.UserID == id || ss.OriginUserID.Int64 == id
	case kind == "k":
		return false
	}
	return true
}

// dropSession forgets session id at once, for a change this process made itself (the notification
// follows, but the next request may come first).
func (c *callerCache) dropSession(id int64) { c.sessions.Changed("s:" + strconv.FormatInt(id, 10)) }

// dropUser forgets the sessions of user id at once; see dropSession.
func (c *callerCache) dropUser(id int64) { c.sessions.Changed("u:" + strconv.FormatInt(id, 10)) }

// user returns a copy of user id cached at version.
func (c *callerCache) user(id, version int64) (User, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.users[id]
	if !ok || e.version != version {
		return User{}, false
	}
	return e.user, true
}

// putUser keeps u as read at version (read before u was loaded, so u is at least that new).
func (c *callerCache) putUser(version int64, u User) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.users) >= c.max {
		clear(c.users)
	}
	c.users[u.ID] = cachedUser{version: version, user: u}
}

func (c *callerCache) membership(seller, member, sellerVersion, memberVersion int64) (teamMembership, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.members[[2]int64{seller, member}]
	if !ok || e.sellerVersion != sellerVersion || e.memberVersion != memberVersion {
		return teamMembership{}, false
	}
	return e.m, true
}

func (c *callerCache) putMembership(seller, member, sellerVersion, memberVersion int64, m teamMembership) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.members) >= c.max {
		clear(c.members)
	}
	c.members[[2]int64{seller, member}] = cachedMembership{sellerVersion: sellerVersion, memberVersion: memberVersion, m: m}
}
