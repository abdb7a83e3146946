package main

import (
	"strings"
	"testing"
)

// TestBoardKeyRoles (issue 22, the key page's role rules): an EDITOR is
// offered only RUNTIME keys and Revoke/Delete only on the keys they
// created; each key shows who created it and when it was last used; an
// EDITOR is not offered to delete a project, an OWNER is.
func TestBoardKeyRoles(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "key-roles-owner@example.com", "kr")
	pid := sh.project["id"].(string)
	sh.query(`{ products { total } }`, nil).data(t) // the FULL key is used
	editor := sh.member(t, "key-roles-editor@example.com", "EDITOR")

	p := newPage(t, s)
	p.signedIn(editor)
	p.open("/board/projects/"+pid+"/keys", "#keyScope")
	if got := p.js(`[...document.querySelectorAll("#keyScope option")].map((o) => o.value).join(",")`); got != "RUNTIME" {
		t.Fatalf("an editor is offered the scopes %v", got)
	}
	p.waitText("#keys", "key-roles-owner@example.com")
	if n := p.js(`document.querySelectorAll("#keys button").length`); n != 0.0 {
		t.Fatalf("an editor is offered %v buttons on the owner's keys", n)
	}
	if !strings.Contains(p.text("#keys"), "An admin can revoke it.") {
		t.Fatalf("keys: %s", p.text("#keys"))
	}
	used := p.js(`(() => { const r = [...document.querySelectorAll("#keys tbody tr")].find((r) => r.querySelector('[data-label="Scope"]').textContent === "full"); return r.querySelector('[data-label="Last used"]').textContent; })()`)
	if used == "never" {
		t.Fatal("the used FULL key shows Last used: never")
	}
	p.set("#keyName", "editor key")
	p.click("#createKey")
	p.wait(`tr[data-key="editor key"] [aria-label="Revoke editor key"]`)
	p.wait(`tr[data-key="editor key"] [aria-label="Delete editor key"]`)
	if got := p.text(`tr[data-key="editor key"] [data-label="Created by"]`); got != "you" {
		t.Fatalf("created by: %q", got)
	}
	p.shot("keys-editor")

	// Projects: an editor may rename, not delete; the owner may delete.
	p.open("/board/projects", "#projects")
	p.waitText("#projects", "Deleting it needs the Admin role.")
	for _, b := range p.editControls() {
		if strings.Contains(b, "Delete") {
			t.Fatalf("an editor is offered %q", b)
		}
	}
	p.shot("projects-editor")
	o := newPage(t, s)
	o.signedIn(sh.owner)
	o.open("/board/projects", "#projects")
	o.clickText("#projects button", "Delete…")
	o.open("/board/projects/"+pid+"/keys", `[aria-label="Revoke editor key"]`)
	if got := o.js(`[...document.querySelectorAll("#keyScope option")].map((o) => o.value).join(",")`); got != "RUNTIME,FULL,MANAGEMENT" {
		t.Fatalf("the owner is offered the scopes %v", got)
	}
	o.waitText(`tr[data-key="editor key"] [data-label="Created by"]`, "key-roles-editor@example.com")

	// Removing the editor names what is lost and, as offered, revokes their key.
	o.open("/board/account", `[aria-label="Remove key-roles-editor@example.com"]`)
	o.click(`[aria-label="Remove key-roles-editor@example.com"]`)
	o.waitText("#memberConfirm", "Also revoke the API keys they created")
	o.shot("keys-remove-member")
	o.click("#confirmYes")
	o.waitText("#membersCard .status", "1 key they created was revoked")
	o.open("/board/projects/"+pid+"/keys", `tr[data-key="editor key"]`)
	o.waitText(`tr[data-key="editor key"] [data-label="State"]`, "revoked")
}
