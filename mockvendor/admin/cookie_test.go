package admin_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestAdminCookie: an authenticated first visit (GET /?token=) answers 303
// to / with an HttpOnly, SameSite=Strict cookie that holds no token; the
// cookie alone then authenticates the page's own requests (same origin)
// and nothing else: a request from another origin, a cross-site fetch, a
// POST without Origin, a wrong or stale cookie; the page holds no token.
func TestAdminCookie(t *testing.T) {
	e := start(t)
	noFollow := &http.Client{Transport: e.c.Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(e.srv.URL + "/?token=" + token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("first visit: %d Location %q, want 303 to /", resp.StatusCode, resp.Header.Get("Location"))
	}
	cookies := resp.Cookies()
	if len(cookies) != 1 {
		t.Fatalf("first visit set %d cookies, want 1", len(cookies))
	}
	ck := cookies[0]
	u, _ := url.Parse(e.srv.URL)
	if !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" || ck.Name != "a2a_conform_admin_"+u.Port() {
		t.Errorf("cookie %s: want HttpOnly, SameSite=Strict, Path=/, named for port %s", resp.Header.Get("Set-Cookie"), u.Port())
	}
	if strings.Contains(resp.Header.Get("Set-Cookie"), token) {
		t.Errorf("the cookie holds the token: %s", resp.Header.Get("Set-Cookie"))
	}
	origin := e.srv.URL
	cases := []struct {
		name, method, path string
		cookie             string            // value ("" = none)
		hdr                map[string]string // more headers
		want               int
	}{
		{"page by cookie", "GET", "/", ck.Value, nil, 200},
		{"page fetch by cookie", "GET", "/admin/vendors", ck.Value, map[string]string{"Sec-Fetch-Site": "same-origin"}, 200},
		{"diagram by cookie", "GET", "/admin/diagram.svg", ck.Value, map[string]string{"Sec-Fetch-Site": "same-origin"}, 200},
		{"typed address", "GET", "/", ck.Value, map[string]string{"Sec-Fetch-Site": "none"}, 200},
		{"reset from the page", "POST", "/admin/reset", ck.Value, map[string]string{"Origin": origin, "Sec-Fetch-Site": "same-origin"}, 204},
		{"reset without Origin", "POST", "/admin/reset", ck.Value, nil, 403},
		{"reset from another localhost server", "POST", "/admin/reset", ck.Value, map[string]string{"Origin": "http://localhost:8000", "Sec-Fetch-Site": "same-site"}, 403},
		{"read from another origin", "GET", "/admin/vendors", ck.Value, map[string]string{"Origin": "http://127.0.0.1:1"}, 403},
		{"cross-site fetch", "GET", "/admin/trace", ck.Value, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"wrong cookie", "GET", "/admin/vendors", "nope", nil, 401},
		{"the token as cookie", "GET", "/admin/vendors", token, nil, 401},
		{"no cookie", "GET", "/", "", nil, 401},
		{"wrong query token", "GET", "/?token=nope", "", nil, 401},
		{"bearer beats the cookie", "GET", "/admin/vendors", ck.Value, map[string]string{"Authorization": "Bearer nope"}, 401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, e.srv.URL+c.path, nil)
			if c.cookie != "" {
				req.AddCookie(&http.Cookie{Name: ck.Name, Value: c.cookie})
			}
			for k, v := range c.hdr {
				req.Header.Set(k, v)
			}
			resp, err := noFollow.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Fatalf("%s %s: %d, want %d: %s", c.method, c.path, resp.StatusCode, c.want, body)
			}
			if c.path == "/" && c.want == 200 && strings.Contains(string(body), token) {
				t.Error("the page holds the token")
			}
		})
	}
}
