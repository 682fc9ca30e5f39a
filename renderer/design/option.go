package design

// Design options (campaign_designs.option): a design with an object the customer fills is custom,
// any other is print.
const (
	OptionPrint  = "print"
	OptionCustom = "custom"
)

// Option is OptionCustom when the document has an object the customer fills, else OptionPrint.
func (d *Document) Option() string {
	if len(d.Fields()) > 0 {
		return OptionCustom
	}
	return OptionPrint
}
