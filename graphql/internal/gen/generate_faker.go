package gen

import (
	"fmt"
	"strings"
	"time"

	"github.com/brianvoe/gofakeit/v7"
)

// The generator kinds that graphql-faker's directives need beyond the
// others (contract/faker.go maps @fake and @examples onto kinds): a pick
// among given values, and a date between two days printed in a format.
// Both are offered on the board too. Deterministic, no clock.

// fakerAliases are those kinds.
func fakerAliases() map[string]aliasFunc {
	return map[string]aliasFunc{"examples": examplesGen, "date.between": dateBetween}
}

// maxExamples bounds the values of an examples generator (as
// contract.MaxExamples bounds @examples).
const maxExamples = 1000

// examplesGen picks one of the option values (a JSON array of 1 to 1,000
// values of any JSON type).
func examplesGen(o genOptions) (genFunc, error) {
	if err := o.only("values"); err != nil {
		return nil, err
	}
	vs, ok := o["values"].([]any)
	if !ok || len(vs) == 0 || len(vs) > maxExamples {
		return nil, fmt.Errorf("values must be a list of 1 to %d values", maxExamples)
	}
	return func(f *gofakeit.Faker) (any, error) { return vs[f.IntN(len(vs))], nil }, nil
}

// dateBetween draws a time from from to to (days, 2006-01-02, or RFC 3339
// times; 2010-01-01 to 2030-01-01 by default, graphql-faker's range),
// printed in format: a moment.js format as graphql-faker's dateFormat
// takes it (YYYY-MM-DD, HH:mm, [literal] …), RFC 3339 by default.
func dateBetween(o genOptions) (genFunc, error) {
	if err := o.only("from", "to", "format"); err != nil {
		return nil, err
	}
	from, err1 := dateOption(o, "from", "2010-01-01")
	to, err2 := dateOption(o, "to", "2030-01-01")
	if err := firstErr(err1, err2); err != nil {
		return nil, err
	}
	if !from.Before(to) {
		return nil, fmt.Errorf("from %s is not before to %s", from.Format(time.DateOnly), to.Format(time.DateOnly))
	}
	layout := time.RFC3339
	if s, ok := o["format"].(string); ok && s != "" {
		if len(s) > 64 {
			return nil, fmt.Errorf("format is at most 64 characters")
		}
		layout = momentLayout(s)
	} else if _, set := o["format"]; set {
		return nil, fmt.Errorf("format must be a text such as YYYY-MM-DD")
	}
	span := uint64(to.Unix() - from.Unix())
	return func(f *gofakeit.Faker) (any, error) {
		return time.Unix(from.Unix()+int64(f.Uint64()%span), 0).UTC().Format(layout), nil
	}, nil
}

// dateOption reads a day or time option.
func dateOption(o genOptions, name, def string) (time.Time, error) {
	s := def
	if x, ok := o[name]; ok {
		if s, ok = x.(string); !ok {
			return time.Time{}, fmt.Errorf("%s must be a day (2006-01-02) or an RFC 3339 time", name)
		}
	}
	for _, layout := range []string{time.DateOnly, time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%s must be a day (2006-01-02) or an RFC 3339 time, not %q", name, s)
}

// momentToken is a moment.js format token and Go's layout for it.
type momentToken struct{ moment, layout string }

// momentTokens are the moment.js format tokens momentLayout knows, longest
// first (a function: graphql keeps no package state).
func momentTokens() []momentToken {
	return []momentToken{
		{"YYYY", "2006"}, {"YY", "06"}, {"MMMM", "January"}, {"MMM", "Jan"}, {"MM", "01"}, {"M", "1"},
		{"DD", "02"}, {"D", "2"}, {"dddd", "Monday"}, {"ddd", "Mon"}, {"HH", "15"}, {"hh", "03"}, {"h", "3"},
		{"mm", "04"}, {"m", "4"}, {"ss", "05"}, {"s", "5"}, {"SSS", ".000"}, {"A", "PM"}, {"a", "pm"},
		{"ZZ", "-0700"}, {"Z", "-07:00"},
	}
}

// momentLayout turns a moment.js format into a Go layout: known tokens
// translated, [bracketed] text and anything else kept as it is.
func momentLayout(format string) string {
	var b strings.Builder
	tokens := momentTokens()
	for i := 0; i < len(format); {
		if format[i] == '[' {
			end := strings.IndexByte(format[i:], ']')
			if end < 0 {
				b.WriteString(format[i+1:])
				break
			}
			b.WriteString(format[i+1 : i+end])
			i += end + 1
			continue
		}
		matched := false
		for _, t := range tokens {
			if strings.HasPrefix(format[i:], t.moment) {
				b.WriteString(t.layout)
				i += len(t.moment)
				matched = true
				break
			}
		}
		if !matched {
			b.WriteByte(format[i])
			i++
		}
	}
	return b.String()
}
