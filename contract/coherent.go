package contract

import (
	"hash/fnv"
	"strings"
	"unicode"
)

// Generated values are drawn field by field, each from its own seed; this
// file makes the fields of one object agree afterwards, as a real record's
// do (issue 29 item 2): a person's e-mail and username are made of their
// name, an address's country, country code and city belong together, and
// a record's times come in order (createdAt ≤ updatedAt, shippedAt ≤
// deliveredAt, start ≤ end). It reads and rewrites only values this
// package generated, by their generator kind, so a field an editor mapped
// elsewhere is left alone.

// harmony is which fields of an entity harmonize rewrites, found once
// per entity (rowGen.harmonyOf), not per row: fields by generator kind,
// and the pairs of time fields to keep in order.
type harmony struct {
	first, last, full, email, user, country, code, city []string
	times                                               [][2]string
}

// newHarmony reads e's fields; nil when no rule applies to e.
func newHarmony(e *Entity) *harmony {
	h := &harmony{}
	byKind := map[string]*[]string{
		"person.firstName": &h.first, "person.lastName": &h.last, "person.fullName": &h.full,
		"internet.email": &h.email, "internet.userName": &h.user,
		"address.country": &h.country, "address.countryCode": &h.code, "address.city": &h.city,
	}
	times := map[string]*Field{}
	for _, f := range e.Fields {
		if f.List {
			continue
		}
		if dst := byKind[f.Value.Kind]; dst != nil {
			*dst = append(*dst, f.Name)
		}
		if strings.HasPrefix(f.Value.Kind, "date.") {
			times[norm(f.Name)] = f
		}
	}
	for _, pair := range timePairs {
		a, b := firstOf(times, pair[0]), firstOf(times, pair[1])
		if a != nil && b != nil && a.Value.Kind == b.Value.Kind {
			h.times = append(h.times, [2]string{a.Name, b.Name})
		}
	}
	people := len(h.email)+len(h.user) > 0 || len(h.full) > 0 && len(h.first)+len(h.last) > 0
	places := len(h.country)+len(h.code) > 0 && len(h.country)+len(h.code)+len(h.city) > 1
	if !people && !places && len(h.times) == 0 {
		return nil
	}
	return h
}

// harmonize makes the values of object row, generated for the fields h
// names, agree with each other.
func (h *harmony) harmonize(row map[string]any) {
	if h == nil {
		return
	}
	personFields(row, h.first, h.last, h.full, h.email, h.user)
	if len(h.country)+len(h.code) > 0 && len(h.country)+len(h.code)+len(h.city) > 1 {
		placeFields(row, h.country, h.code, h.city)
	}
	for _, t := range h.times {
		x, ok1 := row[t[0]].(string)
		y, ok2 := row[t[1]].(string)
		if ok1 && ok2 && x > y {
			row[t[0]], row[t[1]] = y, x
		}
	}
}

// personFields writes the e-mails and usernames of row from its person's
// name: the first and last name fields, else the first words of the
// full name.
func personFields(row map[string]any, first, last, full, email, user []string) {
	if len(email)+len(user) == 0 && (len(full) == 0 || len(first)+len(last) == 0) {
		return
	}
	fn, ln := str(row, first), str(row, last)
	if fn == "" || ln == "" {
		if parts := strings.Fields(str(row, full)); len(parts) >= 2 {
			fn, ln = parts[0], parts[len(parts)-1]
		}
	}
	if fn == "" || ln == "" {
		return
	}
	if len(first) > 0 && len(last) > 0 {
		for _, f := range full {
			if _, ok := row[f].(string); ok {
				row[f] = fn + " " + ln
			}
		}
	}
	a, b := letters(fn), letters(ln)
	if a == "" || b == "" {
		return
	}
	for _, f := range email {
		if s, ok := row[f].(string); ok {
			domain := "example.com"
			if _, d, ok := strings.Cut(s, "@"); ok && d != "" {
				domain = d
			}
			row[f] = a + "." + b + "@" + domain
		}
	}
	for _, f := range user {
		if s, ok := row[f].(string); ok {
			row[f] = a[:1] + b + digits(s)
		}
	}
}

// places are countries with their ISO 3166-1 alpha-2 codes and cities.
var places = []struct {
	country, code string
	cities        []string
}{
	{"United States", "US", []string{"New York", "Chicago", "Austin", "Seattle", "Boston"}},
	{"Canada", "CA", []string{"Toronto", "Vancouver", "Montreal", "Calgary"}},
	{"United Kingdom", "GB", []string{"London", "Manchester", "Edinburgh", "Bristol"}},
	{"Germany", "DE", []string{"Berlin", "Hamburg", "Munich", "Cologne"}},
	{"France", "FR", []string{"Paris", "Lyon", "Marseille", "Toulouse"}},
	{"Spain", "ES", []string{"Madrid", "Barcelona", "Valencia", "Seville"}},
	{"Italy", "IT", []string{"Rome", "Milan", "Naples", "Turin"}},
	{"Netherlands", "NL", []string{"Amsterdam", "Rotterdam", "Utrecht", "The Hague"}},
	{"Sweden", "SE", []string{"Stockholm", "Gothenburg", "Malmö"}},
	{"Poland", "PL", []string{"Warsaw", "Kraków", "Wrocław", "Gdańsk"}},
	{"Brazil", "BR", []string{"São Paulo", "Rio de Janeiro", "Brasília", "Salvador"}},
	{"Mexico", "MX", []string{"Mexico City", "Guadalajara", "Monterrey", "Puebla"}},
	{"Japan", "JP", []string{"Tokyo", "Osaka", "Kyoto", "Yokohama"}},
	{"India", "IN", []string{"Mumbai", "Delhi", "Bengaluru", "Chennai"}},
	{"Australia", "AU", []string{"Sydney", "Melbourne", "Brisbane", "Perth"}},
	{"South Africa", "ZA", []string{"Cape Town", "Johannesburg", "Durban"}},
}

// placeFields writes a country, its code and one of its cities into row,
// the place picked by what was generated there (the same row gives the
// same place).
func placeFields(row map[string]any, country, code, city []string) {
	key := str(row, country) + "|" + str(row, code) + "|" + str(row, city)
	p := places[hashOf(key)%uint64(len(places))]
	for _, f := range country {
		if _, ok := row[f].(string); ok {
			row[f] = p.country
		}
	}
	for _, f := range code {
		if _, ok := row[f].(string); ok {
			row[f] = p.code
		}
	}
	for _, f := range city {
		if _, ok := row[f].(string); ok {
			row[f] = p.cities[hashOf(key+"city")%uint64(len(p.cities))]
		}
	}
}

// timePairs are the fields whose times come in order: the first of a
// pair no later than the second (names folded).
var timePairs = [][2][]string{
	{{"createdat", "created", "createdon", "insertedat"}, {"updatedat", "updated", "modifiedat", "updatedon", "editedat"}},
	{{"shippedat", "shipped", "shippedon"}, {"deliveredat", "delivered", "deliveredon"}},
	{{"startdate", "startsat", "startat", "starttime", "start", "from", "validfrom"}, {"enddate", "endsat", "endat", "endtime", "end", "to", "validuntil", "validto"}},
	{{"publishedat", "releasedat"}, {"updatedat"}},
	{{"createdat"}, {"deletedat", "closedat", "completedat", "cancelledat", "archivedat"}},
}

// hashOf is FNV-1a over s.
func hashOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

func firstOf(byName map[string]*Field, names []string) *Field {
	for _, n := range names {
		if f := byName[n]; f != nil {
			return f
		}
	}
	return nil
}

// str is the first text value of fields in row.
func str(row map[string]any, fields []string) string {
	for _, f := range fields {
		if s, ok := row[f].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// letters is s in lower case, letters only ("O'Neil" → "oneil").
func letters(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r < unicode.MaxASCII && unicode.IsLetter(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// digits is the digits s ends with ("jdoe42" → "42").
func digits(s string) string {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	return s[i:]
}
