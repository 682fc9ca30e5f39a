package campaigns

import (
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pressroom/pressroom/platform/blob"
)

// The names files download under (docs/editor.md#downloads): what the file is, never its storage
// key. They are made here, where the download URL is signed, and carried by the URL itself (the
// store answers Content-Disposition with them): a browser ignores a link's download attribute for
// another origin, such as an S3 bucket's, so only the signed URL names an S3 download.

// campaignNameRunes is the most of a campaign's name a file name keeps.
const campaignNameRunes = 80

// printFileName is a print file's download name: "Summer tee - T-shirt - front - r3.png".
func printFileName(campaign, product, printSpace string, revision int64, key string) string {
	return downloadName(key, campaign, product, printSpace, "r"+strconv.FormatInt(revision, 10))
}

// mockupFileName is a mockup's download name: "Summer tee - T-shirt, front - mockup.png".
func mockupFileName(campaign, mockup, key string) string {
	return downloadName(key, campaign, mockup, "mockup")
}

// downloadName joins what a file is (parts, the first a campaign's name) with " - " and adds the
// extension of its blob key. Characters file systems refuse become spaces; the campaign's name is
// cut to campaignNameRunes characters, and further when the whole name would pass the length a
// file system takes (blob.MaxFileNameLength bytes).
func downloadName(key string, parts ...string) string {
	ext := strings.ToLower(path.Ext(key))
	if len(ext) < 3 || len(ext) > 6 {
		ext = ".png"
	}
	rest := make([]string, 0, len(parts))
	for _, p := range parts[1:] {
		if p = fileSafe(p); p != "" {
			rest = append(rest, p)
		}
	}
	tail := strings.Join(rest, " - ") + ext
	if len(rest) > 0 {
		tail = " - " + tail
	}
	first := []rune(fileSafe(parts[0]))
	first = first[:min(len(first), campaignNameRunes)]
	for len(first) > 0 && len(string(first))+len(tail) > blob.MaxFileNameLength {
		first = first[:len(first)-1]
	}
	name := strings.TrimSpace(string(first))
	if name == "" {
		name = "Campaign"
	}
	return name + tail
}

// fileSafe replaces the characters file systems refuse (control characters, \ / : * ? " < > |)
// and invalid UTF-8 with spaces, and collapses runs of spaces.
func fileSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) || strings.ContainsRune(`\/:*?"<>|`, r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
