package listing

import (
	"encoding/csv"
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

// StreamCSV answers a CSV attachment named name-YYYY-MM-DD.csv (today in UTC) through WriteCSV, every
// cell passed through Cell.
func StreamCSV(c echo.Context, name string, header []string, rows func(write func(row []string) error) error) error {
	filename := fmt.Sprintf("%s-%s.csv", name, time.Now().UTC().Format(time.DateOnly))
	return WriteCSV(c, filename, header, func(write func([]string) error) error {
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
