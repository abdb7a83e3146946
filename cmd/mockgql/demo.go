package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// demoInfo is kept in the store so later starts print the same project.
type demoInfo struct {
	Slug       string `json:"slug"`
	ShareToken string `json:"shareToken"`
}

// seedDemo loads the demo data pool and builds the demo guest project on
// first start, then prints its runtime URL and a curl command.
func (r *running) seedDemo() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var info demoInfo
	b, err := r.db.Get("meta", "demo")
	if err != nil {
		return err
	}
	if b != nil {
		err = json.Unmarshal(b, &info)
	} else {
		info, err = r.buildDemo(ctx)
	}
	if err != nil {
		return err
	}
	// The demo lives as long as the node, not --guest-ttl; a demo seeded
	// before guest projects expired is kept here too.
	if err := r.svc.KeepGuestProject(ctx, info.Slug); err != nil && model.ErrorCode(err) != model.CodeNotFound {
		return fmt.Errorf("keeping the demo project: %w", err)
	}
	r.srv.SetDemo(info.Slug, info.ShareToken)
	url := fmt.Sprintf("%s/mock/%s/graphql?token=%s", r.srv.BaseURL(), info.Slug, info.ShareToken)
	preview := fmt.Sprintf("%s/preview/%s?token=%s", r.srv.AppURL(), info.Slug, info.ShareToken)
	fmt.Fprintf(os.Stdout, "\nBoard (sign up, log in, or try without an account):\n  %s/\n", r.srv.AppURL())
	fmt.Fprintf(os.Stdout, "\nDemo project (guest, data: categories, products, customers, orders):\n  on the board: %s/board/demo\n  preview page: %s\n  runtime:      %s\n\nTry:\n  curl -s '%s' \\\n    -H 'Content-Type: application/json' \\\n    -d '{\"query\":\"{ products(pageSize: 3, sortField: \\\"price\\\", sortDirection: DESC) { total items { id name price category { name } } } }\"}'\n\n"+
		"Watch changes live (Server-Sent Events; keep it running):\n  curl -N -H 'Accept: text/event-stream' '%s&query=subscription%%7BproductUpdated%%7Bid%%20name%%20price%%7D%%7D'\n"+
		"and change a row from another terminal:\n  curl -s '%s' -H 'Content-Type: application/json' \\\n    -d '{\"query\":\"mutation { updateProduct(id: \\\"1\\\", input: {price: 9.99}) { id price } }\"}'\n\n",
		r.srv.AppURL(), preview, url, url, url, url)
	return nil
}

func (r *running) buildDemo(ctx context.Context) (demoInfo, error) {
	sys := model.Principal{System: true}
	for _, set := range dataset.Demo() {
		_, err := r.svc.Datasets.ImportDataset(ctx, sys, model.DatasetImport{ImportCode: set.ImportCode, Name: set.Name,
			Format: string(set.Format), VariantField: set.VariantField, Body: bytes.NewReader(set.Data)})
		if err != nil && model.ErrorCode(err) != model.CodeConflict {
			return demoInfo{}, fmt.Errorf("import %s: %w", set.ImportCode, err)
		}
	}
	pr, _, err := r.svc.Public.CreateGuestProject(ctx, sys, "Demo shop")
	if err != nil {
		return demoInfo{}, err
	}
	if err := buildDemoModel(ctx, r.svc.Management, sys, pr.ID); err != nil {
		return demoInfo{}, err
	}
	demoSlug := "demo"
	if moved, err := r.svc.Management.UpdateProject(ctx, sys, pr.ID, nil, &demoSlug); err == nil {
		pr = moved
	} // a taken "demo" slug keeps the generated one

	info := demoInfo{Slug: pr.Slug, ShareToken: pr.ShareToken}
	b, _ := json.Marshal(info)
	return info, r.db.Write(persistence.Put{Kind: "meta", ID: "demo", Value: b})
}
