package uploads

import (
	"crypto/rand"
	"encoding/hex"
	"path"
	"strconv"
	"strings"

	"github.com/pressroom/pressroom/platform/uploadcheck"
)

// MsgFileType is the refusal of a file name with another extension (uploadcheck's, the one rule).
const MsgFileType = uploadcheck.MsgFileType

// defaultFolder is where uploads go when the caller names no folder.
const defaultFolder = "uploads"

// Bounds on the parts of a key the caller chooses.
const (
	maxFolderDepth = 3
	maxNameLength  = 100
)

// cleanSegment keeps the characters a blob key allows, turning others into '-', and trims what
// would be an empty, "." or ".." segment.
func cleanSegment(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), ".-")
	return out
}

// cleanFolder turns the caller's filePath into at most maxFolderDepth clean segments, or the
// default folder.
func cleanFolder(filePath string) string {
	var segs []string
	for seg := range strings.SplitSeq(strings.ReplaceAll(filePath, "\\", "/"), "/") {
		if seg = cleanSegment(seg); seg != "" && len(segs) < maxFolderDepth {
			segs = append(segs, truncate(seg, 50))
		}
	}
	if len(segs) == 0 {
		return defaultFolder
	}
	return strings.Join(segs, "/")
}

// cleanName is the file's base name made key-safe, with its extension lower-cased.
func cleanName(fileName string) string {
	base := path.Base(strings.ReplaceAll(fileName, "\\", "/"))
	ext := ""
	if e := cleanSegment(strings.ToLower(strings.TrimPrefix(path.Ext(base), "."))); e != "" {
		ext = "." + truncate(e, 10)
	}
	stem := cleanSegment(strings.TrimSuffix(base, path.Ext(base)))
	if stem == "" {
		stem = "file"
	}
	return truncate(stem, maxNameLength-len(ext)) + ext
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// randomPart is 128 random bits: what makes a file URL unguessable.
func randomPart() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// userPrefix is where user id's uploads live.
func userPrefix(userID int64) string { return "u/" + strconv.FormatInt(userID, 10) + "/" }

// publicPrefix is where uploads without a session live.
const publicPrefix = "public/"

// UserKey is the key of a new upload of fileName by user id into the caller's folder filePath:
// u/{userId}/{folder}/{random}-{name}.
func UserKey(userID int64, filePath, fileName string) string {
	return userPrefix(userID) + cleanFolder(filePath) + "/" + randomPart() + "-" + cleanName(fileName)
}

// PublicKey is the key of a new public upload: public/{random}-{name}.
func PublicKey(fileName string) string {
	return publicPrefix + randomPart() + "-" + cleanName(fileName)
}

// FileURL is the stable app URL of a stored file.
func FileURL(key string) string { return "/api/files/" + key }
