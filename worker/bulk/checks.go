package bulk

import (
	"bytes"
	"encoding/json"
	"strings"
)

// item is one entry of a record's designs: the artwork new_url goes on print_space.
type item struct {
	NewURL     string
	PrintSpace string
}

// invalid is a record that fails a check; msg is what the row shows.
type invalid struct{ msg string }

func (e *invalid) Error() string { return e.msg }

// parseItems runs the first three record checks (docs/bulk.md) on a record's designs text: it must parse
// to a non-empty array ('Designs is invalid'), every entry needs a new_url ('Design url is
// invalid'), and an entry without print_space is only allowed when it is the only one ('Design is
// invalid', also for two entries on one print space). The one entry without a print space comes back with PrintSpace empty.
func parseItems(designs string) ([]item, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(designs), &raw); err != nil || len(raw) == 0 {
		return nil, &invalid{MsgDesignsInvalid}
	}
	entries := make([]map[string]json.RawMessage, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &entries[i]); err != nil || entries[i] == nil {
			return nil, &invalid{MsgDesignsInvalid}
		}
	}
	items := make([]item, len(entries))
	for i, e := range entries {
		u, ok := text(e["new_url"])
		if !ok || strings.TrimSpace(u) == "" {
			return nil, &invalid{MsgDesignURLInvalid}
		}
		items[i].NewURL = strings.TrimSpace(u)
	}
	seen := make(map[string]bool, len(entries))
	for i, e := range entries {
		ps, _ := text(e["print_space"])
		items[i].PrintSpace = strings.TrimSpace(ps)
		// Two artworks for one print space are as ambiguous as one without a print space.
		if (items[i].PrintSpace == "" && len(items) > 1) || seen[items[i].PrintSpace] {
			return nil, &invalid{MsgDesignInvalid}
		}
		seen[items[i].PrintSpace] = true
	}
	return items, nil
}

// text reads a JSON string; null, a missing value or another type is not one.
func text(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || !bytes.HasPrefix(bytes.TrimSpace(raw), []byte(`"`)) {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}
