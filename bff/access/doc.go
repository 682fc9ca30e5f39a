// Package access decides who may do what: roles, tags, named
// permissions, the e-mail verification rule, the menu a user sees, the store filter, the store
// domain and the login endpoint. Each rule is one function here; the UI mirrors them in
// ui/src/access for its menus, and schema/testdata/access/rules.json keeps the two in agreement.
//
// It is pure: no HTTP, no database. Route declarations (Need) live here too, so the bff's guard
// middleware and the route-table test read the same value; enforcing them is bff/auth's job.
package access
