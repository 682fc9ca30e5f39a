package auth

import (
	"strconv"
	"strings"
	"sync"
	"time"
)

// callerCache keeps, per process, the sessions, users and team memberships requests are built from.
//
// Users and memberships are kept under the version Postgres keeps for their user (auth_versions,
// bumped by triggers on every change of a user, its balances, its stores or its memberships, from any
// process or statement); the versions come with the session, and an entry whose version differs is
// loaded again.
//
// Sessions (with those versions) are kept only while the process follows the auth_changed
// notifications (see Service.FollowChanges and docs/accounts.md, "caller cache"): the triggers send
// "s:<session id>" when a session is revoked, deleted or changed and "u:<user id>" when a user's
// version is bumped, and the sessions they concern are dropped as the notification arrives. While
// the notifications are not followed (not started, or the connection lost) no session is served
// from the cache: each request reads its session from Postgres, as it always did. gen counts the
// notifications and losses, so that a session read from Postgres while one arrived is not kept
// (it may have been read before the change the notification announces).
type callerCache struct {
	mu       sync.Mutex
	max      int
	live     bool
	gen      uint64
	sessions map[string]cachedSession // by token hash
	users    map[int64]cachedUser
	members  map[[2]int64]cachedMembership
}

// sessionCacheTTL bounds how long a session is served from the cache: the session's use is noted
// in Postgres at most once a minute (see Store.liveSession), so reading it again once a minute
// keeps that note as it was.
const sessionCacheTTL = time.Minute

type cachedSession struct {
	s session
	// until is when the entry stops being served: the session's expiry or sessionCacheTTL after
	// it was read, whichever comes first.
	until time.Time
}

type cachedUser struct {
	version int64
	user    User
}

type cachedMembership struct {
	sellerVersion, memberVersion int64
	m                            teamMembership
}

func newCallerCache(max int) *callerCache {
	return &callerCache{max: max, sessions: map[string]cachedSession{}, users: map[int64]cachedUser{},
		members: map[[2]int64]cachedMembership{}}
}

// session returns the cached session of a token hash, if the notifications are followed and it is
// still within its time; else the generation to pass to putSession with the session read from Postgres.
func (c *callerCache) session(hash []byte, now time.Time) (session, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live {
		if e, ok := c.sessions[string(hash)]; ok && now.Before(e.until) {
			return e.s, c.gen, true
		}
	}
	return session{}, c.gen, false
}

// putSession keeps ss, read from Postgres after session answered gen, unless a notification arrived
// or the notifications were lost since.
func (c *callerCache) putSession(gen uint64, hash []byte, ss session, until time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live || c.gen != gen {
		return
	}
	if len(c.sessions) >= c.max {
		clear(c.sessions)
	}
	c.sessions[string(hash)] = cachedSession{s: ss, until: until}
}

// dropSession forgets session id at once, for a change this process made itself (the notification
// follows, but the next request may come first).
func (c *callerCache) dropSession(id int64) { c.drop("s", id) }

// dropUser forgets the sessions of user id at once; see dropSession.
func (c *callerCache) dropUser(id int64) { c.drop("u", id) }

// Listening starts serving sessions from the cache: from now on every change is notified.
func (c *callerCache) Listening() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.sessions)
	c.live = true
}

// Lost stops serving sessions from the cache until Listening: changes may go unnoticed.
func (c *callerCache) Lost() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.sessions)
	c.live = false
}

// Changed drops the sessions a notification concerns: "s:<session id>" that session, "u:<user id>"
// the sessions acting as that user or on their behalf; anything else, every session.
func (c *callerCache) Changed(payload string) {
	kind, num, _ := strings.Cut(payload, ":")
	id, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		kind = ""
	}
	c.drop(kind, id)
}

func (c *callerCache) drop(kind string, id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for k, e := range c.sessions {
		switch kind {
		case "s":
			if e.s.ID != id {
				continue
			}
		case "u":
			if e.s.UserID != id && e.s.OriginUserID.Int64 != id {
				continue
			}
		}
		delete(c.sessions, k)
	}
}

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
