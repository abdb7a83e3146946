// Package model is the domain vocabulary of mockgql: accounts, users, projects,
// tables, attributes and their mappings, relations, operations, views, API
// keys, and the one application error type with the codes of docs/reference/errors.md.
//
// It imports only the standard library; every other package points toward it.
// Values of these types are plain data: they carry no locks and are owned by
// whoever holds them (in practice the grain that owns the project or account).
// Copy with Clone before handing one to another goroutine that may change it.
//
//	p := &model.Project{ID: "p1", Slug: "shop", Name: "Shop", Kind: model.KindAccount}
//	err := p.AddTable(&model.Table{ID: "t1", Name: "Product"})
//	if err != nil { /* a *model.Error with code CONFLICT or BAD_USER_INPUT */ }
package model
