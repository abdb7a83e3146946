package dataset

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// DemoSet is one dataset of the demo data pool: the file and the options to
// Read it with.
type DemoSet struct {
	ImportCode, Name, VariantField string
	Format                         Format
	Data                           []byte
}

// Demo sizes.
const (
	demoProducts  = 2000
	demoCustomers = 1000
	demoOrders    = 3000
)

// Demo returns the demo e-commerce data pool: categories, products (with
// the variants "eu" and "us" by market), customers and orders, as JSON
// arrays. It is deterministic: every call returns the same bytes, freshly
// allocated.
func Demo() []DemoSet {
	rng := rand.New(rand.NewPCG(20240601, 42))
	products, prices := demoProductsJSON(rng)
	return []DemoSet{
		{ImportCode: "categories", Name: "Categories", Format: JSON, Data: demoCategoriesJSON()},
		{ImportCode: "products", Name: "Products", Format: JSON, VariantField: "market", Data: products},
		{ImportCode: "customers", Name: "Customers", Format: JSON, Data: demoCustomersJSON(rng)},
		{ImportCode: "orders", Name: "Orders", Format: JSON, Data: demoOrdersJSON(rng, prices)},
	}
}

var (
	demoCategories = []string{"Books", "Electronics", "Computers", "Home & Kitchen", "Garden",
		"Toys", "Sports", "Outdoors", "Clothing", "Shoes", "Jewelry", "Beauty", "Health",
		"Grocery", "Pet Supplies", "Automotive", "Tools", "Office", "Music", "Movies"}
	demoAdjectives = []string{"Classic", "Compact", "Deluxe", "Eco", "Ergonomic", "Handmade",
		"Lightweight", "Modern", "Portable", "Premium", "Rugged", "Sleek", "Smart", "Vintage", "Wireless"}
	demoNouns = []string{"Backpack", "Blender", "Camera", "Chair", "Desk Lamp", "Headphones",
		"Jacket", "Kettle", "Keyboard", "Mug", "Notebook", "Speaker", "Sneakers", "Tent", "Watch"}
	demoMaterials = []string{"aluminium", "bamboo", "cotton", "leather", "oak", "recycled plastic", "steel", "wool"}
	demoTags      = []string{"new", "sale", "bestseller", "gift", "eco", "limited", "bundle", "clearance"}
	demoFirst     = []string{"Ada", "Alan", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken",
		"Frances", "Edsger", "Katherine", "Tim", "Radia", "Donald", "Hedy", "John", "Sophie", "Niklaus"}
	demoLast = []string{"Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Ritchie", "Liskov",
		"Thompson", "Allen", "Dijkstra", "Johnson", "Berners-Lee", "Perlman", "Knuth", "Lamarr", "Backus", "Wilson", "Wirth"}
	demoStreets = []string{"Main Street", "High Street", "Station Road", "Church Lane", "Park Avenue", "Mill Road", "Elm Street"}
	demoCities  = [][2]string{{"Berlin", "DE"}, {"Paris", "FR"}, {"Madrid", "ES"}, {"Rome", "IT"},
		{"Amsterdam", "NL"}, {"Vienna", "AT"}, {"New York", "US"}, {"Chicago", "US"}, {"Austin", "US"}, {"Seattle", "US"}}
	demoStatuses = []string{"pending", "paid", "shipped", "delivered", "cancelled"}
	demoEpoch    = time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
)

func demoCategoriesJSON() []byte {
	w := newDemoWriter()
	for i, name := range demoCategories {
		w.record()
		w.num("id", float64(i+1))
		w.str("name", name)
		w.str("slug", strings.ReplaceAll(strings.ReplaceAll(strings.ToLower(name), " & ", "-"), " ", "-"))
		w.end()
	}
	return w.close()
}

// demoProductsJSON returns the products and each one's price by id-1.
func demoProductsJSON(rng *rand.Rand) ([]byte, []float64) {
	w := newDemoWriter()
	prices := make([]float64, demoProducts)
	for i := range demoProducts {
		adj, noun := demoAdjectives[rng.IntN(len(demoAdjectives))], demoNouns[rng.IntN(len(demoNouns))]
		market, currency := "eu", "EUR"
		if i%2 == 1 {
			market, currency = "us", "USD"
		}
		prices[i] = math.Round((2+rng.Float64()*498)*100) / 100
		stock := rng.IntN(120)
		w.record()
		w.num("id", float64(i+1))
		w.str("sku", "SKU-"+pad(i+1, 6))
		w.str("name", adj+" "+noun)
		w.str("description", "A "+strings.ToLower(adj)+" "+strings.ToLower(noun)+" made of "+demoMaterials[rng.IntN(len(demoMaterials))]+".")
		w.num("categoryId", float64(1+rng.IntN(len(demoCategories))))
		w.key("price")
		w.begin()
		w.num("amount", prices[i])
		w.str("currency", currency)
		w.end()
		w.str("stock", strconv.Itoa(stock))
		w.boolean("inStock", stock > 0)
		w.key("tags")
		w.b = append(w.b, '[')
		for k, t := range demoPick(rng, demoTags, rng.IntN(3)) {
			if k > 0 {
				w.b = append(w.b, ',')
			}
			w.b = appendString(w.b, t)
		}
		w.b = append(w.b, ']')
		w.str("market", market)
		w.end()
	}
	return w.close(), prices
}

func demoCustomersJSON(rng *rand.Rand) []byte {
	w := newDemoWriter()
	for i := range demoCustomers {
		first, last := demoFirst[rng.IntN(len(demoFirst))], demoLast[rng.IntN(len(demoLast))]
		city := demoCities[rng.IntN(len(demoCities))]
		w.record()
		w.num("id", float64(i+1))
		w.str("firstName", first)
		w.str("lastName", last)
		w.str("email", strings.ToLower(first+"."+last)+strconv.Itoa(i+1)+"@example.com")
		w.key("address")
		w.begin()
		w.str("street", strconv.Itoa(1+rng.IntN(200))+" "+demoStreets[rng.IntN(len(demoStreets))])
		w.str("city", city[0])
		w.str("country", city[1])
		w.end()
		w.str("createdAt", demoTime(rng, 365))
		w.end()
	}
	return w.close()
}

func demoOrdersJSON(rng *rand.Rand, prices []float64) []byte {
	w := newDemoWriter()
	for i := range demoOrders {
		product, quantity := 1+rng.IntN(demoProducts), 1+rng.IntN(5)
		w.record()
		w.num("id", float64(i+1))
		w.num("customerId", float64(1+rng.IntN(demoCustomers)))
		w.num("productId", float64(product))
		w.num("quantity", float64(quantity))
		w.num("total", math.Round(prices[product-1]*float64(quantity)*100)/100)
		w.str("status", demoStatuses[rng.IntN(len(demoStatuses))])
		w.str("createdAt", demoTime(rng, 730))
		w.end()
	}
	return w.close()
}

// demoPick returns k distinct words.
func demoPick(rng *rand.Rand, words []string, k int) []string {
	perm := rng.Perm(len(words))[:k]
	out := make([]string, k)
	for i, j := range perm {
		out[i] = words[j]
	}
	return out
}

// demoTime returns an RFC 3339 time within days after the demo epoch.
func demoTime(rng *rand.Rand, days int) string {
	return demoEpoch.Add(time.Duration(rng.IntN(days*86400)) * time.Second).Format(time.RFC3339)
}

func pad(n, width int) string {
	s := strconv.Itoa(n)
	return strings.Repeat("0", max(0, width-len(s))) + s
}

// demoWriter writes a JSON array of objects.
type demoWriter struct {
	b     []byte
	first bool // no member written yet in the current object
	rows  int
}

func newDemoWriter() *demoWriter { return &demoWriter{b: []byte("[\n")} }

// record opens the next record of the array.
func (w *demoWriter) record() {
	if w.rows > 0 {
		w.b = append(w.b, ",\n"...)
	}
	w.rows++
	w.begin()
}

// begin opens an object.
func (w *demoWriter) begin() {
	w.b = append(w.b, '{')
	w.first = true
}

func (w *demoWriter) end() {
	w.b = append(w.b, '}')
	w.first = false
}

func (w *demoWriter) key(k string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.b = append(appendString(w.b, k), ':')
}

func (w *demoWriter) str(k, v string) {
	w.key(k)
	w.b = appendString(w.b, v)
}

func (w *demoWriter) num(k string, v float64) {
	w.key(k)
	w.b = appendNumber(w.b, v)
}

func (w *demoWriter) boolean(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *demoWriter) close() []byte { return append(w.b, "\n]\n"...) }
