package contract

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// fillFields lists e's scalar, enum and embedded fields with how generated
// rows fill them. Fields that lead to other rows are relations (see
// relations), not fields.
func (in *interpreter) fillFields(e *Entity) {
	for _, f := range in.s.Types[e.Type].Fields {
		d := in.def(f.Type)
		if d == nil || in.isRowType(d) && !in.embedded(d.Name) || in.wrappers[d.Name] != nil {
			continue
		}
		field := &Field{Name: f.Name, Type: d.Name, List: isList(f.Type), NonNull: f.Type.NonNull}
		switch {
		case d.Kind == ast.Enum:
			for _, v := range d.EnumValues {
				field.Value.Enum = append(field.Value.Enum, v.Name)
			}
			field.Value.Kind = "enum"
		case d.Kind == ast.Object:
			field.Embedded = true
			field.Value.Kind = "object"
		case f.Name == e.Key:
			field.Value.Kind = "key"
		default:
			field.Value = valueFor(e.Type, f.Name, d.Name)
		}
		e.Fields = append(e.Fields, field)
	}
}

// nameKinds picks a generator by the field's name, for string fields; the
// first entry whose word the folded name ends with (or equals) wins.
var nameKinds = []struct{ word, kind string }{
	{"email", "internet.email"}, {"firstname", "person.firstName"}, {"lastname", "person.lastName"},
	{"surname", "person.lastName"}, {"fullname", "person.fullName"}, {"username", "internet.userName"},
	{"login", "internet.userName"}, {"handle", "internet.userName"}, {"displayname", "person.fullName"},
	{"authorname", "person.fullName"}, {"author", "person.fullName"}, {"director", "person.fullName"},
	{"producer", "person.fullName"}, {"creator", "person.fullName"}, {"owner", "person.fullName"},
	{"manager", "person.fullName"}, {"artist", "person.fullName"}, {"phone", "person.phone"}, {"mobile", "person.phone"},
	{"avatar", "image.url"}, {"image", "image.url"}, {"photo", "image.url"}, {"picture", "image.url"},
	{"thumbnail", "image.url"}, {"cover", "image.url"}, {"logo", "image.url"}, {"icon", "image.url"},
	{"url", "internet.url"}, {"uri", "internet.url"}, {"website", "internet.url"}, {"link", "internet.url"},
	{"homepage", "internet.url"}, {"domain", "internet.domain"}, {"ip", "internet.ipv4"},
	{"street", "address.street"}, {"address", "address.street"}, {"city", "address.city"},
	{"state", "address.state"}, {"zip", "address.zip"}, {"zipcode", "address.zip"}, {"postalcode", "address.zip"},
	{"postcode", "address.zip"}, {"countrycode", "address.countryCode"}, {"country", "address.country"},
	{"company", "company.name"}, {"companyname", "company.name"}, {"jobtitle", "person.jobTitle"},
	{"color", "color"}, {"colour", "color"}, {"uuid", "uuid"}, {"guid", "uuid"},
	{"title", "lorem.sentence"}, {"headline", "lorem.sentence"}, {"subject", "lorem.sentence"},
	{"summary", "lorem.sentence"}, {"description", "lorem.paragraph"}, {"body", "lorem.paragraph"},
	{"content", "lorem.paragraph"}, {"text", "lorem.paragraph"}, {"bio", "lorem.paragraph"},
	{"comment", "lorem.paragraph"}, {"message", "lorem.sentence"}, {"note", "lorem.sentence"},
	{"productname", "commerce.productName"}, {"category", "commerce.department"}, {"department", "commerce.department"},
	{"name", "person.fullName"}, {"slug", "lorem.slug"}, {"sku", "commerce.sku"}, {"isbn", "commerce.isbn"},
	{"currency", "finance.currency"}, {"gender", "person.gender"}, {"status", "lorem.word"},
	{"tag", "lorem.word"}, {"label", "lorem.word"}, {"code", "lorem.code"},
	{"createdat", "date.past"}, {"updatedat", "date.past"}, {"publishedat", "date.past"}, {"deletedat", "date.past"},
	{"date", "date.past"}, {"at", "date.past"}, {"time", "date.past"}, {"birthday", "date.birthday"},
	{"lat", "address.latitude"}, {"latitude", "address.latitude"}, {"lng", "address.longitude"},
	{"lon", "address.longitude"}, {"longitude", "address.longitude"},
}

// numberKinds picks a generator and range by the field's name, for Int and
// Float fields.
var numberKinds = []struct {
	word     string
	min, max float64
	decimals int
}{
	{"price", 1, 1000, 2}, {"amount", 1, 1000, 2}, {"cost", 1, 1000, 2}, {"total", 1, 5000, 2},
	{"balance", 0, 10000, 2}, {"salary", 20000, 200000, 0}, {"rating", 1, 5, 1}, {"stars", 1, 5, 0},
	{"score", 0, 100, 0}, {"percent", 0, 100, 0}, {"age", 18, 90, 0}, {"year", 1950, 2025, 0},
	{"quantity", 0, 100, 0}, {"stock", 0, 500, 0}, {"count", 0, 1000, 0}, {"views", 0, 100000, 0},
	{"likes", 0, 10000, 0}, {"pages", 10, 1200, 0}, {"duration", 1, 600, 0}, {"weight", 1, 100, 2},
	{"height", 1, 250, 0}, {"width", 1, 2000, 0}, {"size", 1, 1000, 0}, {"position", 1, 100, 0},
	{"order", 1, 100, 0}, {"rank", 1, 100, 0}, {"level", 1, 10, 0},
	{"lat", -90, 90, 6}, {"latitude", -90, 90, 6}, {"lng", -180, 180, 6}, {"lon", -180, 180, 6}, {"longitude", -180, 180, 6},
}

// scalarKinds picks a generator for custom scalars by their name.
var scalarKinds = map[string]string{
	"datetime": "date.past", "timestamp": "date.past", "timestamptz": "date.past", "instant": "date.past",
	"date": "date.day", "localdate": "date.day", "time": "date.time", "localtime": "date.time",
	"url": "internet.url", "uri": "internet.url", "email": "internet.email", "emailaddress": "internet.email",
	"uuid": "uuid", "guid": "uuid", "json": "scalar.json", "jsonobject": "scalar.json", "jsonb": "scalar.json",
	"bigint": "scalar.bigint", "long": "scalar.bigint", "int64": "scalar.bigint", "decimal": "scalar.decimal",
	"bigdecimal": "scalar.decimal", "numeric": "scalar.decimal", "money": "commerce.price", "currency": "finance.currency",
	"phonenumber": "person.phone", "hexcolorcode": "color", "ipv4": "internet.ipv4", "countrycode": "address.countryCode",
	"latitude": "address.latitude", "longitude": "address.longitude", "upload": "scalar.string",
}

// Words that say what a "name" field holds, by the type it belongs to.
var (
	personTypes  = []string{"user", "author", "person", "people", "customer", "member", "employee", "owner", "artist", "actor", "student", "teacher", "contact", "profile", "player", "patient", "driver", "speaker", "guest", "host", "writer", "creator", "manager"}
	companyTypes = []string{"company", "organization", "organisation", "org", "team", "brand", "vendor", "supplier", "store", "shop", "publisher", "manufacturer", "business", "agency"}
	productTypes = []string{"product", "item", "article", "good", "merchandise", "variant", "sku"}
	imageWords   = []string{"avatar", "image", "photo", "picture", "thumbnail", "logo", "icon", "cover", "banner", "poster"}
	// imageSizes are the sizes of the pictures whose name says a shape
	// (the image generator's default is 640 × 480).
	imageSizes = map[string]map[string]any{
		"avatar": {"width": 256.0, "height": 256.0}, "thumbnail": {"width": 256.0, "height": 256.0},
		"logo": {"width": 256.0, "height": 256.0}, "icon": {"width": 128.0, "height": 128.0},
		"banner": {"width": 1024.0, "height": 256.0}, "poster": {"width": 400.0, "height": 600.0},
	}
)

// valueFor picks how generated rows fill a field named name of the scalar
// type typ in the type owner: by the type for Boolean and custom scalars,
// by the name (and for a bare "name", the owner) for strings and numbers.
func valueFor(owner, name, typ string) Value {
	n := norm(name)
	if typ == "String" && (n == "name" || n == "title" && matchesAny(owner, productTypes)) {
		return Value{Kind: nameKind(owner)}
	}
	if typ == "String" || typ == "URL" || typ == "Url" {
		for _, w := range imageWords {
			if strings.Contains(n, w) {
				return Value{Kind: "image.url", Options: imageSizes[w]}
			}
		}
	}
	switch typ {
	case "Boolean":
		return Value{Kind: "boolean"}
	case "ID":
		return Value{Kind: "uuid"}
	case "Int", "Float":
		for _, k := range numberKinds {
			if strings.HasSuffix(n, k.word) {
				o := map[string]any{"min": k.min, "max": k.max}
				if typ == "Float" {
					o["decimals"] = k.decimals
					return Value{Kind: "number.float", Options: o}
				}
				return Value{Kind: "number.int", Options: o}
			}
		}
		if typ == "Float" {
			return Value{Kind: "number.float", Options: map[string]any{"min": 0.0, "max": 1000.0, "decimals": 2}}
		}
		return Value{Kind: "number.int", Options: map[string]any{"min": 0.0, "max": 1000.0}}
	case "String":
		for _, k := range nameKinds {
			if n == k.word || strings.HasSuffix(n, k.word) && k.word != "at" && k.word != "ip" && k.word != "lat" {
				return Value{Kind: k.kind}
			}
		}
		if strings.HasSuffix(name, "At") {
			return Value{Kind: "date.past"}
		}
		return Value{Kind: "lorem.word"}
	}
	if numericScalars[norm(typ)] {
		return valueFor(owner, name, "Float") // numbers, so ranges and sums work
	}
	if k, ok := scalarKinds[norm(typ)]; ok {
		return Value{Kind: k}
	}
	return Value{Kind: "scalar.string"}
}

// numericScalars are the custom scalars whose values are JSON numbers
// (Hasura's numeric and float8, decimals, money).
var numericScalars = map[string]bool{
	"numeric": true, "decimal": true, "bigdecimal": true, "money": true, "float8": true, "float4": true,
	"double": true, "float64": true, "float32": true, "int4": true, "int2": true, "smallint": true, "integer": true,
}

// nameKind picks the generator of a "name" field by the type it names.
func nameKind(owner string) string {
	switch {
	case matchesAny(owner, personTypes):
		return "person.fullName"
	case matchesAny(owner, companyTypes):
		return "company.name"
	case matchesAny(owner, productTypes):
		return "commerce.productName"
	case sameEntity(owner, "city"):
		return "address.city"
	case sameEntity(owner, "country"):
		return "address.country"
	}
	return "lorem.title"
}

// matchesAny reports whether the type name owner ends with one of words
// (folded and singular: BookAuthor, authors, user_profiles).
func matchesAny(owner string, words []string) bool {
	o := singular(norm(owner))
	for _, w := range words {
		if strings.HasSuffix(o, w) {
			return true
		}
	}
	return false
}

// ValueOf returns how a value of the scalar type typ for the field name of
// the type owner is generated: the same choice generated rows make, for
// values mockgql makes outside rows (generated fields and root fields).
func ValueOf(owner, name, typ string) Value { return valueFor(owner, name, typ) }
