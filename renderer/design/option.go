package design

// Design options (campaign_designs.option): a design with a text the customer edits is custom,
// any other is print.
const (
	OptionPrint  = "print"
	OptionCustom = "custom"
)

// Option is OptionCustom when the document has a text the customer edits, else OptionPrint.
func (d *Document) Option() string {
	for _, o := range d.Objects {
		if t, ok := o.(*TextObject); ok && t.IsCustom {
			return OptionCustom
		}
	}
	return OptionPrint
}
