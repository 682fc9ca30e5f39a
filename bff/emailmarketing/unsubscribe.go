package emailmarketing

import (
	"net/http"
	"regexp"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
)

// Messages of the public unsubscribe link.
const (
	MsgUnsubscribeDone    = "You have been unsubscribed and will get no more of these e-mails."
	MsgUnsubscribeInvalid = "This unsubscribe link is not valid."
)

var uuidText = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// handlePublicUnsubscribe unsubscribes the recipient of the delivery whose token the link carries.
// It is public: the link arrives by e-mail to someone without an account.
func (s *Service) handlePublicUnsubscribe(c echo.Context) error {
	token := c.Param("token")
	if !uuidText.MatchString(token) {
		return envelope.Fail(http.StatusNotFound, MsgUnsubscribeInvalid)
	}
	const q = `UPDATE email_subscribers s SET status = 'unsubscribed', updated_at = now()
FROM email_campaign_deliveries d WHERE d.token = $1 AND s.id = d.subscriber_id`
	res, err := s.d.DB.ExecContext(c.Request().Context(), q, token)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return envelope.Fail(http.StatusNotFound, MsgUnsubscribeInvalid)
	}
	return envelope.OKMessage(c, MsgUnsubscribeDone, nil)
}
