package admin

import (
	_ "embed"
	"html/template"
	"net/http"
)

//go:embed page.html
var pageHTML string

// pageTemplate is the live traffic page. It holds no token: its requests
// carry the admin cookie.
var pageTemplate = template.Must(template.New("page").Parse(pageHTML))

// page serves the live traffic page: requests as they arrive (from the
// event stream) as a table and a sequence diagram, the faults attached to
// each vendor, and buttons to switch fault types on and off.
func (a *api) page(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'")
	_ = pageTemplate.Execute(w, nil)
}
