package listing

import (
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
)

// Values reads a list filter given as name[] or name, repeated or comma-separated, blanks dropped:
// status[]=a&status[]=b, status=a,b and status=a&status=b all read as [a b].
func Values(c echo.Context, name string) []string {
	p := c.QueryParams()
	var out []string
	for _, v := range append(slices.Clone(p[name+"[]"]), p[name]...) {
		for part := range strings.SplitSeq(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}
