package contract

import "strings"

// norm folds a name for matching: lower case, without underscores, so
// that author_id, authorId and AuthorID match.
func norm(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "_", ""))
}

// singular returns the singular of a lower-case English plural as names
// use them (books → book, categories → category, statuses → status); other
// words come back unchanged.
func singular(s string) string {
	switch {
	case strings.HasSuffix(s, "ies") && len(s) > 3:
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(s, "sses"), strings.HasSuffix(s, "uses"), strings.HasSuffix(s, "xes"),
		strings.HasSuffix(s, "ches"), strings.HasSuffix(s, "shes"):
		return s[:len(s)-2]
	case strings.HasSuffix(s, "ss"), strings.HasSuffix(s, "us"), strings.HasSuffix(s, "is"):
		return s
	case strings.HasSuffix(s, "s") && len(s) > 1:
		return s[:len(s)-1]
	}
	return s
}

// sameEntity reports whether name (a field, an argument's or a mutation's
// object) names the type typ: Book matches book, books, Books and
// books_one-style names once their affixes are cut.
func sameEntity(name, typ string) bool {
	n, t := norm(name), norm(typ)
	return n == t || singular(n) == t || n == singular(t) || singular(n) == singular(t)
}

// cutPrefix returns s without the first of prefixes it starts with (matched
// case-insensitively), and whether one matched.
func cutPrefix(s string, prefixes ...string) (string, bool) {
	low := strings.ToLower(s)
	for _, p := range prefixes {
		if strings.HasPrefix(low, p) && len(s) > len(p) {
			return strings.TrimLeft(s[len(p):], "_"), true
		}
	}
	return s, false
}

// cutSuffix returns s without the first of suffixes it ends with (matched
// case-insensitively), and whether one matched.
func cutSuffix(s string, suffixes ...string) (string, bool) {
	low := strings.ToLower(s)
	for _, x := range suffixes {
		if strings.HasSuffix(low, x) && len(s) > len(x) {
			return strings.TrimRight(s[:len(s)-len(x)], "_"), true
		}
	}
	return s, false
}
