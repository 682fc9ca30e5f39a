package auth

import "sync"

// callerCache keeps, per process, the users and team memberships requests are built from, each
// under the version Postgres keeps for its user (auth_versions, bumped by triggers on every change of
// a user, its balances, its stores or its memberships, from any process or statement). A request
// reads the versions with its session; an entry whose version differs is loaded again, so a changed
// role, permission, status or balance applies to the very next request on every process. Sessions
// themselves are never cached: a revoked token fails at once.
type callerCache struct {
	mu      sync.Mutex
	max     int
	users   map[int64]cachedUser
	members map[[2]int64]cachedMembership
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
	return &callerCache{max: max, users: map[int64]cachedUser{}, members: map[[2]int64]cachedMembership{}}
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
