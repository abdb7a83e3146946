package gen

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/mockgql/mockgql/model"
)

// GeneratorInfo describes one generator kind for a picker: where it
// belongs, what it makes, the options it takes and a value it makes.
type GeneratorInfo struct {
	Kind, Category, Description string
	// Keywords are other words a person may search for (gofakeit's
	// aliases and keywords: "isbn" finds productisbn).
	Keywords []string
	Options  []GeneratorOption
	// Sample is the value the kind gives record 1 with default options;
	// nil when it needs an option that has no default.
	Sample json.RawMessage
}

// GeneratorOption is one option of a generator kind (a key of
// Generator.Options).
type GeneratorOption struct {
	// Name is the key; Type is int, uint, float, bool, string or []string
	// (a JSON array), as the option's value is read.
	Name, Type, Description string
	// Default is the value used when the option is absent, as text; "" with
	// Required when there is none.
	Default  string
	Required bool
	// Choices, when not empty, are the only values accepted.
	Choices []string
}

// aliasMeta is the category, description and options of a dotted kind
// (genAliases); a kind missing here takes its category from its prefix
// and is listed without options.
var aliasMeta = map[string]struct {
	desc string
	opts []GeneratorOption
}{
	"number.int": {"A whole number from min to max", []GeneratorOption{{Name: "min", Type: "int", Default: "0", Description: "The smallest value"}, {Name: "max", Type: "int", Default: "1000", Description: "The largest value"}}},
	"number.float": {"A number from min to max", []GeneratorOption{{Name: "min", Type: "float", Default: "0", Description: "The smallest value"}, {Name: "max", Type: "float", Default: "1000", Description: "The largest value"},
		{Name: "decimals", Type: "int", Description: "Digits after the point, 0 to 10; absent: not rounded"}}},
	"commerce.price": {"A price from min to max", []GeneratorOption{{Name: "min", Type: "float", Default: "1", Description: "The lowest price"}, {Name: "max", Type: "float", Default: "1000", Description: "The highest price"},
		{Name: "decimals", Type: "int", Default: "2", Description: "Digits after the point, 0 to 10"}}},
	"lorem.sentence": {"A lorem ipsum sentence", []GeneratorOption{{Name: "words", Type: "int", Default: "8", Description: "Words in the sentence, 1 to 100"}}},
	"image.url": {"The address of a placeholder picture mockgql serves (/img/{width}x{height}.png): it loads offline and from any origin",
		[]GeneratorOption{{Name: "width", Type: "int", Default: "640", Description: "Pixels, 1 to 1024"}, {Name: "height", Type: "int", Default: "480", Description: "Pixels, 1 to 1024"}}},
	"date.past":   {"An RFC 3339 time in the five years before 2025-01-01", nil},
	"date.future": {"An RFC 3339 time in the five years after 2025-01-01", nil},
	"person.age":  {"An age from 18 to 90", nil},
	"examples":    {"One of the values given (graphql-faker's @examples)", []GeneratorOption{{Name: "values", Type: "[]string", Required: true, Description: "The values to pick from, 1 to 1000"}}},
	"date.between": {"A time between two days, in a format (graphql-faker's @fake(type: date))", []GeneratorOption{{Name: "from", Type: "string", Default: "2010-01-01", Description: "The first day (2006-01-02) or time (RFC 3339)"},
		{Name: "to", Type: "string", Default: "2030-01-01", Description: "The last day or time"}, {Name: "format", Type: "string", Default: "YYYY-MM-DDTHH:mm:ssZ", Description: "A moment.js format: YYYY-MM-DD, DD/MM/YYYY HH:mm, …"}}},
}

// aliasCategory is the category of a dotted kind without a dot.
var aliasCategory = map[string]string{"phone": "person", "boolean": "number", "uuid": "id", "color": "color"}

// lookupCategory maps gofakeit's categories onto the board's names where
// they mean the same.
var lookupCategory = map[string]string{"product": "commerce", "word": "lorem", "text": "lorem", "datetime": "date"}

// GeneratorCatalog returns a GeneratorInfo for every kind of
// GeneratorKinds, in the same order. It is computed once (samples use a
// fixed seed, so it never changes while the process runs); callers must
// not modify it. It is safe for concurrent use.
func GeneratorCatalog() []GeneratorInfo { return catalog() }

var catalog = sync.OnceValue(func() []GeneratorInfo {
	kinds := GeneratorKinds()
	aliases := genAliases()
	out := make([]GeneratorInfo, 0, len(kinds))
	for _, k := range kinds {
		var g GeneratorInfo
		if _, ok := aliases[k]; ok {
			g = aliasInfo(k)
		} else {
			g = lookupInfo(k)
		}
		if vals, err := GeneratorPreview(&model.Generator{Kind: k}, 1); err == nil {
			g.Sample = vals[0]
		}
		out = append(out, g)
	}
	return out
})

// aliasInfo describes a dotted kind.
func aliasInfo(kind string) GeneratorInfo {
	cat, _, ok := strings.Cut(kind, ".")
	if !ok {
		cat = aliasCategory[kind]
		if cat == "" {
			cat = "misc"
		}
	}
	m := aliasMeta[kind]
	g := GeneratorInfo{Kind: kind, Category: cat, Description: m.desc, Keywords: []string{}, Options: m.opts}
	if g.Options == nil {
		g.Options = []GeneratorOption{}
	}
	if g.Description == "" {
		g.Description = describeAlias(kind)
	}
	return g
}

// describeAlias makes "person.firstName" read "Person first name".
func describeAlias(kind string) string {
	var b strings.Builder
	for i, r := range strings.ReplaceAll(kind, ".", " ") {
		switch {
		case i == 0:
			b.WriteString(strings.ToUpper(string(r)))
		case r >= 'A' && r <= 'Z':
			b.WriteString(" " + strings.ToLower(string(r)))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lookupInfo describes a gofakeit function lookup name.
func lookupInfo(kind string) GeneratorInfo {
	info := gofakeit.GetFuncLookup(kind)
	g := GeneratorInfo{Kind: kind, Category: "misc", Keywords: []string{}, Options: []GeneratorOption{}}
	if info == nil {
		return g
	}
	g.Category = info.Category
	if c, ok := lookupCategory[g.Category]; ok {
		g.Category = c
	}
	g.Description = info.Description
	g.Keywords = append(append(g.Keywords, info.Aliases...), info.Keywords...)
	for _, p := range info.Params {
		choices := p.Options
		if choices == nil {
			choices = []string{}
		}
		g.Options = append(g.Options, GeneratorOption{Name: p.Field, Type: p.Type, Description: p.Description,
			Default: p.Default, Required: !p.Optional && p.Default == "", Choices: choices})
	}
	return g
}
