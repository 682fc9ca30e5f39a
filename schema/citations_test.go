package schema_test

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outsideRefs are references a reader of the repository cannot follow: section signs, numbered
// issues and the names of documents that live outside it.
var outsideRefs = regexp.MustCompile(`\x{00a7}|(?i:\bissue #?[0-9])|\bspec/[a-z-]+\.md|\bapp-shell\b|\bdesign-and-bulk\b`)

// specCitation finds the phrases a citation of the outside document uses ("the spec's rule",
// "(spec)"), and not a variable named spec.
var specCitation = regexp.MustCompile(`(?i:\bthe spec\b|\bspec's\b|\(spec[) ,])`)

// scanned reports whether the file at path (relative to the repository root) is source or a
// fixture a reader opens: code, scripts, SQL, configuration and JSON test data.
func scanned(path string) bool {
	switch filepath.Ext(path) {
	case ".go", ".ts", ".tsx", ".js", ".mjs", ".cjs", ".sh", ".sql", ".css", ".html", ".yml", ".yaml", ".json":
		return filepath.Base(path) != "package-lock.json"
	}
	return filepath.Base(path) == "Dockerfile" || strings.HasPrefix(filepath.ToSlash(path), "scripts/")
}

// TestNoOutsideCitations fails when a source file cites a document or an issue tracker outside
// the repository: comments explain in our own words or point to a page under docs/.
func TestNoOutsideCitations(t *testing.T) {
	root := ".."
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root not found beside schema/: %v", err)
	}
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "dist" || name == "dist-e2e") {
				return filepath.SkipDir
			}
			return nil
		}
		// This file's own cases are citations on purpose.
		if !d.Type().IsRegular() || !scanned(rel) || filepath.ToSlash(rel) == "schema/citations_test.go" {
			return nil
		}
		files++
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
		for n := 1; sc.Scan(); n++ {
			if line := sc.Text(); cites(line) {
				t.Errorf("%s:%d cites a document outside the repository; say it in our words or point to docs/:\n\t%s",
					filepath.ToSlash(rel), n, strings.TrimSpace(line))
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("scanned %d files: the walk missed the repository", files)
	}
}

// cites reports whether line holds an outside reference.
func cites(line string) bool {
	return outsideRefs.MatchString(line) || specCitation.MatchString(line)
}

func TestCites(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"// Named permissions (spec \u00a76).", true},
		{"// See issue 9 for the plan.", true},
		{"// tracked in Issue #12", true},
		{"// the session user of spec/app-shell.md", true},
		{"-- design-and-bulk rules", true},
		{"// the spec's upload rule", true},
		{"it('lists the records with the spec query', () => {", true},
		{"\tp, spec, err := parsePayload(t)", false},
		{"\tdst := Key(spec.Name, p.Key)", false},
		{"func Scale(src image.Image, spec Spec) image.Image {", false},
		{"func Scale(src image.Image, spec tasks.VariantSpec) image.Image {", false},
		{"// as the Spec says (spec)", true},
		{"\tspec, ok := variant.Lookup(name)", false},
		{"// previewSpec is the mockup preview.", false},
		{"// the rule of docs/editor.md", false},
		{"// an issue with the decoder", false},
	}
	for _, tt := range tests {
		if got := cites(tt.line); got != tt.want {
			t.Errorf("cites(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}
