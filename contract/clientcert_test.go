package contract_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
)

func TestTrustClientCertificates(t *testing.T) {
	ok := contract.ClientCertificate{CertFile: "/tmp/f/client-0.pem", KeyFile: "/tmp/f/client-0-key.pem"}
	cases := []struct {
		name  string
		certs map[string]contract.ClientCertificate
		want  string // "" = valid
	}{
		{"none", nil, ""},
		{"two origins", map[string]contract.ClientCertificate{"https://rpc.agent-d.example": ok, "https://127.0.0.1:8443": ok}, ""},
		{"http origin", map[string]contract.ClientCertificate{"http://a.example": ok}, "not an https origin"},
		{"a path", map[string]contract.ClientCertificate{"https://a.example/a2a": ok}, "no user info, path"},
		{"no cert file", map[string]contract.ClientCertificate{"https://a.example": {KeyFile: ok.KeyFile}}, "certFile is empty"},
		{"no key file", map[string]contract.ClientCertificate{"https://a.example": {CertFile: ok.CertFile}}, "keyFile is empty"},
		{"relative path", map[string]contract.ClientCertificate{"https://a.example": {CertFile: "client.pem", KeyFile: ok.KeyFile}}, "not an absolute path"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := contract.Trust{ClientCertificates: c.certs}.Validate()
			if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Validate = %v, want %q", err, c.want)
			}
		})
	}
	b, err := json.Marshal(contract.Trust{ClientCertificates: map[string]contract.ClientCertificate{"https://a.example": ok}})
	if err != nil || string(b) != `{"caFile":"","clientCertificates":{"https://a.example":{"certFile":"/tmp/f/client-0.pem","keyFile":"/tmp/f/client-0-key.pem"}}}` {
		t.Fatalf("%s %v", b, err)
	}
}
