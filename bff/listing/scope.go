package listing

import (
	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
)

// Scope is whose rows a caller sees: the account's, and when Limited only those of Stores. The zero
// Scope is every account's, for admins, in the queries that allow it (the orders' scope reads $1 = 0 so).
type Scope struct {
	SellerID int64
	Limited  bool
	Stores   []int64
}

// Args are the scope's query arguments in order: the seller, whether the caller is limited to some
// stores, and those stores; a query reads them as $1, $2 and $3, as in
// "o.seller_id = $1 AND (NOT $2 OR o.store_id = ANY($3))".
func (sc Scope) Args() []any { return []any{sc.SellerID, sc.Limited, pq.Array(sc.Stores)} }

// ScopeOf is the scope of the signed-in caller: the account it works in, limited to the caller's
// stores when the store filter applies (access.StoreFilter).
func ScopeOf(c echo.Context, db *sqlx.DB) (Scope, error) {
	u := auth.Caller(c).User
	sc := Scope{SellerID: u.ID}
	au := u.Access()
	if !au.AccessUser || (len(au.StoreIDs) == 0 && len(au.TeamStoreIDs) == 0) {
		return sc, nil
	}
	var ids []int64
	if err := db.SelectContext(c.Request().Context(), &ids, `SELECT id FROM stores WHERE owner_id = $1`, u.ID); err != nil {
		return Scope{}, err
	}
	sc.Limited, sc.Stores = true, access.StoreFilter(au, ids)
	return sc, nil
}
