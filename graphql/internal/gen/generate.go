package gen

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// A Generator makes the fake values of a GENERATED attribute. Values are
// deterministic: the same (attribute ID, row id) always gives the same value,
// whatever the order of requests, because each value comes from a fresh
// gofakeit Faker seeded from a hash of both. Generated dates are drawn from
// fixed ranges around Epoch, never from the clock.
type Generator struct {
	kind string
	gen  genFunc
}

// genFunc draws one value from f: a string, number, bool, time or any value
// that marshals to JSON.
type genFunc func(f *gofakeit.Faker) (any, error)

// Epoch anchors date kinds: "past" is the five years before it, "future"
// the five years after. A fixed anchor keeps values stable over time.
func Epoch() time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) }

// genOptions are a generator's options, a JSON object.
type genOptions map[string]any

// aliasFunc builds the genFunc of an alias kind from its options.
type aliasFunc func(o genOptions) (genFunc, error)

// genAliases returns the dotted kinds (the board's names); any gofakeit
// function lookup name works as well (see GeneratorKinds). The map is
// built once and shared (a contract's compile looks up tens of thousands
// of generators): callers must not change it.
var genAliases = sync.OnceValue(func() map[string]aliasFunc {
	m := boardAliases()
	for k, v := range contractAliases() {
		m[k] = v
	}
	for k, v := range fakerAliases() {
		m[k] = v
	}
	return m
})

// boardAliases are the kinds the board has always offered.
func boardAliases() map[string]aliasFunc {
	return map[string]aliasFunc{
		"person.firstName":     simple(func(f *gofakeit.Faker) any { return f.FirstName() }),
		"person.lastName":      simple(func(f *gofakeit.Faker) any { return f.LastName() }),
		"person.fullName":      simple(func(f *gofakeit.Faker) any { return f.Name() }),
		"person.email":         simple(func(f *gofakeit.Faker) any { return f.Email() }),
		"person.phone":         simple(func(f *gofakeit.Faker) any { return f.Phone() }),
		"person.gender":        simple(func(f *gofakeit.Faker) any { return f.Gender() }),
		"person.jobTitle":      simple(func(f *gofakeit.Faker) any { return f.JobTitle() }),
		"person.age":           simple(func(f *gofakeit.Faker) any { return f.Number(18, 90) }),
		"phone":                simple(func(f *gofakeit.Faker) any { return f.Phone() }),
		"address.street":       simple(func(f *gofakeit.Faker) any { return f.Street() }),
		"address.city":         simple(func(f *gofakeit.Faker) any { return f.City() }),
		"address.state":        simple(func(f *gofakeit.Faker) any { return f.State() }),
		"address.zip":          simple(func(f *gofakeit.Faker) any { return f.Zip() }),
		"address.country":      simple(func(f *gofakeit.Faker) any { return f.Country() }),
		"address.countryCode":  simple(func(f *gofakeit.Faker) any { return f.CountryAbr() }),
		"address.latitude":     simple(func(f *gofakeit.Faker) any { return f.Latitude() }),
		"address.longitude":    simple(func(f *gofakeit.Faker) any { return f.Longitude() }),
		"company.name":         simple(func(f *gofakeit.Faker) any { return f.Company() }),
		"company.catchPhrase":  simple(func(f *gofakeit.Faker) any { return f.Slogan() }),
		"company.buzzword":     simple(func(f *gofakeit.Faker) any { return f.BuzzWord() }),
		"commerce.productName": simple(func(f *gofakeit.Faker) any { return f.ProductName() }),
		"commerce.department":  simple(func(f *gofakeit.Faker) any { return f.ProductCategory() }),
		"commerce.description": simple(func(f *gofakeit.Faker) any { return f.ProductDescription() }),
		"commerce.price":       floatRange(1, 1000, 2),
		"internet.url":         simple(func(f *gofakeit.Faker) any { return f.URL() }),
		"internet.email":       simple(func(f *gofakeit.Faker) any { return f.Email() }),
		"internet.userName":    simple(func(f *gofakeit.Faker) any { return f.Username() }),
		"internet.domain":      simple(func(f *gofakeit.Faker) any { return f.DomainName() }),
		"internet.ipv4":        simple(func(f *gofakeit.Faker) any { return f.IPv4Address() }),
		"lorem.word":           simple(func(f *gofakeit.Faker) any { return f.LoremIpsumWord() }),
		"lorem.sentence":       loremSentence,
		"lorem.paragraph":      simple(func(f *gofakeit.Faker) any { return f.LoremIpsumParagraph(1, 4, 8, " ") }),
		"number.int":           intRange,
		"number.float":         floatRange(0, 1000, -1),
		"boolean":              simple(func(f *gofakeit.Faker) any { return f.Bool() }),
		"uuid":                 simple(func(f *gofakeit.Faker) any { return f.UUID() }),
		"color":                simple(func(f *gofakeit.Faker) any { return f.Color() }),
		"date.past":            dateSpan(-5),
		"date.future":          dateSpan(5),
	}
}

// genDenied reports whether the runtime refuses the gofakeit lookup name:
// it reads the clock (so values would drift), or produces whole files
// rather than field values.
func genDenied(name string) bool {
	switch name {
	case "date", "daterange", "pastdate", "futuredate", "year",
		"car", "useragent", "firefoxuseragent", "creditcard",
		"creditcardexp", "template", "time", "timerange",
		"csv", "json", "xml", "sql", "markdown", "svg",
		"imagejpeg", "imagepng", "generate", "fields", "map",
		"email_text", "fixed_width":
		return true
	}
	return false
}

func simple(fn func(f *gofakeit.Faker) any) aliasFunc {
	return func(o genOptions) (genFunc, error) {
		if err := o.only(); err != nil {
			return nil, err
		}
		return func(f *gofakeit.Faker) (any, error) { return fn(f), nil }, nil
	}
}

func intRange(o genOptions) (genFunc, error) {
	if err := o.only("min", "max"); err != nil {
		return nil, err
	}
	lo, err1 := o.int("min", 0)
	hi, err2 := o.int("max", 1000)
	if err := firstErr(err1, err2); err != nil {
		return nil, err
	}
	if lo > hi {
		return nil, fmt.Errorf("min %d is greater than max %d", lo, hi)
	}
	return func(f *gofakeit.Faker) (any, error) { return f.IntRange(lo, hi), nil }, nil
}

// floatRange draws from [min, max], rounded to decimals places unless
// decimals is negative (options override the three defaults; a decimals
// option is 0 to 10).
func floatRange(defMin, defMax float64, defDecimals int) aliasFunc {
	return func(o genOptions) (genFunc, error) {
		if err := o.only("min", "max", "decimals"); err != nil {
			return nil, err
		}
		lo, err1 := o.float("min", defMin)
		hi, err2 := o.float("max", defMax)
		decimals, err3 := o.int("decimals", defDecimals)
		if err := firstErr(err1, err2, err3); err != nil {
			return nil, err
		}
		if _, set := o["decimals"]; set && (decimals < 0 || decimals > 10) {
			return nil, fmt.Errorf("decimals must be 0 to 10")
		}
		if lo > hi {
			return nil, fmt.Errorf("min %g is greater than max %g", lo, hi)
		}
		return func(f *gofakeit.Faker) (any, error) {
			v := f.Float64Range(lo, hi)
			if decimals >= 0 {
				v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'f', decimals, 64), 64)
			}
			return v, nil
		}, nil
	}
}

func loremSentence(o genOptions) (genFunc, error) {
	if err := o.only("words"); err != nil {
		return nil, err
	}
	n, err := o.int("words", 8)
	if err != nil {
		return nil, err
	}
	if n < 1 || n > 100 {
		return nil, fmt.Errorf("words must be 1 to 100")
	}
	return func(f *gofakeit.Faker) (any, error) { return f.LoremIpsumSentence(n), nil }, nil
}

// dateSpan draws an RFC 3339 time within years of Epoch (negative: before it).
func dateSpan(years int) aliasFunc {
	return func(o genOptions) (genFunc, error) {
		if err := o.only(); err != nil {
			return nil, err
		}
		start := Epoch()
		end := start.AddDate(years, 0, 0)
		if years < 0 {
			start, end = end, start
		}
		return func(f *gofakeit.Faker) (any, error) {
			sec := f.Int64()%(end.Unix()-start.Unix()) + start.Unix()
			if sec < start.Unix() {
				sec += end.Unix() - start.Unix()
			}
			return time.Unix(sec, 0).UTC().Format(time.RFC3339), nil
		}, nil
	}
}

// lookupGen is the genFunc of a gofakeit function lookup with options as its
// parameters.
func lookupGen(name string, o genOptions) (genFunc, bool) {
	if genDenied(name) {
		return nil, false
	}
	info := gofakeit.GetFuncLookup(name)
	if info == nil || info.Generate == nil {
		return nil, false
	}
	params := gofakeit.NewMapParams()
	for k, v := range o {
		for _, s := range paramStrings(v) {
			params.Add(k, s)
		}
	}
	if len(*params) == 0 {
		params = nil
	}
	return func(f *gofakeit.Faker) (any, error) { return info.Generate(f, params, info) }, true
}

func paramStrings(v any) []string {
	if list, ok := v.([]any); ok {
		out := make([]string, 0, len(list))
		for _, x := range list {
			out = append(out, paramStrings(x)...)
		}
		return out
	}
	if f, ok := v.(float64); ok {
		return []string{engine.FormatNum(f)}
	}
	if s, ok := v.(string); ok {
		return []string{s}
	}
	b, _ := json.Marshal(v)
	return []string{string(b)}
}

// CompileGenerator checks g and returns its generator. It draws one value
// with a fixed seed so that bad options of gofakeit lookups show up here
// rather than on every row.
func CompileGenerator(g *model.Generator) (*Generator, error) {
	if g == nil || g.Kind == "" {
		return nil, model.Errorf(model.CodeBadUserInput, "generator kind is empty; known kinds include %s", kindSample())
	}
	var o genOptions
	if len(g.Options) > 0 && string(g.Options) != "null" {
		if err := json.Unmarshal(g.Options, &o); err != nil {
			return nil, model.Errorf(model.CodeBadUserInput, "generator %s: options must be a JSON object", g.Kind)
		}
	}
	fn, err := genFuncOf(g.Kind, o)
	if err != nil {
		return nil, err
	}
	if _, err := fn(gofakeit.NewFaker(rand.NewPCG(1, 2), false)); err != nil {
		return nil, model.Errorf(model.CodeBadUserInput, "generator %s: %v", g.Kind, err)
	}
	return &Generator{kind: g.Kind, gen: fn}, nil
}

func genFuncOf(kind string, o genOptions) (genFunc, error) {
	if alias, ok := genAliases()[kind]; ok {
		fn, err := alias(o)
		if err != nil {
			return nil, model.Errorf(model.CodeBadUserInput, "generator %s: %v", kind, err)
		}
		return fn, nil
	}
	if fn, ok := lookupGen(kind, o); ok {
		return fn, nil
	}
	return nil, model.Errorf(model.CodeBadUserInput, "unknown generator kind %q; known kinds include %s", kind, kindSample())
}

func kindSample() string {
	return "person.firstName, person.email, address.city, company.name, lorem.sentence, number.int {min,max}, uuid, date.past, commerce.productName, internet.url, phone and every gofakeit function name (e.g. firstname, beername)"
}

// CheckGenerator reports whether g names a known generator kind with valid
// options. It returns nil or a *model.Error with code BAD_USER_INPUT whose
// message lists some valid kinds. It is safe for concurrent use.
func CheckGenerator(g *model.Generator) error {
	_, err := CompileGenerator(g)
	return err
}

// GeneratorKinds returns every generator kind the runtime accepts, sorted:
// the dotted aliases and the gofakeit function lookup names, less those
// that read the clock or produce files.
func GeneratorKinds() []string {
	aliases := genAliases()
	kinds := make([]string, 0, len(aliases)+len(gofakeit.FuncLookups))
	for k := range aliases {
		kinds = append(kinds, k)
	}
	for k := range gofakeit.FuncLookups {
		if !genDenied(k) {
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	return kinds
}

// value is the generated value for the row with the given id.
func (g *Generator) Value(attrID, rowID string) dataset.Value {
	h := fnv.New64a()
	h.Write([]byte(attrID))
	h.Write([]byte{0})
	h.Write([]byte(rowID))
	seed := h.Sum64()
	f := gofakeit.NewFaker(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15), false)
	x, err := g.gen(f)
	if err != nil {
		return dataset.Value{}
	}
	return engine.ValueOfGo(x)
}

func (o genOptions) only(names ...string) error {
	for k := range o {
		if !contains(names, k) {
			if len(names) == 0 {
				return fmt.Errorf("takes no options, got %q", k)
			}
			return fmt.Errorf("unknown option %q; options: %s", k, strings.Join(names, ", "))
		}
	}
	return nil
}

func (o genOptions) float(name string, def float64) (float64, error) {
	v, ok := o[name]
	if !ok || v == nil {
		return def, nil
	}
	f, ok := v.(float64)
	if !ok {
		return 0, fmt.Errorf("option %s must be a number", name)
	}
	return f, nil
}

func (o genOptions) int(name string, def int) (int, error) {
	f, err := o.float(name, float64(def))
	if err != nil {
		return 0, err
	}
	if f != float64(int(f)) {
		return 0, fmt.Errorf("option %s must be an integer", name)
	}
	return int(f), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Kind returns the generator's kind.
func (g *Generator) Kind() string { return g.kind }
