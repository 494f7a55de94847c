package reference

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
)

// TestFetchExtendedCard asks for the extended card on each binding the
// reference speaks, with the credential the public card's scheme asks
// for (none under the ExtendedCardNoCredential break), and reads the card
// out of the answer.
func TestFetchExtendedCard(t *testing.T) {
	const card = `{"name":"x (extended card)","skills":[{"id":"ledger-audit"}]}`
	var got struct{ path, method, auth string }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		got.path, got.auth, got.method = req.URL.Path, req.Header.Get("Authorization"), ""
		if req.Method == http.MethodPost {
			var env struct {
				Method string `json:"method"`
				ID     string `json:"id"`
			}
			b, _ := io.ReadAll(req.Body)
			_ = json.Unmarshal(b, &env)
			got.method = env.Method
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":"`+env.ID+`","result":`+card+`}`)
			return
		}
		_, _ = io.WriteString(w, card)
	}))
	defer srv.Close()
	bearer := `{"securitySchemes":{"b":{"httpAuthSecurityScheme":{"scheme":"Bearer"}}},"securityRequirements":[{"schemes":{"b":{"list":[]}}}],"capabilities":{"extendedAgentCard":true}}`
	creds := map[string]contract.Credential{contract.OriginOf(srv.URL): {Scheme: contract.CredentialSchemeBearer, Value: "tok"}}
	cases := []struct {
		name               string
		ep                 iface
		br                 Breaks
		path, method, auth string
	}{
		{"1.0 JSON-RPC", iface{URL: srv.URL + "/a2a", Version: "1.0", Binding: "JSONRPC"}, Breaks{}, "/a2a", "GetExtendedAgentCard", "Bearer tok"},
		{"0.3 JSON-RPC", iface{URL: srv.URL + "/a2a", Version: "0.3", Binding: "JSONRPC"}, Breaks{}, "/a2a", "agent/getAuthenticatedExtendedCard", "Bearer tok"},
		{"1.0 HTTP+JSON", iface{URL: srv.URL + "/rest/", Version: "1.0", Binding: bindingREST}, Breaks{}, "/rest/extendedAgentCard", "", "Bearer tok"},
		{"no credential (break)", iface{URL: srv.URL + "/a2a", Version: "1.0", Binding: "JSONRPC"}, Breaks{ExtendedCardNoCredential: true}, "/a2a", "GetExtendedAgentCard", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pub, err := parseCard([]byte(bearer))
			if err != nil {
				t.Fatal(err)
			}
			if !pub.declaresExtendedCard() {
				t.Fatal("the card's capabilities.extendedAgentCard was not read")
			}
			r := &run{o: New(Options{}), ctx: context.Background(), br: c.br, client: srv.Client(),
				req: contract.DelegationRequest{ID: "d-1", Trust: contract.Trust{Credentials: creds}}}
			a := &attempt{card: pub, ep: c.ep, versionOK: true}
			raw, err := r.fetchExtendedCard(a)
			if err != nil {
				t.Fatal(err)
			}
			ext, err := parseCard(raw)
			if err != nil || !ext.hasSkill("ledger-audit") {
				t.Fatalf("extended card %s (%v)", raw, err)
			}
			if got.path != c.path || got.method != c.method || got.auth != c.auth {
				t.Errorf("asked %s %q with Authorization %q; want %s %q with %q", got.path, got.method, got.auth, c.path, c.method, c.auth)
			}
		})
	}
}
