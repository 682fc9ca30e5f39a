package pngmeta

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// Errors returned by Strip, wrapped with the chunk and byte offset they concern.
var (
	// ErrNotPNG means the input does not start with the 8-byte PNG signature.
	ErrNotPNG = errors.New("pngmeta: not a PNG file")
	// ErrTruncated means the input ended inside a chunk or before IEND; a chunk
	// length that points past the end of the file is reported this way.
	ErrTruncated = errors.New("pngmeta: truncated PNG")
	// ErrBadCRC means a chunk's CRC-32 does not match its type and data.
	ErrBadCRC = errors.New("pngmeta: chunk CRC mismatch")
	// ErrBadLength means a chunk length exceeds 2^31-1, or IHDR is not 13
	// bytes, or IEND is not empty.
	ErrBadLength = errors.New("pngmeta: invalid chunk length")
	// ErrBadChunkType means a chunk type is not four ASCII letters.
	ErrBadChunkType = errors.New("pngmeta: invalid chunk type")
	// ErrChunkOrder means IHDR is not the first chunk or appears twice, or
	// IEND comes before any IDAT.
	ErrChunkOrder = errors.New("pngmeta: chunks out of order")
	// ErrTrailingData means bytes follow the IEND chunk.
	ErrTrailingData = errors.New("pngmeta: data after IEND")
)

// Signature is the 8-byte header every PNG file starts with.
const Signature = "\x89PNG\r\n\x1a\n"

const (
	// maxChunkLen is the largest chunk length the PNG specification allows.
	maxChunkLen = 1<<31 - 1
	// readBufSize bounds the memory Strip uses: chunk data streams through a
	// buffer of this size. 512 KiB keeps system calls rare on files of tens
	// of megabytes without mattering to memory.
	readBufSize = 512 << 10
	// writeBufSize batches the small writes (chunk headers and CRCs); large
	// chunk data bypasses it.
	writeBufSize = 64 << 10
)

// Stats describes what Strip did.
type Stats struct {
	// ChunksKept counts chunks copied to the output, IHDR and IEND included.
	ChunksKept int `json:"chunks_kept"`
	// ChunksRemoved counts the tEXt, zTXt and iTXt chunks dropped.
	ChunksRemoved int `json:"chunks_removed"`
	// BytesRemoved is the size of the dropped chunks, 12 bytes of length,
	// type and CRC included.
	BytesRemoved int64 `json:"bytes_removed"`
	// BytesWritten is the size of the output.
	BytesWritten int64 `json:"bytes_written"`
}

// IsTextChunk reports whether a chunk type is one of the text metadata
// chunks that Strip removes: tEXt, zTXt or iTXt (XMP lives in iTXt).
func IsTextChunk(typ string) bool {
	return typ == "tEXt" || typ == "zTXt" || typ == "iTXt"
}

// Strip copies the PNG read from src to dst without its tEXt, zTXt and iTXt
// chunks. Every other byte, the signature and all other chunks with their
// CRCs, is copied unchanged. The whole structure is verified as it streams;
// on error dst holds a partial file that must be discarded (write to a
// temporary file and rename it on success).
//
// Memory use is constant: chunk data streams through a fixed buffer while
// its CRC is computed, so a chunk is never held whole.
func Strip(dst io.Writer, src io.Reader) (Stats, error) {
	var st Stats
	br := bufio.NewReaderSize(src, readBufSize)
	bw := bufio.NewWriterSize(dst, writeBufSize)

	var sig [8]byte
	if n, err := io.ReadFull(br, sig[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return st, fmt.Errorf("%w: %d-byte input is shorter than the signature", ErrNotPNG, n)
		}
		return st, fmt.Errorf("pngmeta: read signature: %w", err)
	}
	if string(sig[:]) != Signature {
		return st, fmt.Errorf("%w: bad signature % x", ErrNotPNG, sig[:])
	}
	if _, err := bw.Write(sig[:]); err != nil {
		return st, fmt.Errorf("pngmeta: write signature: %w", err)
	}
	st.BytesWritten = 8

	var (
		off      int64 = 8 // offset of the current chunk in the input
		seenIHDR bool
		seenIDAT bool
		hdr      [8]byte
		crcBuf   [4]byte
	)
	for {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return st, fmt.Errorf("%w: input ends at offset %d without IEND", ErrTruncated, off)
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return st, fmt.Errorf("%w: chunk header at offset %d cut short", ErrTruncated, off)
			}
			return st, fmt.Errorf("pngmeta: read chunk header at offset %d: %w", off, err)
		}
		length := binary.BigEndian.Uint32(hdr[:4])
		typ := string(hdr[4:8])
		if !validType(hdr[4:8]) {
			return st, fmt.Errorf("%w: %q at offset %d", ErrBadChunkType, typ, off)
		}
		if length > maxChunkLen {
			return st, fmt.Errorf("%w: %s chunk at offset %d declares %d bytes, more than 2^31-1", ErrBadLength, typ, off, length)
		}
		switch {
		case !seenIHDR && typ != "IHDR":
			return st, fmt.Errorf("%w: %s chunk at offset %d before IHDR", ErrChunkOrder, typ, off)
		case seenIHDR && typ == "IHDR":
			return st, fmt.Errorf("%w: second IHDR chunk at offset %d", ErrChunkOrder, off)
		case typ == "IHDR" && length != 13:
			return st, fmt.Errorf("%w: IHDR chunk at offset %d is %d bytes, want 13", ErrBadLength, off, length)
		case typ == "IEND" && length != 0:
			return st, fmt.Errorf("%w: IEND chunk at offset %d is %d bytes, want 0", ErrBadLength, off, length)
		case typ == "IEND" && !seenIDAT:
			return st, fmt.Errorf("%w: IEND at offset %d before any IDAT", ErrChunkOrder, off)
		}
		seenIHDR = true
		if typ == "IDAT" {
			seenIDAT = true
		}

		keep := !IsTextChunk(typ)
		if keep {
			if _, err := bw.Write(hdr[:]); err != nil {
				return st, fmt.Errorf("pngmeta: write %s chunk header: %w", typ, err)
			}
		}
		crc := crc32.Update(0, crc32.IEEETable, hdr[4:8])
		for remaining := int(length); remaining > 0; {
			p, err := br.Peek(min(remaining, readBufSize))
			if err != nil {
				if errors.Is(err, io.EOF) {
					return st, fmt.Errorf("%w: %s chunk at offset %d declares %d bytes, past the end of the file", ErrTruncated, typ, off, length)
				}
				return st, fmt.Errorf("pngmeta: read %s chunk at offset %d: %w", typ, off, err)
			}
			crc = crc32.Update(crc, crc32.IEEETable, p)
			if keep {
				if _, err := bw.Write(p); err != nil {
					return st, fmt.Errorf("pngmeta: write %s chunk data: %w", typ, err)
				}
			}
			_, _ = br.Discard(len(p)) // cannot fail: the bytes are buffered
			remaining -= len(p)
		}
		if _, err := io.ReadFull(br, crcBuf[:]); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return st, fmt.Errorf("%w: %s chunk at offset %d has no CRC", ErrTruncated, typ, off)
			}
			return st, fmt.Errorf("pngmeta: read %s chunk CRC at offset %d: %w", typ, off, err)
		}
		if got := binary.BigEndian.Uint32(crcBuf[:]); got != crc {
			return st, fmt.Errorf("%w: %s chunk at offset %d has CRC %08x, computed %08x", ErrBadCRC, typ, off, got, crc)
		}
		size := 12 + int64(length)
		if keep {
			if _, err := bw.Write(crcBuf[:]); err != nil {
				return st, fmt.Errorf("pngmeta: write %s chunk CRC: %w", typ, err)
			}
			st.ChunksKept++
			st.BytesWritten += size
		} else {
			st.ChunksRemoved++
			st.BytesRemoved += size
		}
		off += size

		if typ == "IEND" {
			break
		}
	}

	if _, err := br.ReadByte(); err == nil {
		return st, fmt.Errorf("%w: trailing bytes at offset %d", ErrTrailingData, off)
	} else if !errors.Is(err, io.EOF) {
		return st, fmt.Errorf("pngmeta: read after IEND: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return st, fmt.Errorf("pngmeta: write: %w", err)
	}
	return st, nil
}

// validType reports whether a chunk type is four ASCII letters.
func validType(t []byte) bool {
	for _, c := range t {
		if (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}
