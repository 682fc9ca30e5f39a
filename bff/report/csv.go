package report

import "strings"

// Cell keeps a spreadsheet from reading someone's text as a formula.
func Cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
