package pngmeta

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime/debug"
	"unsafe"
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
// Heap memory use is constant: chunk data streams through a fixed buffer
// while its CRC is computed, so a chunk is never held whole. When src is a
// regular *os.File (on Linux, macOS and the other Unix-like systems), Strip
// maps it read-only instead of reading it (see stripMapped) and writes the
// kept byte ranges straight from the mapping; the checks, the stats, the
// errors and the output are the same.
func Strip(dst io.Writer, src io.Reader) (Stats, error) {
	if f, ok := src.(*os.File); ok {
		if data, unmap, err := mapFile(f); err == nil {
			st, err := stripMapped(dst, data)
			if uerr := unmap(); uerr != nil && err == nil {
				err = fmt.Errorf("pngmeta: unmap input: %w", uerr)
			}
			return st, err
		}
		// Not mappable (a pipe, a device, an empty file): stream it.
	}
	return stripStream(dst, src)
}

// stripStream is Strip over any reader, through a fixed buffer.
func stripStream(dst io.Writer, src io.Reader) (Stats, error) {
	var st Stats
	br := bufio.NewReaderSize(src, readBufSize)
	bw := bufio.NewWriterSize(dst, writeBufSize)

	var sig [8]byte
	if n, err := io.ReadFull(br, sig[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return st, errShortSignature(n)
		}
		return st, fmt.Errorf("pngmeta: read signature: %w", err)
	}
	if string(sig[:]) != Signature {
		return st, errBadSignature(sig[:])
	}
	if _, err := bw.Write(sig[:]); err != nil {
		return st, fmt.Errorf("pngmeta: write signature: %w", err)
	}
	st.BytesWritten = 8

	var (
		off    int64 = 8 // offset of the current chunk in the input
		rules  chunkRules
		hdr    [8]byte
		crcBuf [4]byte
	)
	for {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return st, errNoIEND(off)
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return st, errHeaderCut(off)
			}
			return st, fmt.Errorf("pngmeta: read chunk header at offset %d: %w", off, err)
		}
		typ, length, err := rules.check(hdr[:], off)
		if err != nil {
			return st, err
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
					return st, errPastEnd(typ, off, length)
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
				return st, errNoCRC(typ, off)
			}
			return st, fmt.Errorf("pngmeta: read %s chunk CRC at offset %d: %w", typ, off, err)
		}
		if err := checkCRC(typ, off, crcBuf[:], crc); err != nil {
			return st, err
		}
		if keep {
			if _, err := bw.Write(crcBuf[:]); err != nil {
				return st, fmt.Errorf("pngmeta: write %s chunk CRC: %w", typ, err)
			}
		}
		size := 12 + int64(length)
		st.count(keep, size)
		off += size

		if typ == "IEND" {
			break
		}
	}

	if _, err := br.ReadByte(); err == nil {
		return st, errTrailing(off)
	} else if !errors.Is(err, io.EOF) {
		return st, fmt.Errorf("pngmeta: read after IEND: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return st, fmt.Errorf("pngmeta: write: %w", err)
	}
	return st, nil
}

// stripMapped is Strip over a file mapped into memory. Nothing is copied into
// a buffer: the CRCs are computed on the mapping and each run of kept chunks
// goes to dst in one Write, so a typical print file (text chunks after IHDR)
// is written with two calls. On a 4500x5400 file this saves the kernel's copy
// of the whole input into user memory, the largest part of what Strip costs.
//
// A mapped file that shrinks while it is read makes the next access to the
// lost pages fault; that fault becomes ErrTruncated instead of a crash.
func stripMapped(dst io.Writer, data []byte) (st Stats, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer recoverFault(data, &err)
	if len(data) < len(Signature) {
		return st, errShortSignature(len(data))
	}
	if string(data[:8]) != Signature {
		return st, errBadSignature(data[:8])
	}
	st.BytesWritten = 8

	var (
		off   int64 = 8 // offset of the current chunk
		from  int64     // start of the run of kept bytes not yet written
		rules chunkRules
		size  = int64(len(data))
	)
	flush := func(to int64) error {
		if to == from {
			return nil
		}
		if _, err := dst.Write(data[from:to]); err != nil {
			return fmt.Errorf("pngmeta: write: %w", err)
		}
		return nil
	}
	for {
		switch {
		case off == size:
			return st, errNoIEND(off)
		case size-off < 8:
			return st, errHeaderCut(off)
		}
		typ, length, err := rules.check(data[off:off+8], off)
		if err != nil {
			return st, err
		}
		dataEnd := off + 8 + int64(length)
		switch {
		case dataEnd > size:
			return st, errPastEnd(typ, off, length)
		case dataEnd+4 > size:
			return st, errNoCRC(typ, off)
		}
		if err := checkCRC(typ, off, data[dataEnd:dataEnd+4], crc32.ChecksumIEEE(data[off+4:dataEnd])); err != nil {
			return st, err
		}
		keep := !IsTextChunk(typ)
		if !keep {
			if err := flush(off); err != nil {
				return st, err
			}
			from = dataEnd + 4
		}
		st.count(keep, dataEnd+4-off)
		off = dataEnd + 4

		if typ == "IEND" {
			break
		}
	}
	if off < size {
		return st, errTrailing(off)
	}
	return st, flush(off)
}

// recoverFault, deferred by stripMapped, turns a fault on an address inside
// data into ErrTruncated; any other panic goes on.
func recoverFault(data []byte, err *error) {
	r := recover()
	if r == nil {
		return
	}
	if f, ok := r.(interface{ Addr() uintptr }); ok {
		base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
		if a := f.Addr(); a >= base && a-base < uintptr(len(data)) {
			*err = fmt.Errorf("%w: the file shrank while it was read (byte %d of the mapping gone)", ErrTruncated, a-base)
			return
		}
	}
	panic(r)
}

// count adds one chunk of size bytes, kept or removed, to the stats.
func (st *Stats) count(keep bool, size int64) {
	if keep {
		st.ChunksKept++
		st.BytesWritten += size
	} else {
		st.ChunksRemoved++
		st.BytesRemoved += size
	}
}

// chunkRules checks chunk headers, in file order, against the structure
// Strip enforces: a valid type and length, IHDR first and once, IEND empty
// and after an IDAT. Both ways of reading the input share it.
type chunkRules struct {
	seenIHDR, seenIDAT bool
}

// check validates the 8-byte chunk header hdr found at offset off and
// returns the chunk's type and data length.
func (r *chunkRules) check(hdr []byte, off int64) (typ string, length uint32, err error) {
	length = binary.BigEndian.Uint32(hdr[:4])
	typ = string(hdr[4:8])
	if !validType(hdr[4:8]) {
		return "", 0, fmt.Errorf("%w: %q at offset %d", ErrBadChunkType, typ, off)
	}
	if length > maxChunkLen {
		return "", 0, fmt.Errorf("%w: %s chunk at offset %d declares %d bytes, more than 2^31-1", ErrBadLength, typ, off, length)
	}
	switch {
	case !r.seenIHDR && typ != "IHDR":
		return "", 0, fmt.Errorf("%w: %s chunk at offset %d before IHDR", ErrChunkOrder, typ, off)
	case r.seenIHDR && typ == "IHDR":
		return "", 0, fmt.Errorf("%w: second IHDR chunk at offset %d", ErrChunkOrder, off)
	case typ == "IHDR" && length != 13:
		return "", 0, fmt.Errorf("%w: IHDR chunk at offset %d is %d bytes, want 13", ErrBadLength, off, length)
	case typ == "IEND" && length != 0:
		return "", 0, fmt.Errorf("%w: IEND chunk at offset %d is %d bytes, want 0", ErrBadLength, off, length)
	case typ == "IEND" && !r.seenIDAT:
		return "", 0, fmt.Errorf("%w: IEND at offset %d before any IDAT", ErrChunkOrder, off)
	}
	r.seenIHDR = true
	if typ == "IDAT" {
		r.seenIDAT = true
	}
	return typ, length, nil
}

// checkCRC compares the CRC stored after a chunk with the one computed over
// its type and data.
func checkCRC(typ string, off int64, stored []byte, computed uint32) error {
	if got := binary.BigEndian.Uint32(stored); got != computed {
		return fmt.Errorf("%w: %s chunk at offset %d has CRC %08x, computed %08x", ErrBadCRC, typ, off, got, computed)
	}
	return nil
}

// The errors both ways of reading report for a signature that is wrong or
// short and for input that ends early or goes on after IEND.
func errShortSignature(n int) error {
	return fmt.Errorf("%w: %d-byte input is shorter than the signature", ErrNotPNG, n)
}

func errBadSignature(sig []byte) error { return fmt.Errorf("%w: bad signature % x", ErrNotPNG, sig) }

func errNoIEND(off int64) error {
	return fmt.Errorf("%w: input ends at offset %d without IEND", ErrTruncated, off)
}

func errHeaderCut(off int64) error {
	return fmt.Errorf("%w: chunk header at offset %d cut short", ErrTruncated, off)
}

func errPastEnd(typ string, off int64, length uint32) error {
	return fmt.Errorf("%w: %s chunk at offset %d declares %d bytes, past the end of the file", ErrTruncated, typ, off, length)
}

func errNoCRC(typ string, off int64) error {
	return fmt.Errorf("%w: %s chunk at offset %d has no CRC", ErrTruncated, typ, off)
}

func errTrailing(off int64) error {
	return fmt.Errorf("%w: trailing bytes at offset %d", ErrTrailingData, off)
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
