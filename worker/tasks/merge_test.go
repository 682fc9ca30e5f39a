package tasks

import (
	"slices"
	"testing"
)

// TestMerge fills merge fields: values escaped as HTML text in a body, fallbacks for empty values,
// unknown names left as written, line breaks of a subject made spaces.
func TestMerge(t *testing.T) {
	values := map[string]string{MergeFirstName: `<b>Ada</b> & "co"`, MergeLastName: "", MergeStoreName: "Shop\r\nBcc: x"}
	body := `<p>Hi {{ first_name }} {{last_name|there}} {{last_name}}, {{nickname|pal}}</p>`
	if got, want := MergeHTML(body, values), `<p>Hi &lt;b&gt;Ada&lt;/b&gt; &amp; &#34;co&#34; there , {{nickname|pal}}</p>`; got != want {
		t.Fatalf("MergeHTML = %q, want %q", got, want)
	}
	if got, want := MergeSubject("{{store_name}}: {{first_name|Hi}}", values), `Shop  Bcc: x: <b>Ada</b> & "co"`; got != want {
		t.Fatalf("MergeSubject = %q, want %q", got, want)
	}
	if got := UnknownMergeFields("{{nickname}} {{ first_name }}", "{{nickname|x}} {{city}}"); !slices.Equal(got, []string{"nickname", "city"}) {
		t.Fatalf("UnknownMergeFields = %q", got)
	}
	samples := SampleMergeValues()
	if len(samples) != len(MergeFields) || samples[MergeFirstName] != "Ada" || samples[MergeUnsubscribeURL] != "#unsubscribe" {
		t.Fatalf("SampleMergeValues = %v", samples)
	}
}
