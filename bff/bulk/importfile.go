package bulk

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"unicode/utf8"
)

// Columns of an imported file (docs/campaigns.md#import); name and artwork are required, and a row
// names a template campaign or products.
var importColumns = []string{"key", "name", "template_campaign", "products", "artwork", "print_space", "store", "margin", "price"}

// Limits of an imported file.
const (
	maxImportRows  = 1000
	maxImportBytes = 900 << 10 // below the bff's body limit (PRESSROOM_HTTP_BODY_LIMIT, 1M), with room for the form
	maxImportKey   = 200
)

// importRow is a row of an imported file as read: Line is the file's line the row starts on,
// problems what reading it found (an unknown field, a value of the wrong type).
type importRow struct {
	Line             int
	Key              string
	Name             string
	TemplateCampaign string
	Products         []string
	Artwork          string
	PrintSpace       string
	Store            string
	Margin           string
	Price            string
	problems         []string
}

// errImportFile is a file that cannot be read as rows at all; its message says why.
type errImportFile struct{ msg string }

func (e *errImportFile) Error() string { return e.msg }

func fileError(format string, args ...any) error { return &errImportFile{fmt.Sprintf(format, args...)} }

// readImport reads an imported file's rows: JSON when its name ends in .json or it starts with
// "[", CSV otherwise. A file that is empty, too large, not UTF-8, or not rows at all is refused
// as a whole; a row's own problems are kept on the row for its report.
func readImport(name string, data []byte) ([]importRow, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return nil, fileError("The file is empty.")
	case len(data) > maxImportBytes:
		return nil, fileError("The file may not be larger than 900 KiB; split it.")
	case !utf8.Valid(data):
		return nil, fileError("The file must be UTF-8 text.")
	}
	var rows []importRow
	var err error
	if strings.EqualFold(path.Ext(name), ".json") || bytes.HasPrefix(bytes.TrimSpace(data), []byte("[")) {
		rows, err = readJSONRows(data)
	} else {
		rows, err = readCSVRows(data)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case len(rows) == 0:
		return nil, fileError("The file has no rows.")
	case len(rows) > maxImportRows:
		return nil, fileError("At most %d rows can be imported at once; this file has %d. Split it.", maxImportRows, len(rows))
	}
	return rows, nil
}

// set puts value in the row's field column.
func (r *importRow) set(column, value string) {
	value = strings.TrimSpace(value)
	switch column {
	case "key":
		r.Key = value
	case "name":
		r.Name = value
	case "template_campaign":
		r.TemplateCampaign = value
	case "products":
		r.Products = splitList(value)
	case "artwork":
		r.Artwork = value
	case "print_space":
		r.PrintSpace = value
	case "store":
		r.Store = value
	case "margin":
		r.Margin = value
	case "price":
		r.Price = value
	}
}

// splitList reads a list written in one cell: items separated by ";" or "|", blanks dropped.
func splitList(v string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ';' || r == '|' }) {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// readCSVRows reads a CSV with a header row naming importColumns (any case, any order).
func readCSVRows(data []byte) ([]importRow, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, csvError(err)
	}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		switch {
		case !slices.Contains(importColumns, h):
			return nil, fileError("The column %q is not one Pressroom imports; the columns are %s.", header[i], strings.Join(importColumns, ", "))
		case slices.Contains(header[:i], h):
			return nil, fileError("The column %s appears twice.", h)
		}
		header[i] = h
	}
	for _, need := range []string{"name", "artwork"} {
		if !slices.Contains(header, need) {
			return nil, fileError("The file has no %s column; the first row must name the columns (%s).", need, strings.Join(importColumns, ", "))
		}
	}
	var rows []importRow
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(err)
		}
		line, _ := r.FieldPos(0)
		row := importRow{Line: line}
		if len(rec) > len(header) {
			row.problems = append(row.problems, fmt.Sprintf("The row has %d values but the header names %d columns.", len(rec), len(header)))
		}
		for i, v := range rec[:min(len(rec), len(header))] {
			row.set(header[i], v)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// csvError says where a CSV cannot be read.
func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fileError("The CSV cannot be read at line %d: %v.", pe.Line, pe.Err)
	}
	return fileError("The CSV cannot be read: %v.", err)
}

// readJSONRows reads a JSON array of objects whose keys are importColumns; template_campaign,
// store, margin and price may be text or numbers, products a list or one text.
func readJSONRows(data []byte) ([]importRow, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	notRows := fileError(`A JSON file must be an array of rows: [{"name": "...", "artwork": "...", "products": ["T-shirt"]}].`)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, notRows
	}
	var rows []importRow
	for dec.More() {
		line := lineAt(data, dec.InputOffset())
		var fields map[string]json.RawMessage
		if err := dec.Decode(&fields); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return nil, fileError("The row at line %d is not an object of fields.", line)
			}
			return nil, fileError("The JSON cannot be read after line %d: %v.", line, err)
		}
		row := importRow{Line: line}
		keys := make([]string, 0, len(fields))
		for k := range fields {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !slices.Contains(importColumns, k) {
				row.problems = append(row.problems, fmt.Sprintf("The field %q is not one Pressroom imports.", k))
				continue
			}
			if problem := row.setJSON(k, fields[k]); problem != "" {
				row.problems = append(row.problems, problem)
			}
		}
		rows = append(rows, row)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fileError("The JSON cannot be read at its end: %v.", err)
	}
	return rows, nil
}

// setJSON puts a JSON value in the row's field column: text or a number, and for products also a
// list of them; null leaves the field empty. It answers the problem with the value, if any.
func (r *importRow) setJSON(column string, raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return ""
	}
	if column == "products" && len(raw) > 0 && raw[0] == '[' {
		const msg = "The field products must be a list of product names or ids."
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return msg
		}
		for _, it := range items {
			v, ok := scalar(it)
			if !ok {
				return msg
			}
			if v = strings.TrimSpace(v); v != "" {
				r.Products = append(r.Products, v)
			}
		}
		return ""
	}
	v, ok := scalar(raw)
	if !ok {
		return "The field " + column + " must be text or a number."
	}
	r.set(column, v)
	return ""
}

// scalar is a JSON string's text or a number's literal ("11.49" stays 11.49, never a float).
func scalar(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", false
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err == nil
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&n); err != nil {
		return "", false
	}
	return n.String(), true
}

// lineAt is the line of the first character after offset that is not a space or a comma.
func lineAt(data []byte, offset int64) int {
	i := int(offset)
	for i < len(data) && strings.ContainsRune(" \t\r\n,", rune(data[i])) {
		i++
	}
	return 1 + bytes.Count(data[:min(i, len(data))], []byte("\n"))
}
