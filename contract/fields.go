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
		if lo, hi, ok := ListLength(f); ok && field.List {
			field.Sized, field.ListMin, field.ListMax = true, lo, hi
		}
		if v, ok := directiveValue(f, d); ok && f.Name != e.Key && d.Kind != ast.Object {
			field.Value, field.Source = v, SourceDirective
			e.Fields = append(e.Fields, field)
			continue
		}
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
	{"ordernumber", "order.number"}, {"orderno", "order.number"}, {"ordernum", "order.number"},
	{"trackingnumber", "shipping.tracking"}, {"trackingcode", "shipping.tracking"}, {"trackingid", "shipping.tracking"},
	{"tracking", "shipping.tracking"}, {"carrier", "shipping.carrier"}, {"courier", "shipping.carrier"},
	{"transactionid", "finance.transactionId"}, {"paymentid", "finance.transactionId"}, {"reference", "finance.transactionId"},
	{"invoicenumber", "finance.invoiceNumber"}, {"receiptnumber", "finance.invoiceNumber"},
	{"alttext", "text.altText"}, {"alt", "text.altText"}, {"caption", "text.altText"},
	{"producttype", "commerce.category"}, {"vendor", "company.name"}, {"brand", "company.name"},
	{"manufacturer", "company.name"}, {"supplier", "company.name"},
	{"species", "misc.species"}, {"birthdate", "date.birthday"}, {"dateofbirth", "date.birthday"}, {"dob", "date.birthday"}, {"size", "commerce.size"}, {"material", "commerce.material"},
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
	{"title", "text.title"}, {"headline", "text.title"}, {"subject", "text.title"},
	{"summary", "text.sentence"}, {"description", "text.paragraph"}, {"body", "text.paragraph"},
	{"content", "text.paragraph"}, {"text", "text.paragraph"}, {"bio", "text.paragraph"},
	{"comment", "text.sentence"}, {"message", "text.sentence"}, {"note", "text.sentence"},
	{"productname", "commerce.productName"}, {"category", "commerce.category"}, {"department", "commerce.department"},
	{"collection", "commerce.category"}, {"genre", "commerce.category"},
	{"name", "person.fullName"}, {"slug", "text.slug"}, {"sku", "commerce.sku"}, {"isbn", "commerce.isbn"},
	{"currency", "finance.currency"}, {"gender", "person.gender"}, {"status", "status.generic"},
	{"tag", "commerce.tag"}, {"label", "commerce.tag"}, {"code", "lorem.code"},
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
	personTypes  = []string{"user", "author", "person", "people", "customer", "member", "employee", "owner", "artist", "actor", "student", "teacher", "contact", "profile", "player", "patient", "driver", "speaker", "guest", "host", "writer", "creator", "manager", "character", "hero", "villain"}
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
	if (typ == "String" || typ == "URL" || typ == "Url") && (n == "url" || n == "src" || n == "originalsrc" || n == "transformedsrc") && matchesAny(owner, imageWords) {
		return Value{Kind: "image.url"} // Image.url, Shopify's Image.originalSrc
	}
	if (typ == "String" || typ == "URL" || typ == "Url") && !describesImage(n) {
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
		if strings.Contains(n, "percent") || strings.Contains(n, "discount") || strings.HasSuffix(n, "pct") {
			if typ == "Float" {
				return Value{Kind: "number.float", Options: map[string]any{"min": 0.0, "max": 100.0, "decimals": 1}}
			}
			return Value{Kind: "number.int", Options: map[string]any{"min": 0.0, "max": 100.0}}
		}
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
		if strings.HasSuffix(n, "alt") && describesImage(n) {
			return Value{Kind: "text.altText"} // imageAlt
		}
		for _, k := range nameKinds {
			if n == k.word || strings.HasSuffix(n, k.word) && k.word != "at" && k.word != "ip" && k.word != "lat" && k.word != "alt" {
				return Value{Kind: byOwner(owner, k.kind)}
			}
		}
		if strings.HasSuffix(name, "At") {
			return Value{Kind: "date.past"}
		}
		return Value{Kind: "text.word"}
	}
	if numericScalars[norm(typ)] {
		return valueFor(owner, name, "Float") // numbers, so ranges and sums work
	}
	if k, ok := scalarKinds[norm(typ)]; ok {
		return Value{Kind: k}
	}
	return Value{Kind: "scalar.string"}
}

// describesImage reports whether the folded field name is a text about a
// picture (imageAlt, photoCaption), not its address.
func describesImage(n string) bool {
	for _, s := range []string{"alt", "alttext", "caption", "title", "description", "credit"} {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
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
	case matchesAny(owner, categoryTypes):
		return "commerce.category"
	case matchesAny(owner, optionTypes):
		return "commerce.optionName"
	case matchesAny(owner, codeTypes):
		return "text.slug"
	}
	return "text.title"
}

// codeTypes are the types whose name is a slug, as a repository's is
// (GitHub's hello-world).
var codeTypes = []string{"repository", "repo", "package", "library", "module", "gist", "branch", "workflow"}

// optionTypes are the types of a product's options (Shopify's
// ProductOption and SelectedOption): their name is Size, Color, ….
var optionTypes = []string{"option", "productoption", "selectedoption", "variantoption"}

// categoryTypes are the types whose name is a category's.
var categoryTypes = []string{"category", "categories", "collection", "department", "genre", "tag", "label", "topic", "section"}

// byOwner refines a generator kind by the type that holds the field: an
// order's status is an order's, a book's title a book's.
func byOwner(owner, kind string) string {
	o := singular(norm(owner))
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(o, w) {
				return true
			}
		}
		return false
	}
	switch kind {
	case "status.generic":
		switch {
		case has("order", "cart", "checkout", "fulfillment", "fulfilment"):
			return "status.order"
		case has("shipment", "shipping", "delivery", "parcel", "package"):
			return "status.shipment"
		case has("payment", "transaction", "invoice", "refund", "charge"):
			return "status.payment"
		case has("user", "account", "member", "customer", "subscription", "employee"):
			return "status.account"
		case has("task", "ticket", "issue", "todo", "job", "project"):
			return "status.task"
		case has("character", "hero", "villain", "creature", "pet"):
			return "status.life"
		}
	case "text.title":
		switch {
		case has("book", "novel"):
			return "book.title"
		case has("movie", "film", "episode", "show"):
			return "movie.title"
		case has("song", "track", "album"):
			return "song.title"
		case matchesAny(owner, productTypes):
			return "commerce.productName"
		case matchesAny(owner, categoryTypes):
			return "commerce.category"
		}
	case "text.paragraph":
		if matchesAny(owner, productTypes) {
			return "commerce.description"
		}
	case "internet.userName": // a product's or a collection's handle is a slug
		if matchesAny(owner, productTypes) || matchesAny(owner, categoryTypes) || has("page", "article", "blog", "post") {
			return "text.slug"
		}
	}
	return kind
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
