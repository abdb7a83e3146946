package model_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mockgql/mockgql/model"
)

func TestValidName(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"Product", true},
		{"product", true},
		{"_private", true},
		{"_", true},
		{"a1", true},
		{"order_line_2", true},
		{"_1", true},
		{"", false},
		{"1a", false},
		{"9", false},
		{"__typename", false},
		{"__", false},
		{"a-b", false},
		{"a b", false},
		{"a.b", false},
		{"é", false},
		{"naïve", false},
		{"a\x00", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := model.ValidName(tt.in); got != tt.want {
				t.Errorf("ValidName(%q) = %v, want %v", tt.in, got, tt.want)
			}
			err := model.CheckName("table name", tt.in)
			if tt.want != (err == nil) {
				t.Errorf("CheckName(%q) = %v", tt.in, err)
			}
			if err != nil && (model.ErrorCode(err) != model.CodeBadUserInput || !strings.Contains(err.Error(), "table name")) {
				t.Errorf("CheckName(%q) = %v, want BAD_USER_INPUT naming what", tt.in, err)
			}
		})
	}
}

func TestLowerUpperCamel(t *testing.T) {
	tests := []struct{ in, lower, upper string }{
		{"", "", ""},
		{"Product", "product", "Product"},
		{"product", "product", "Product"},
		{"OrderLine", "orderLine", "OrderLine"},
		{"URLItem", "urlItem", "URLItem"},
		{"URL", "url", "URL"},
		{"ID", "id", "ID"},
		{"A", "a", "A"},
		{"_Product", "_Product", "_Product"},
		{"iPhone", "iPhone", "IPhone"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := model.LowerCamel(tt.in); got != tt.lower {
				t.Errorf("LowerCamel(%q) = %q, want %q", tt.in, got, tt.lower)
			}
			if got := model.UpperCamel(tt.in); got != tt.upper {
				t.Errorf("UpperCamel(%q) = %q, want %q", tt.in, got, tt.upper)
			}
		})
	}
}

func TestPlural(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"product", "products"},
		{"Product", "Products"},
		{"category", "categories"},
		{"Category", "Categories"},
		{"day", "days"},
		{"Key", "Keys"},
		{"toy", "toys"},
		{"y", "ys"},
		{"box", "boxes"},
		{"Box", "Boxes"},
		{"bus", "buses"},
		{"Address", "Addresses"},
		{"Waltz", "Waltzes"},
		{"Match", "Matches"},
		{"Dish", "Dishes"},
		{"Person", "Persons"},
		// Words in -ies are their own plural: Series, Species.
		{"Series", "Series"},
		{"TvSeries", "TvSeries"},
		{"species", "species"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := model.Plural(tt.in); got != tt.want {
				t.Errorf("Plural(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestDefaultOperationName(t *testing.T) {
	tests := []struct {
		table                                string
		list, single, create, update, delete string
	}{
		{"Product", "products", "product", "createProduct", "updateProduct", "deleteProduct"},
		{"Category", "categories", "category", "createCategory", "updateCategory", "deleteCategory"},
		{"Box", "boxes", "box", "createBox", "updateBox", "deleteBox"},
		{"OrderLine", "orderLines", "orderLine", "createOrderLine", "updateOrderLine", "deleteOrderLine"},
		{"person", "persons", "person", "createPerson", "updatePerson", "deletePerson"},
		// The plural of Series is Series: the list keeps apart from the single.
		{"Series", "seriesList", "series", "createSeries", "updateSeries", "deleteSeries"},
	}
	for _, tt := range tests {
		t.Run(tt.table, func(t *testing.T) {
			want := map[model.OperationKind]string{model.OpList: tt.list, model.OpSingle: tt.single,
				model.OpCreate: tt.create, model.OpUpdate: tt.update, model.OpDelete: tt.delete, "SEARCH": ""}
			for k, w := range want {
				if got := model.DefaultOperationName(tt.table, k); got != w {
					t.Errorf("DefaultOperationName(%q, %s) = %q, want %q", tt.table, k, got, w)
				}
			}
		})
	}
}

func TestSlugify(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Shop", "shop"},
		{"My Shop", "my-shop"},
		{"  My   Shop!  ", "my-shop"},
		{"Hello, World!", "hello-world"},
		{"v2 API", "v2-api"},
		{"--a--b--", "a-b"},
		{"Café Olé", "caf-ol"},
		{"日本語", "project"},
		{"", "project"},
		{"!!!", "project"},
		{"A", "a"},
		{strings.Repeat("a", 60), strings.Repeat("a", 48)},
		{strings.Repeat("ab ", 30), strings.TrimSuffix(strings.Repeat("ab-", 16), "-")},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := model.Slugify(tt.in); got != tt.want {
				t.Errorf("Slugify(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestValidSlug(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"shop", true},
		{"my-shop", true},
		{"a1", true},
		{"42", true},
		{"a--b", true},
		{strings.Repeat("a", 64), true},
		{"", false},
		{"a", false},
		{strings.Repeat("a", 65), false},
		{"-shop", false},
		{"shop-", false},
		{"Shop", false},
		{"my_shop", false},
		{"my shop", false},
		{"shop.io", false},
		{"caf\u00e9", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := model.ValidSlug(tt.in); got != tt.want {
				t.Errorf("ValidSlug(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzSlugify: a slug is short, made of a-z, 0-9 and single inner dashes,
// valid when it has two characters or more, and Slugify is idempotent.
func FuzzSlugify(f *testing.F) {
	for _, s := range []string{"Shop", "My Shop!", "", "日本語", "a", "--a--", strings.Repeat("xy ", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		s := model.Slugify(name)
		if s == "" || len(s) > 48 {
			t.Fatalf("Slugify(%q) = %q: empty or longer than 48", name, s)
		}
		if strings.HasPrefix(s, "-") || strings.HasSuffix(s, "-") || strings.Contains(s, "--") {
			t.Fatalf("Slugify(%q) = %q: stray dash", name, s)
		}
		for _, r := range s {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
				t.Fatalf("Slugify(%q) = %q: character %q", name, s, r)
			}
		}
		if len(s) >= 2 && !model.ValidSlug(s) {
			t.Fatalf("Slugify(%q) = %q is not a ValidSlug", name, s)
		}
		if again := model.Slugify(s); again != s {
			t.Fatalf("Slugify(Slugify(%q)) = %q, want %q", name, again, s)
		}
	})
}

// FuzzValidName: names derived from a valid name (the default operation
// names, the camel forms) are valid too; CheckName agrees with ValidName.
func FuzzValidName(f *testing.F) {
	for _, s := range []string{"Product", "_", "__x", "a1", "1a", "URLItem", "é", "Series"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		valid := model.ValidName(s)
		if (model.CheckName("x", s) == nil) != valid {
			t.Fatalf("CheckName and ValidName disagree on %q", s)
		}
		if valid && !utf8.ValidString(s) {
			t.Fatalf("ValidName(%q) with invalid UTF-8", s)
		}
		if !valid {
			return
		}
		for _, derived := range []string{model.LowerCamel(s), model.UpperCamel(s), model.Plural(s)} {
			if !model.ValidName(derived) {
				t.Errorf("%q derived from valid %q is not valid", derived, s)
			}
		}
		for _, k := range []model.OperationKind{model.OpList, model.OpSingle, model.OpCreate, model.OpUpdate, model.OpDelete} {
			if n := model.DefaultOperationName(s, k); !model.ValidName(n) {
				t.Errorf("DefaultOperationName(%q, %s) = %q is not valid", s, k, n)
			}
		}
		if a, b := model.DefaultOperationName(s, model.OpList), model.DefaultOperationName(s, model.OpSingle); a == b {
			t.Errorf("list and single of %q are both %q", s, a)
		}
	})
}
