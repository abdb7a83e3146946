package contract

import (
	"slices"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/model"
)

// graphql-faker's directives (docs/using/contract.md, "graphql-faker's
// directives"): a schema written for graphql-faker
// (github.com/graphql-kit/graphql-faker, MIT) annotates its fields with
// @fake(type:, options:, locale:), @examples(values:) and
// @listLength(min:, max:), which graphql-faker defines, not the document.
// Parse adds the definitions such a document uses and lacks from a source
// of their own, fakerSource, as it does for federation (federation.go), so
// the document imports unchanged and its line numbers stay its own; the
// interpretation then reads the directives into the fields' generators
// (fakeValue) and list lengths (ListLength).

// fakerSourceName names the source of the definitions Parse adds for
// graphql-faker's directives; a definition from it is not the document's.
const fakerSourceName = "faker.graphql"

// Bounds of graphql-faker's directives (docs/reference/bounds.md).
const (
	// MaxListLength bounds @listLength's max: a generated list holds at
	// most this many items (Plan.CheckCells counts them).
	MaxListLength = 100
	// MaxExamples bounds the values of one @examples.
	MaxExamples = 1000
)

// fakerDirectives are graphql-faker's directive definitions, by name, as
// its src/fake_definition.ts gives them.
var fakerDirectives = map[string]string{
	"fake":       `directive @fake(type: fake__Types!, options: fake__options = {}, locale: fake__Locale) on FIELD_DEFINITION | SCALAR`,
	"listLength": `directive @listLength(min: Int!, max: Int!) on FIELD_DEFINITION`,
	"examples":   `directive @examples(values: [examples__JSON]!) on FIELD_DEFINITION | SCALAR`,
}

// fakerTypeOrder lists the types the definitions name, each before the
// types that use it.
var fakerTypeOrder = []string{"fake__Locale", "fake__Types", "fake__imageSize", "fake__loremSize", "fake__color", "fake__options", "examples__JSON"}

// fakerTypes are the definitions of those types (fake__Locale lists the
// locales of faker.js 8, graphql-faker's; mockgql generates English).
var fakerTypes = map[string]string{
	"fake__Locale":    `enum fake__Locale { af_ZA ar az base cs_CZ da de de_AT de_CH dv el en en_AU en_AU_ocker en_BORK en_CA en_GB en_GH en_HK en_IE en_IN en_NG en_US en_ZA eo es es_MX fa fi fr fr_BE fr_CA fr_CH fr_LU fr_SN he hr hu hy id_ID it ja ka_GE ko lv mk nb_NO ne nl nl_BE pl pt_BR pt_PT ro ro_MD ru sk sr_RS_latin sv th tr uk ur vi yo_NG zh_CN zh_TW zu_ZA }`,
	"fake__Types":     "enum fake__Types { " + strings.Join(fakeTypeNames(), " ") + " }",
	"fake__imageSize": `input fake__imageSize { width: Int! height: Int! }`,
	"fake__loremSize": `enum fake__loremSize { word words sentence sentences paragraph paragraphs }`,
	"fake__color":     `input fake__color { red255: Int = 0 green255: Int = 0 blue255: Int = 0 }`,
	"fake__options":   `input fake__options { useFullAddress: Boolean minMoney: Float maxMoney: Float decimalPlaces: Int imageSize: fake__imageSize imageKeywords: [String!] randomizeImageUrl: Boolean emailProvider: String passwordLength: Int loremSize: fake__loremSize dateFormat: String = "YYYY-MM-DDTHH:mm:ss[Z]" dateFrom: String = "2010-01-01" dateTo: String = "2030-01-01" baseColor: fake__color = { red255: 0, green255: 0, blue255: 0 } minNumber: Float maxNumber: Float precisionNumber: Float }`,
	"examples__JSON":  `scalar examples__JSON`,
}

// fakerSource answers the definitions of graphql-faker's directives that
// doc uses and lacks, with the types they name; nil when it uses none.
func fakerSource(doc *ast.SchemaDocument) *ast.Source {
	defined, types := map[string]bool{}, map[string]bool{}
	for _, d := range doc.Directives {
		defined[d.Name] = true
	}
	for _, d := range doc.Definitions {
		types[d.Name] = true
	}
	used := map[string]bool{}
	note := func(ds ast.DirectiveList) {
		for _, d := range ds {
			if fakerDirectives[d.Name] != "" && !defined[d.Name] {
				used[d.Name] = true
			}
		}
	}
	for _, l := range []ast.DefinitionList{doc.Definitions, doc.Extensions} {
		for _, d := range l {
			note(d.Directives)
			for _, f := range d.Fields {
				note(f.Directives)
			}
		}
	}
	if len(used) == 0 {
		return nil
	}
	var b strings.Builder
	for _, name := range []string{"fake", "listLength", "examples"} {
		if used[name] {
			b.WriteString(fakerDirectives[name] + "\n")
		}
	}
	for _, t := range fakerTypeOrder {
		if !types[t] && strings.Contains(b.String(), t) || t != "examples__JSON" && !types[t] && used["fake"] {
			b.WriteString(fakerTypes[t] + "\n")
		}
	}
	return &ast.Source{Name: fakerSourceName, Input: b.String()}
}

// fakeKind is how one fake__Types value is generated: a generator kind of
// the runtime with fixed options, and the options of fake__options it
// reads (each renamed to the generator's option).
type fakeKind struct {
	kind    string
	options map[string]any
	reads   map[string]string
}

// fakeTypes maps every fake__Types value onto the nearest generator kind
// (docs/using/contract.md lists the ones with no equivalent).
var fakeTypes = map[string]fakeKind{
	"zipCode": {kind: "address.zip"}, "city": {kind: "address.city"}, "streetName": {kind: "streetname"},
	"streetAddress": {kind: "address.street"}, "secondaryAddress": {kind: "numerify", options: map[string]any{"str": "Apt. ###"}},
	"county": {kind: "address.state"}, "country": {kind: "address.country"}, "countryCode": {kind: "address.countryCode"},
	"state": {kind: "address.state"}, "stateAbbr": {kind: "stateabr"}, "latitude": {kind: "address.latitude"}, "longitude": {kind: "address.longitude"},

	"colorName": {kind: "color"}, "productCategory": {kind: "commerce.department"}, "productName": {kind: "commerce.productName"},
	"money":           {kind: "commerce.price", reads: map[string]string{"minMoney": "min", "maxMoney": "max", "decimalPlaces": "decimals"}},
	"productMaterial": {kind: "commerce.material"}, "product": {kind: "commerce.productName"},

	"companyName": {kind: "company.name"}, "companyCatchPhrase": {kind: "company.catchPhrase"}, "companyBS": {kind: "bs"},

	"dbColumn":    {kind: "examples", options: examples("id", "title", "name", "email", "password", "token", "status", "comment", "createdAt", "updatedAt", "group", "category")},
	"dbType":      {kind: "examples", options: examples("int", "varchar", "text", "date", "datetime", "timestamp", "boolean", "decimal", "json", "uuid", "bigint", "blob")},
	"dbCollation": {kind: "examples", options: examples("utf8_unicode_ci", "utf8_general_ci", "utf8mb4_unicode_ci", "utf8mb4_general_ci", "utf8mb4_bin", "ascii_general_ci", "cp1250_general_ci")},
	"dbEngine":    {kind: "examples", options: examples("InnoDB", "MyISAM", "MEMORY", "CSV", "ARCHIVE", "BLACKHOLE", "MERGE")},

	"date":       {kind: "date.between", reads: map[string]string{"dateFormat": "format", "dateFrom": "from", "dateTo": "to"}},
	"pastDate":   {kind: "date.between", options: map[string]any{"from": "2024-01-01", "to": "2025-01-01"}, reads: map[string]string{"dateFormat": "format"}},
	"futureDate": {kind: "date.between", options: map[string]any{"from": "2025-01-01", "to": "2026-01-01"}, reads: map[string]string{"dateFormat": "format"}},
	"recentDate": {kind: "date.between", options: map[string]any{"from": "2024-12-31", "to": "2025-01-01"}, reads: map[string]string{"dateFormat": "format"}},

	"financeAccountName":     {kind: "examples", options: examples("Checking Account", "Savings Account", "Money Market Account", "Investment Account", "Credit Card Account", "Personal Loan Account", "Home Loan Account", "Auto Loan Account")},
	"financeTransactionType": {kind: "examples", options: examples("deposit", "withdrawal", "payment", "invoice")},
	"currencyCode":           {kind: "currencyshort"}, "currencyName": {kind: "currencylong"},
	"currencySymbol":                 {kind: "examples", options: examples("$", "€", "£", "¥", "₹", "₩", "₽", "CHF")},
	"bitcoinAddress":                 {kind: "bitcoinaddress"},
	"internationalBankAccountNumber": {kind: "regex", options: map[string]any{"str": "GB[0-9]{2}[A-Z]{4}[0-9]{14}"}},
	"bankIdentifierCode":             {kind: "regex", options: map[string]any{"str": "[A-Z]{4}GB[A-Z0-9]{2}"}},

	"hackerAbbreviation": {kind: "hackerabbreviation"}, "hackerPhrase": {kind: "hackerphrase"},

	"imageUrl":  {kind: "image.url", reads: map[string]string{"imageSize": "size"}},
	"avatarUrl": {kind: "image.url", options: map[string]any{"width": 256.0, "height": 256.0}},
	"email":     {kind: "internet.email"}, "url": {kind: "internet.url"}, "domainName": {kind: "internet.domain"},
	"ipv4Address": {kind: "internet.ipv4"}, "ipv6Address": {kind: "ipv6address"}, "userAgent": {kind: "chromeuseragent"},
	"colorHex": {kind: "hexcolor"}, "macAddress": {kind: "macaddress"},
	"password": {kind: "password", reads: map[string]string{"passwordLength": "length"}},

	"lorem": {kind: "lorem.paragraph", reads: map[string]string{"loremSize": "lorem"}},

	"firstName": {kind: "person.firstName"}, "lastName": {kind: "person.lastName"}, "fullName": {kind: "person.fullName"},
	"jobTitle": {kind: "person.jobTitle"}, "phoneNumber": {kind: "person.phone"},

	"number": {kind: "number.float", reads: map[string]string{"minNumber": "min", "maxNumber": "max", "precisionNumber": "precision"}},
	"uuid":   {kind: "uuid"}, "word": {kind: "lorem.word"}, "words": {kind: "lorem.sentence", options: map[string]any{"words": 3.0}},
	"locale": {kind: "examples", options: examples("en", "en_US", "en_GB", "de", "fr", "es", "it", "ja", "pt_BR", "zh_CN")},

	"filename": {kind: "regex", options: map[string]any{"str": "[a-z]{4,10}\\.(pdf|png|jpg|txt|csv|docx)"}},
	"mimeType": {kind: "filemimetype"}, "fileExtension": {kind: "fileextension"}, "semver": {kind: "appversion"},
}

// fakeTypeOrder is fake__Types' values in graphql-faker's order.
const fakeTypeOrder = `zipCode city streetName streetAddress secondaryAddress county country countryCode state stateAbbr latitude longitude
colorName productCategory productName money productMaterial product companyName companyCatchPhrase companyBS
dbColumn dbType dbCollation dbEngine date pastDate futureDate recentDate financeAccountName financeTransactionType
currencyCode currencyName currencySymbol bitcoinAddress internationalBankAccountNumber bankIdentifierCode
hackerAbbreviation hackerPhrase imageUrl avatarUrl email url domainName ipv4Address ipv6Address userAgent colorHex
macAddress password lorem firstName lastName fullName jobTitle phoneNumber number uuid word words locale
filename mimeType fileExtension semver`

// fakeTypeNames returns fake__Types' values in graphql-faker's order.
func fakeTypeNames() []string { return strings.Fields(fakeTypeOrder) }

// FakeKind returns the generator kind and options that @fake(type: t)
// maps onto, with no options given; ok is false for a value graphql-faker
// does not have.
func FakeKind(t string) (kind string, options map[string]any, ok bool) {
	k, ok := fakeTypes[t]
	return k.kind, k.options, ok
}

// examples is the options of the examples generator for values.
func examples(values ...string) map[string]any {
	vs := make([]any, len(values))
	for i, v := range values {
		vs[i] = v
	}
	return map[string]any{"values": vs}
}

// DirectiveValue returns how the faker directives on the field fd (of the
// named type d) fill it, as directiveValue: for values mockgql makes
// outside rows.
func DirectiveValue(fd *ast.FieldDefinition, d *ast.Definition) (Value, bool) {
	if d == nil || d.Kind == ast.Object || d.Kind == ast.Interface || d.Kind == ast.Union {
		return Value{}, false
	}
	return directiveValue(fd, d)
}

// DirectedValues returns the Value of every field of s's types that
// graphql-faker's directives fill, by type and field name.
func DirectedValues(s *ast.Schema) map[[2]string]Value {
	out := map[[2]string]Value{}
	for name, d := range s.Types {
		if d.BuiltIn {
			continue
		}
		for _, f := range d.Fields {
			if v, ok := DirectiveValue(f, s.Types[f.Type.Name()]); ok {
				out[[2]string{name, f.Name}] = v
			}
		}
	}
	return out
}

// directiveValue returns how the faker directives on a field (fd) or on
// its scalar type (d) fill it, in graphql-faker's order: the field's
// @examples, the field's @fake, the scalar's @examples, the scalar's
// @fake; ok is false when none applies. typ is the field's named type,
// whose kind the examples must fit.
func directiveValue(fd *ast.FieldDefinition, d *ast.Definition) (Value, bool) {
	lists := []ast.DirectiveList{fd.Directives}
	if d != nil && d.Kind == ast.Scalar {
		lists = append(lists, d.Directives)
	}
	for _, ds := range lists {
		if v, ok := examplesValue(ds.ForName("examples"), d); ok {
			return v, true
		}
		if v, ok := fakeValue(ds.ForName("fake"), d); ok {
			return v, true
		}
	}
	return Value{}, false
}

// examplesValue is the Value of an @examples whose values fit d: the
// values of its type (numbers for Int and Float, strings for String and
// ID, an enum's values), up to MaxExamples.
func examplesValue(dir *ast.Directive, d *ast.Definition) (Value, bool) {
	if dir == nil || d == nil {
		return Value{}, false
	}
	a := dir.Arguments.ForName("values")
	if a == nil || a.Value == nil {
		return Value{}, false
	}
	var vs []any
	for _, c := range a.Value.Children {
		if v, ok := exampleOf(c.Value, d); ok && len(vs) < MaxExamples {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return Value{}, false
	}
	return Value{Kind: "examples", Options: map[string]any{"values": vs}}, true
}

// exampleOf is one example value as the field's type d holds it.
func exampleOf(v *ast.Value, d *ast.Definition) (any, bool) {
	if v == nil {
		return nil, false
	}
	switch d.Name {
	case "Int":
		n, err := strconv.ParseInt(v.Raw, 10, 32)
		return float64(n), err == nil && v.Kind == ast.IntValue
	case "Float":
		f, err := strconv.ParseFloat(v.Raw, 64)
		return f, err == nil && (v.Kind == ast.IntValue || v.Kind == ast.FloatValue)
	case "Boolean":
		return v.Raw == "true", v.Kind == ast.BooleanValue
	case "String", "ID":
		return v.Raw, v.Kind == ast.StringValue || v.Kind == ast.BlockValue || d.Name == "ID" && v.Kind == ast.IntValue
	}
	switch d.Kind {
	case ast.Enum:
		return v.Raw, (v.Kind == ast.EnumValue || v.Kind == ast.StringValue) && d.EnumValues.ForName(v.Raw) != nil
	case ast.Scalar:
		x, err := v.Value(nil)
		return x, err == nil
	}
	return nil, false
}

// fakeValue is the Value of a @fake: its type's kind with the options of
// fake__options that the kind has a knob for (others are ignored, as
// docs/using/contract.md lists them).
func fakeValue(dir *ast.Directive, d *ast.Definition) (Value, bool) {
	if dir == nil {
		return Value{}, false
	}
	a := dir.Arguments.ForName("type")
	if a == nil || a.Value == nil {
		return Value{}, false
	}
	k, ok := fakeTypes[a.Value.Raw]
	if !ok {
		return Value{}, false
	}
	opts := map[string]any{}
	for name, v := range k.options {
		opts[name] = v
	}
	if o := dir.Arguments.ForName("options"); o != nil && o.Value != nil {
		for _, c := range o.Value.Children {
			to := k.reads[c.Name]
			if to == "" {
				continue
			}
			x, err := c.Value.Value(nil)
			if err != nil || x == nil {
				continue
			}
			fakeOption(opts, to, x)
		}
	}
	kind := k.kind
	if a.Value.Raw == "lorem" {
		kind, opts = loremKind(dir), nil
	}
	if d != nil && d.Name == "Int" && kind == "number.float" {
		kind = "number.int" // an Int field's number: whole
		delete(opts, "decimals")
	}
	if d != nil && d.Name == "Int" && kind == "commerce.price" {
		kind, opts["decimals"] = "number.float", 0.0
	}
	if len(opts) == 0 {
		opts = nil
	}
	return Value{Kind: kind, Options: opts}, true
}

// fakeOption sets the generator option to from the value x of a
// fake__options field, in the generator's terms.
func fakeOption(opts map[string]any, to string, x any) {
	switch to {
	case "size": // imageSize {width height}: 1 to 1,024 pixels each
		if m, ok := x.(map[string]any); ok {
			for _, side := range []string{"width", "height"} {
				if n, ok := number(m[side]); ok {
					opts[side] = float64(min(max(int(n), 1), 1024))
				}
			}
		}
	case "precision": // precisionNumber 0.01 → 2 decimals
		if p, ok := number(x); ok && p > 0 && p < 1 {
			opts["decimals"] = float64(min(len(strconv.FormatFloat(p, 'f', -1, 64))-2, 10))
		} else if ok && p >= 1 {
			opts["decimals"] = 0.0
		}
	case "lorem": // loremSize picks the kind (fakeValue)
	default:
		opts[to] = x
	}
}

// loremKind is the kind of @fake(type: lorem), by its loremSize option
// (paragraphs when absent, as graphql-faker).
func loremKind(dir *ast.Directive) string {
	size := ""
	if o := dir.Arguments.ForName("options"); o != nil && o.Value != nil {
		if c := o.Value.Children.ForName("loremSize"); c != nil {
			size = c.Raw
		}
	}
	switch size {
	case "word":
		return "lorem.word"
	case "words", "sentence":
		return "lorem.sentence"
	}
	return "lorem.paragraph"
}

// number reads a JSON-ish number.
func number(x any) (float64, bool) {
	switch n := x.(type) {
	case float64:
		return n, true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	}
	return 0, false
}

// ListLength returns the bounds of the list field fd's generated items
// (@listLength(min:, max:)); ok is false without the directive.
func ListLength(fd *ast.FieldDefinition) (lo, hi int, ok bool) {
	dir := fd.Directives.ForName("listLength")
	if dir == nil {
		return 0, 0, false
	}
	read := func(name string) (int, bool) {
		a := dir.Arguments.ForName(name)
		if a == nil || a.Value == nil {
			return 0, false
		}
		n, err := strconv.Atoi(a.Value.Raw)
		return n, err == nil
	}
	lo, ok1 := read("min")
	hi, ok2 := read("max")
	return lo, hi, ok1 && ok2
}

// checkFaker refuses a document whose faker directives are out of
// bounds: @listLength with min over max or below 0 (BAD_USER_INPUT), or
// max over MaxListLength; @examples with over MaxExamples values
// (LIMIT_REACHED).
func checkFaker(s *ast.Schema) error {
	added := func(p *ast.Position) bool { return p != nil && p.Src != nil && p.Src.Name == fakerSourceName }
	ours := s.Directives["fake"] != nil && added(s.Directives["fake"].Position) &&
		s.Types["fake__Types"] != nil && added(s.Types["fake__Types"].Position)
	for _, name := range sortedTypes(s) {
		d := s.Types[name]
		if d.BuiltIn {
			continue
		}
		if err := checkFakerUses(name, d.Directives, ours); err != nil {
			return err
		}
		for _, f := range d.Fields {
			if err := checkFakerUses(name+"."+f.Name, f.Directives, ours); err != nil {
				return err
			}
			lo, hi, ok := ListLength(f)
			if !ok {
				continue
			}
			where := clip(name) + "." + clip(f.Name)
			switch {
			case lo < 0 || lo > hi:
				return model.Errorf(model.CodeBadUserInput, "%s: @listLength(min: %d, max: %d) needs 0 ≤ min ≤ max", where, lo, hi)
			case hi > MaxListLength:
				return model.Errorf(model.CodeLimitReached, "%s: @listLength max is %d; a generated list holds at most %d items", where, hi, MaxListLength)
			}
		}
	}
	return nil
}

// checkFakerUses checks the faker directives ds of where: @examples' values
// bounded, and when the definitions are Parse's (fakeTypes), @fake's
// type one of graphql-faker's (a misspelt one is refused, as
// graphql-faker refuses it).
func checkFakerUses(where string, ds ast.DirectiveList, fakeTypesOurs bool) error {
	for _, d := range ds.ForNames("fake") {
		a := d.Arguments.ForName("type")
		if fakeTypesOurs && a != nil && a.Value != nil && fakeTypes[a.Value.Raw].kind == "" {
			return model.Errorf(model.CodeBadUserInput, "%s: @fake(type: %s): no such fake__Types value; graphql-faker's are %s", clip(where), clip(a.Value.Raw), strings.Join(fakeTypeNames()[:8], ", ")+", …")
		}
	}
	for _, d := range ds.ForNames("examples") {
		if a := d.Arguments.ForName("values"); a != nil && a.Value != nil && len(a.Value.Children) > MaxExamples {
			return model.Errorf(model.CodeLimitReached, "%s: @examples lists %d values; at most %d", clip(where), len(a.Value.Children), MaxExamples)
		}
	}
	return nil
}

// isAddedSource reports whether a definition from the source named name
// was added by Parse rather than written in the document.
func isAddedSource(name string) bool {
	return slices.Contains([]string{federationSourceName, fakerSourceName}, name)
}
