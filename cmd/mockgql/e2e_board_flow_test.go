package main

import (
	"strings"
	"testing"
)

// TestBoardStartAndProjects: the landing page, sign-up through its form,
// the project list with create, rename, change slug and delete (after a
// confirmation naming the project), and logout.
func TestBoardStartAndProjects(t *testing.T) {
	s := startServer(t)
	p := newPage(t, s)
	p.open("/", "#signup")
	p.shot("start")
	p.set("#suEmail", "ann@example.com")
	p.set("#suPassword", "a long password")
	p.submit("#suEmail")
	p.wait("#newName")
	if !strings.HasSuffix(p.location(), "/board/projects") {
		t.Fatalf("after sign-up: %s", p.location())
	}
	p.shot("projects-empty")
	p.set("#newName", "Shop")
	p.set("#newSlug", "ann-shop")
	p.click("#create")
	p.wait(`[data-table], #tableName`)
	p.open("/board/projects", `[data-project="Shop"]`)
	p.shot("projects")
	p.clickText(`[data-project="Shop"] summary`, "Rename or change slug")
	p.set(`[aria-label="New name of Shop"]`, "Ann's shop")
	p.set(`[aria-label="New slug of Shop"]`, "anns-shop")
	p.clickText(`[data-project="Shop"] button`, "Save")
	p.waitText("#projects", "anns-shop")
	p.clickText(`[data-project="Ann's shop"] button`, "Delete…")
	p.waitText(`[data-project="Ann's shop"] .warning`, "Delete the project “Ann's shop” (/mock/anns-shop/graphql)")
	p.clickText(`[data-project="Ann's shop"] button`, "Delete “Ann's shop”")
	p.waitText("main", "No projects yet")
	p.click("#logout")
	p.wait("#signup")
	p.open("/board/projects", "main h1")
	p.waitText("main", "Not signed in")
}
