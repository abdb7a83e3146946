package gen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/internal/placeholder"
	"github.com/mockgql/mockgql/model"
)

// contractAliases are the generator kinds that an imported schema's fields
// need beyond the board's (contract/fields.go names them): custom scalars
// by name and a few text shapes. All are deterministic and read no clock.
func contractAliases() map[string]aliasFunc {
	return map[string]aliasFunc{
		// A placeholder mockgql serves itself (/img/…, http/img.go), so the
		// picture loads offline; NewValuesAt makes the address absolute.
		"image.url": func(o genOptions) (genFunc, error) {
			w, h, err := imageSize(o)
			if err != nil {
				return nil, err
			}
			return func(f *gofakeit.Faker) (any, error) { return placeholder.URL("", w, h, f.Uint64()), nil }, nil
		},
		"lorem.slug": simple(func(f *gofakeit.Faker) any { return strings.ToLower(strings.Join(words(f, 3), "-")) }),
		// Values by meaning (issue 29 item 2): English words, and the
		// shapes real APIs give statuses, numbers and codes.
		"text.word":      simple(func(f *gofakeit.Faker) any { return f.Noun() }),
		"text.title":     simple(func(f *gofakeit.Faker) any { return sentenceCase(f.Phrase()) }),
		"text.sentence":  simple(func(f *gofakeit.Faker) any { return f.Sentence() }),
		"text.paragraph": simple(func(f *gofakeit.Faker) any { return f.Paragraph() }),
		"text.slug": simple(func(f *gofakeit.Faker) any {
			return strings.ReplaceAll(strings.ToLower(f.AdjectiveDescriptive()+"-"+f.NounCommon()), " ", "-")
		}),
		"text.altText":          simple(func(f *gofakeit.Faker) any { return "Photo of " + f.ProductName() }),
		"book.title":            simple(func(f *gofakeit.Faker) any { return f.BookTitle() }),
		"movie.title":           simple(func(f *gofakeit.Faker) any { return f.MovieName() }),
		"song.title":            simple(func(f *gofakeit.Faker) any { return f.SongName() }),
		"commerce.category":     simple(func(f *gofakeit.Faker) any { return titleCase(f.ProductCategory()) }),
		"commerce.description":  simple(func(f *gofakeit.Faker) any { return f.ProductDescription() }),
		"commerce.material":     simple(func(f *gofakeit.Faker) any { return f.ProductMaterial() }),
		"commerce.size":         pick("XS", "S", "M", "L", "XL", "XXL"),
		"commerce.optionName":   pick("Size", "Color", "Material", "Style"),
		"commerce.tag":          pick("new", "sale", "bestseller", "limited", "eco", "gift", "featured", "clearance", "bundle", "exclusive"),
		"order.number":          simple(func(f *gofakeit.Faker) any { return fmt.Sprintf("#%d", f.IntRange(1001, 99999)) }),
		"shipping.tracking":     simple(func(f *gofakeit.Faker) any { return "1Z" + strings.ToUpper(f.Regex("[A-Z0-9]{16}")) }),
		"shipping.carrier":      pick("UPS", "FedEx", "DHL", "USPS", "Royal Mail", "Canada Post", "La Poste", "PostNL"),
		"finance.transactionId": simple(func(f *gofakeit.Faker) any { return "txn_" + f.Regex("[0-9a-f]{20}") }),
		"finance.invoiceNumber": simple(func(f *gofakeit.Faker) any {
			return fmt.Sprintf("INV-%d-%05d", f.IntRange(2021, 2025), f.IntRange(1, 99999))
		}),
		"misc.species":     pick("Human", "Alien", "Robot", "Animal", "Humanoid", "Mythological Creature"),
		"status.generic":   pick("active", "pending", "completed", "cancelled", "archived"),
		"status.order":     pick("PENDING", "PAID", "PROCESSING", "SHIPPED", "DELIVERED", "CANCELLED", "REFUNDED"),
		"status.shipment":  pick("LABEL_CREATED", "IN_TRANSIT", "OUT_FOR_DELIVERY", "DELIVERED", "RETURNED"),
		"status.payment":   pick("pending", "authorized", "paid", "failed", "refunded"),
		"status.account":   pick("active", "invited", "suspended", "disabled"),
		"status.task":      pick("todo", "in progress", "in review", "done", "blocked"),
		"status.life":      pick("Alive", "Dead", "unknown"),
		"lorem.title":      simple(func(f *gofakeit.Faker) any { return title(words(f, 1+f.IntRange(1, 3))) }),
		"lorem.code":       simple(func(f *gofakeit.Faker) any { return f.Numerify(f.Lexify("???-####")) }),
		"commerce.sku":     simple(func(f *gofakeit.Faker) any { return strings.ToUpper(f.Numerify(f.Lexify("???-#####"))) }),
		"commerce.isbn":    simple(func(f *gofakeit.Faker) any { return f.Numerify("978-#-###-#####-#") }),
		"finance.currency": simple(func(f *gofakeit.Faker) any { return f.CurrencyShort() }),
		"date.day":         dayFormat(-5, time.DateOnly),
		"date.time":        dayFormat(-1, time.TimeOnly),
		"date.birthday":    birthday(),
		"scalar.json": simple(func(f *gofakeit.Faker) any {
			return map[string]any{"key": f.LoremIpsumWord(), "value": f.IntRange(0, 100)}
		}),
		"scalar.bigint":  simple(func(f *gofakeit.Faker) any { return fmt.Sprint(f.Int64()&(1<<62-1) + 1<<53) }),
		"scalar.decimal": simple(func(f *gofakeit.Faker) any { return fmt.Sprintf("%d.%02d", f.IntRange(0, 9999), f.IntRange(0, 99)) }),
		"scalar.string":  simple(func(f *gofakeit.Faker) any { return f.Noun() }),
	}
}

// pick draws one of values.
func pick(values ...string) aliasFunc {
	return simple(func(f *gofakeit.Faker) any { return values[f.IntN(len(values))] })
}

// sentenceCase capitalises s's first letter ("time will tell" → "Time will tell").
func sentenceCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// titleCase capitalises each word but "and", "or" and "of" ("heating and
// cooling" → "Heating and Cooling").
func titleCase(s string) string {
	ws := strings.Fields(s)
	for i, w := range ws {
		if i == 0 || w != "and" && w != "or" && w != "of" {
			ws[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(ws, " ")
}

// birthday draws an adult's date of birth: 18 to 80 years before Epoch.
func birthday() aliasFunc {
	return func(o genOptions) (genFunc, error) {
		if err := o.only(); err != nil {
			return nil, err
		}
		end := Epoch().AddDate(-18, 0, 0)
		span := end.Unix() - end.AddDate(-62, 0, 0).Unix()
		return func(f *gofakeit.Faker) (any, error) {
			return time.Unix(end.Unix()-int64(f.Uint64()%uint64(span)), 0).UTC().Format(time.DateOnly), nil
		}, nil
	}
}

func words(f *gofakeit.Faker, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = f.LoremIpsumWord()
	}
	return out
}

func title(ws []string) string {
	for i, w := range ws {
		if w != "" {
			ws[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(ws, " ")
}

// dayFormat draws a time within years before Epoch, printed by layout.
func dayFormat(years int, layout string) aliasFunc {
	return func(o genOptions) (genFunc, error) {
		if err := o.only(); err != nil {
			return nil, err
		}
		end := Epoch()
		span := end.Unix() - end.AddDate(years, 0, 0).Unix()
		return func(f *gofakeit.Faker) (any, error) {
			sec := end.Unix() - int64(f.Uint64()%uint64(span))
			return time.Unix(sec, 0).UTC().Format(layout), nil
		}, nil
	}
}

// Values is contract.Values over the runtime's generators: one value of
// the generator kind with options, the same for the same seed. The error
// is BAD_USER_INPUT for an unknown kind or bad options. It compiles the
// generator on every call; newValues caches them for bulk generation.
func Values(kind string, options map[string]any, seed uint64) (any, error) {
	return newValues()(kind, options, seed)
}

// newValues returns a contract.Values that compiles each (kind, options
// map) once: options are told apart by identity, as a plan's fields hold
// theirs, so the caller must not change a map it passed. It is safe for
// concurrent use.
func newValues() contract.Values {
	type genKey struct {
		kind    string
		options uintptr
	}
	var mu sync.Mutex
	gens := map[genKey]genFunc{}
	fakers := &sync.Pool{New: newSeededFaker}
	return func(kind string, options map[string]any, seed uint64) (any, error) {
		key := genKey{kind, reflect.ValueOf(options).Pointer()}
		mu.Lock()
		fn, ok := gens[key]
		mu.Unlock()
		if !ok {
			o, _ := json.Marshal(options)
			g, err := CompileGenerator(&model.Generator{Kind: kind, Options: o})
			if err != nil {
				return nil, err
			}
			fn = g.gen
			mu.Lock()
			gens[key] = fn
			mu.Unlock()
		}
		fk := fakers.Get().(*seededFaker)
		fk.pcg.Seed(seed, seed^0x9e3779b97f4a7c15)
		v, err := fn(fk.f)
		fakers.Put(fk)
		return v, err
	}
}

// NewValuesAt is newValues with image URLs under base, the node's public
// address (--base-url), so that an app on another origin loads them; ""
// keeps them on the same origin.
func NewValuesAt(base string) contract.Values {
	values := newValues()
	if base == "" {
		return values
	}
	return func(kind string, options map[string]any, seed uint64) (any, error) {
		v, err := values(kind, options, seed)
		if s, ok := v.(string); ok && kind == "image.url" && strings.HasPrefix(s, "/img/") {
			v = strings.TrimRight(base, "/") + s
		}
		return v, err
	}
}

// imageSize reads an image generator's width and height options (640 ×
// 480 by default; 1 to 1,024 each, a PNG the /img route serves).
func imageSize(o genOptions) (w, h int, err error) {
	if err := o.only("width", "height"); err != nil {
		return 0, 0, err
	}
	w, h = 640, 480
	for name, dst := range map[string]*int{"width": &w, "height": &h} {
		if x, ok := o[name]; ok {
			n, isNum := x.(float64)
			if !isNum || n < 1 || n > 1024 || n != float64(int(n)) {
				return 0, 0, fmt.Errorf("%s must be a whole number of pixels, 1 to 1024", name)
			}
			*dst = int(n)
		}
	}
	return w, h, nil
}

// seededFaker is a faker over a PCG source that is seeded again for each
// value: the values are those of a new faker of the same seed, without
// making one per value (a compile at the row bound makes millions).
type seededFaker struct {
	pcg *rand.PCG
	f   *gofakeit.Faker
}

func newSeededFaker() any {
	pcg := rand.NewPCG(0, 0)
	return &seededFaker{pcg: pcg, f: gofakeit.NewFaker(pcg, false)}
}
