// Package trademark is the operator's list of trademarked terms and the check of a campaign's name
// against it. The check warns; it never refuses a save: the list cannot know who holds a licence.
// A term matches whole words, in any letter case and whatever punctuation sits between them, so
// "Just Do It" matches "JUST-DO-IT tee" but "Nike" does not match "Nikelodeon". Behaviour is
// described in docs/domains.md.
package trademark
