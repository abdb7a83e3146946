package actors

import (
	"fmt"
	"time"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// kindExpiry indexes projects by expiry: "<unix ms, 13 digits>/<project ID>",
// so the sweeper finds what is due with one ordered scan.
const kindExpiry = "expiry"

func expiryKey(t time.Time, projectID string) string {
	return fmt.Sprintf("%013d/%s", t.UnixMilli(), projectID)
}

// expired is what the sweeper needs to finish a deletion.
type expired struct {
	Deleted bool   `json:"deleted"`
	Slug    string `json:"slug,omitempty"`
	Session string `json:"session,omitempty"`
}

// expire deletes the project with all its content when its time has come:
// overlay, adoption tokens, expiry entry and checkpoint. It does nothing to
// a project that is live (or was transferred to an account meanwhile).
func (p *projectGrain) expire(g *grain, indexKey string) (any, error) {
	if p.st == nil { // deleted already: drop the stale index entry
		return expired{}, g.env.Store.Write(persistence.Put{Kind: kindExpiry, ID: indexKey})
	}
	pr := p.st.Project
	if !pr.Expired(g.env.Clock.Now()) {
		return expired{}, nil
	}
	if err := g.env.Store.DeletePrefix(kindOverlay, g.id+"/"); err != nil {
		return nil, err
	}
	if err := g.env.Store.DeletePrefix(kindReply, g.id+"/"); err != nil {
		return nil, err
	}
	puts := []persistence.Put{{Kind: kindExpiry, ID: expiryKey(pr.ExpiresAt, pr.ID)}}
	for _, h := range p.st.Adoptions {
		puts = append(puts, persistence.Put{Kind: KindAdoption, ID: h})
	}
	if err := g.saveJSON(nil, puts...); err != nil {
		return nil, err
	}
	out := expired{Deleted: true, Slug: pr.Slug, Session: p.st.Session}
	p.st, p.rt, p.ov = nil, nil, nil
	p.startCalls(g)
	p.publish(g)
	return out, nil
}

// transfer moves a live session project into an account: it becomes an
// account project with no expiry, whose runtime needs an API key.
func (p *projectGrain) transfer(g *grain, a projectArgs) (any, error) {
	pr := p.st.Project
	if pr.Kind != model.KindSession {
		return nil, model.Errorf(model.ErrConflict, "project %s is not a session project", pr.ID)
	}
	next := &projectState{Project: pr.Clone()}
	np := next.Project
	np.Kind, np.AccountID, np.ExpiresAt, np.ShareToken = model.KindAccount, a.AccountID, time.Time{}, ""
	np.Version++
	drop := persistence.Put{Kind: kindExpiry, ID: expiryKey(pr.ExpiresAt, pr.ID)}
	if err := commit(g, next, func(v *projectState) { p.st = v }, drop); err != nil {
		return nil, err
	}
	p.startCalls(g)
	p.publish(g)
	return p.st.Project, nil
}

func (p *projectGrain) addAdoption(g *grain, a projectArgs) error {
	next := *p.st
	next.Adoptions = append(append([]string{}, p.st.Adoptions...), a.Adoption)
	return commit(g, &next, func(v *projectState) { p.st = v })
}
