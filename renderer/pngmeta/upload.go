package pngmeta

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
)

// UploadWidthThreshold is the upload rule: PNG files wider than this
// many pixels have their text metadata removed before upload.
const UploadWidthThreshold = 1500

// ihdrEnd is the length of the signature plus the IHDR chunk up to the end of
// its width field.
const ihdrEnd = 8 + 8 + 4

// StripForUpload applies the upload rule while copying src to dst: a
// PNG wider than UploadWidthThreshold pixels, or whose width cannot be read
// from its IHDR, goes through Strip; any other file, a narrow PNG or a file
// that is not a PNG at all, is copied unchanged. stripped reports which
// happened. A PNG that needs stripping but is malformed fails with Strip's
// errors; dst then holds a partial file.
func StripForUpload(dst io.Writer, src io.Reader) (stripped bool, err error) {
	br := bufio.NewReaderSize(src, readBufSize)
	head, _ := br.Peek(ihdrEnd) // short input is handled by the checks below
	if len(head) < len(Signature) || string(head[:len(Signature)]) != Signature {
		if _, err := io.Copy(dst, br); err != nil {
			return false, fmt.Errorf("pngmeta: copy non-PNG upload: %w", err)
		}
		return false, nil
	}
	if width, ok := uploadWidth(head); ok && width <= UploadWidthThreshold {
		if _, err := io.Copy(dst, br); err != nil {
			return false, fmt.Errorf("pngmeta: copy %d px wide PNG: %w", width, err)
		}
		return false, nil
	}
	if _, err := Strip(dst, br); err != nil {
		return true, err
	}
	return true, nil
}

// uploadWidth reads the width from the IHDR chunk that must follow the
// signature. ok is false when the header is too short or the first chunk is
// not IHDR.
func uploadWidth(head []byte) (width uint32, ok bool) {
	if len(head) < ihdrEnd || string(head[12:16]) != "IHDR" {
		return 0, false
	}
	return binary.BigEndian.Uint32(head[16:20]), true
}
