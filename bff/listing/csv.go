package listing

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// Cell keeps a spreadsheet from reading a buyer's text as a formula: a value starting with =, +, -,
// @, a tab or a carriage return is written with a leading '.
func Cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// exportFlushEvery is how many rows go out per write to the client.
const exportFlushEvery = 500

// exportName is the file name of an export called name: name-YYYY-MM-DD.ext, today in UTC.
func exportName(name, ext string) string {
	return fmt.Sprintf("%s-%s.%s", name, time.Now().UTC().Format(time.DateOnly), ext)
}

// StreamCSV answers a CSV attachment named name-YYYY-MM-DD.csv (today in UTC) through WriteCSV, every
// cell passed through Cell.
func StreamCSV(c echo.Context, name string, header []string, rows func(write func(row []string) error) error) error {
	return WriteCSV(c, exportName(name, "csv"), header, func(write func([]string) error) error {
		return rows(func(row []string) error {
			for i := range row {
				row[i] = Cell(row[i])
			}
			return write(row)
		})
	})
}

// WriteCSV answers a CSV attachment named filename: header, then each row that rows writes through
// write, as given (a buyer's text goes through Cell first), sent to the client every few hundred
// rows so memory stays flat however many rows there are. Once the first bytes are out the status
// cannot change: an error from rows cuts the file short and goes to the log.
func WriteCSV(c echo.Context, filename string, header []string, rows func(write func(row []string) error) error) error {
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	res.Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s"`, filename))
	res.WriteHeader(http.StatusOK)
	w := csv.NewWriter(res)
	if err := w.Write(header); err != nil {
		return err
	}
	n := 0
	err := rows(func(row []string) error {
		if err := w.Write(row); err != nil {
			return err
		}
		if n++; n%exportFlushEvery == 0 {
			w.Flush()
			res.Flush()
			return w.Error()
		}
		return nil
	})
	w.Flush()
	if err != nil {
		c.Logger().Error(err)
		return nil
	}
	return w.Error()
}

// StreamJSON answers a JSON attachment named name-YYYY-MM-DD.json (today in UTC): an array of each
// value rows writes through write, sent to the client every few hundred values so memory stays flat
// however many there are. As with WriteCSV, an error once the first bytes are out cuts the file
// short (it is then not valid JSON) and goes to the log.
func StreamJSON(c echo.Context, name string, rows func(write func(v any) error) error) error {
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, "application/json; charset=utf-8")
	res.Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s"`, exportName(name, "json")))
	res.WriteHeader(http.StatusOK)
	w := bufio.NewWriter(res)
	enc := json.NewEncoder(w)
	if _, err := w.WriteString("["); err != nil {
		return err
	}
	n := 0
	err := rows(func(v any) error {
		if n > 0 {
			if _, err := w.WriteString(","); err != nil {
				return err
			}
		}
		if err := enc.Encode(v); err != nil {
			return err
		}
		if n++; n%exportFlushEvery == 0 {
			if err := w.Flush(); err != nil {
				return err
			}
			res.Flush()
		}
		return nil
	})
	if err != nil {
		w.Flush()
		c.Logger().Error(err)
		return nil
	}
	if _, err := w.WriteString("]\n"); err != nil {
		return err
	}
	return w.Flush()
}
