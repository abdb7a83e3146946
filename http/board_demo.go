package http

// demoRef is the demo project the board links to (Query.demo).
type demoRef struct{ slug, shareToken string }

// SetDemo names the demo guest project, whose preview and runtime the
// landing page and the board's demo view open. Safe for concurrent use;
// call it once the project exists.
func (s *Server) SetDemo(slug, shareToken string) {
	s.demo.Store(&demoRef{slug: slug, shareToken: shareToken})
}

// demoProject is SurfaceConfig.Demo.
func (s *Server) demoProject() (slug, shareToken string) {
	if d := s.demo.Load(); d != nil {
		return d.slug, d.shareToken
	}
	return "", ""
}

// AppURL is the board's public address ({app_url}), known once Start returned.
func (s *Server) AppURL() string { return s.cfg.AppURL }

// Demo returns the demo project's slug and share token ("" without one).
func (s *Server) Demo() (slug, shareToken string) { return s.demoProject() }
