package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestBoardGuardsDestructiveEdits (issue 22 item 6): every breaking or
// destructive edit asks first, naming what breaks (schemaChangesOfEdit)
// or what is lost, and Cancel changes nothing: a type change, deleting an
// attribute, a relation, an operation, a table, a key, revoking a key.
// Changing the plan re-renders the account page in place.
func TestBoardGuardsDestructiveEdits(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "guard@example.com", "gd")
	pid := sh.project["id"].(string)
	model := func() string {
		return fmt.Sprint(sh.owner.must(`query($id:ID){ project(id:$id) { tables { name attributes { name type } } relations { fieldName } operations { name } } }`, map[string]any{"id": pid}))
	}
	p := newPage(t, s)
	p.signedIn(sh.owner)
	p.open("/board/projects/"+pid, `section[data-table="Product"] tr[data-attribute="stock"]`)

	// A type change is BREAKING: it is named, and Cancel puts the type back.
	p.choose(`[aria-label="Type of Product.stock"]`, "INT")
	p.waitText(`section[data-table="Product"] #breakingWarning`, "Product.stock")
	p.shot("guard-type-change")
	p.clickText(`section[data-table="Product"] #breakingWarning button`, "Cancel")
	if v := p.js(`document.querySelector('[aria-label="Type of Product.stock"]').value`); v != "STRING" {
		t.Fatalf("after cancel the type says %v", v)
	}
	if strings.Contains(model(), "name:stock type:INT") {
		t.Fatal("the type changed before the person confirmed")
	}
	p.choose(`[aria-label="Type of Product.stock"]`, "INT")
	p.click(`section[data-table="Product"] #confirmBreaking`)
	p.waitText("#announce", "Changed Product.stock to INT")
	if !strings.Contains(model(), "name:stock type:INT") {
		t.Fatalf("the confirmed type change was not made: %s", model())
	}

	// Deleting an attribute: what breaks (the field) and what is lost (its
	// mapping); Cancel keeps it, the confirmation deletes it.
	p.click(`[aria-label="Delete Product.market"]`)
	w := p.waitText(`section[data-table="Product"] #breakingWarning`, "Delete the attribute Product.market?")
	if !strings.Contains(w, "Product.market") || !strings.Contains(w, "it reads market") {
		t.Fatalf("attribute warning: %q", w)
	}
	p.shot("guard-attribute")
	p.clickText(`section[data-table="Product"] #breakingWarning button`, "Cancel")
	if !strings.Contains(model(), "name:market") {
		t.Fatal("cancel deleted the attribute")
	}
	p.click(`[aria-label="Delete Product.market"]`)
	p.click(`section[data-table="Product"] #confirmBreaking`)
	p.waitText("#announce", "Deleted Product.market.")
	p.gone(`section[data-table="Product"] tr[data-attribute="market"]`)
	if strings.Contains(model(), "name:market") {
		t.Fatal("the confirmed delete left the attribute")
	}

	// Deleting a relation names both fields it removes.
	p.click(`[aria-label="Delete relation Category.products"]`)
	w = p.waitText("#relationConfirm", "Category.products")
	if !strings.Contains(w, "Product.category") || !strings.Contains(w, "Delete the relation") {
		t.Fatalf("relation warning: %q", w)
	}
	p.shot("guard-relation")
	if !strings.Contains(model(), "fieldName:products") {
		t.Fatal("the relation went before the confirmation")
	}
	p.click("#relationConfirm #confirmBreaking")
	p.gone(`#relations tr[data-relation="products"]`)

	// Deleting a table says what goes with it.
	p.clickText(`section[data-table="Category"] button`, "Delete table Category…")
	w = p.waitText(`section[data-table="Category"] .warning`, "Delete the table Category?")
	if !strings.Contains(w, "2 attributes") || !strings.Contains(w, "Query.categories") {
		t.Fatalf("table warning: %q", w)
	}
	p.clickText(`section[data-table="Category"] .warning button`, "Cancel")
	if !strings.Contains(model(), "name:Category") {
		t.Fatal("cancel deleted the table")
	}

	// Deleting an operation: what breaks and what is lost.
	p.open("/board/projects/"+pid+"/design", `tr[data-operation="searchProducts"]`)
	p.click(`[aria-label="Delete searchProducts"]`)
	w = p.waitText("#breakingWarning", "Query.searchProducts")
	if !strings.Contains(w, "minPrice") {
		t.Fatalf("operation warning: %q", w)
	}
	p.shot("guard-operation")
	p.clickText("#breakingWarning button", "Cancel")
	if !strings.Contains(model(), "searchProducts") {
		t.Fatal("cancel deleted the operation")
	}

	// Keys: revoke and delete ask, naming the key and what stops.
	p.open("/board/projects/"+pid+"/keys", `#keys`)
	p.js(`(document.querySelectorAll('[aria-label="Delete k"]')[0].click(), true)`)
	p.waitText("#keyConfirm", "401 API_KEY_INVALID")
	p.shot("guard-key-delete")
	p.clickText("#keyConfirm button", "Cancel")
	if n := p.js(`document.querySelectorAll("#keys tbody tr").length`); n != 3.0 {
		t.Fatalf("keys after cancel: %v", n)
	}
	p.js(`(document.querySelectorAll('[aria-label="Revoke k"]')[0].click(), true)`)
	p.waitText("#keyConfirm", "Revoke the")
	p.click("#confirmYes")
	p.waitText("#keys", "revoked")

	// The plan changes in place: no document reload.
	p.open("/board/account", "#planSelect")
	p.markWindow()
	p.choose("#planSelect", "team")
	p.click("#setPlan")
	p.waitText("#plan", "team")
	p.waitText("#top .who", "team")
	p.windowKept("changing the plan")
	p.waitText("#planCard .status", "The plan is now team")
	if next := p.js(`document.querySelector("main h1").nextElementSibling.id`); next != "planCard" {
		t.Fatalf("the re-rendered plan card moved: after the heading comes %v", next)
	}
	p.shot("guard-account-plan")

	// A dataset: what is lost, and the refusal while a table reads it.
	p.open("/board/data", `[data-dataset="gdcategories"]`)
	p.clickText(`[data-dataset="gdcategories"] button`, "Delete gdcategories…")
	p.waitText(`[data-dataset="gdcategories"] .warning`, "Its records are gone")
	p.shot("guard-dataset")
	p.click(`[data-dataset="gdcategories"] #confirmYes`)
	p.waitText(`[data-dataset="gdcategories"] .dataset-actions .status`, "Category")
}
