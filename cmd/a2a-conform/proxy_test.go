package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

func TestProxyRefusesBadInvocations(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no upstream", nil, "at least one --upstream"},
		{"no name", []string{"--upstream", "https://agent.example.com"}, "want NAME=URL"},
		{"bad name", []string{"--upstream", "Partner_1=https://agent.example.com"}, "want NAME=URL"},
		{"not http", []string{"--upstream", "p=ftp://agent.example.com"}, "not an http(s) URL"},
		{"bad header", []string{"--upstream", "p=https://a.example", "--upstream-header", "NoColon"}, "want 'Name: value'"},
		{"remote without flag", []string{"--upstream", "p=https://a.example", "--listen", "0.0.0.0:8443"}, "--allow-remote"},
		{"remote without token", []string{"--upstream", "p=https://a.example", "--listen", "0.0.0.0:8443", "--allow-remote"}, "--admin-token"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), append([]string{"proxy"}, c.args...), &stdout, &stderr)
			var msg bytes.Buffer
			if code := exitCode(err, &msg); code != 2 {
				t.Fatalf("exit code %d (%v), want 2", code, err)
			}
			if !strings.Contains(msg.String(), c.want) {
				t.Errorf("error %q, want it to say %q", msg.String(), c.want)
			}
		})
	}
}

func TestProxyConfigOfUpstreams(t *testing.T) {
	var stdout bytes.Buffer
	err := run(context.Background(), []string{"proxy", "--print-config",
		"--upstream", "partner=https://agent.partner.com/a2a/.well-known/agent-card.json",
		"--upstream-header", "Authorization: Bearer ${PARTNER_TOKEN}"}, &stdout, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := mockvendor.ParseConfig("proxy.yaml", stdout.Bytes())
	if err != nil {
		t.Fatalf("the printed config does not load: %v\n%s", err, stdout.String())
	}
	v := cfg.Vendors[0]
	if v.ID != "partner" || v.Hosts[0].Name != "agent.partner.example" || !v.Hosts[0].GRPC {
		t.Errorf("vendor %+v, want partner at agent.partner.example with every binding", v)
	}
	u := v.Upstream
	if u == nil || u.URL != "https://agent.partner.com" || u.CardPath != "/a2a/.well-known/agent-card.json" || u.Header["Authorization"] != "Bearer ${PARTNER_TOKEN}" {
		t.Errorf("upstream %+v, want the base, the card path and the header as written (the secret left to the environment)", u)
	}
}
