package listing

import "strings"

// LikeEscape makes s match itself in a LIKE pattern written with ESCAPE '\'.
func LikeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Prefix is the pattern of what starts with s, any case (compare with lower(column)).
func Prefix(s string) string { return strings.ToLower(LikeEscape(s)) + "%" }

// Inside is the pattern of what holds s (compare with ILIKE).
func Inside(s string) string { return "%" + LikeEscape(s) + "%" }
