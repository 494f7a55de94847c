package sdkupstream

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServersAnswerAsAgents sends each SDK server a message in its own
// A2A version and reads the echo task back.
func TestServersAnswerAsAgents(t *testing.T) {
	cases := []struct {
		kind, path, version, body, want string
	}{
		{"a2a-go", "/", "", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"hi"}]}}}`, `"echo: hi"`},
		{"a2a-js", "/a2a/jsonrpc", "1.0", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}}`, `"echo: hi"`},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			base := Start(t, c.kind, "--skill", "s1")
			client := &http.Client{Timeout: 10 * time.Second}
			resp, err := client.Get(base + "/.well-known/agent-card.json")
			if err != nil {
				t.Fatal(err)
			}
			var card map[string]any
			err = json.NewDecoder(resp.Body).Decode(&card)
			resp.Body.Close()
			if err != nil || !strings.Contains(card["name"].(string), c.kind) {
				t.Fatalf("card %v (%v), want the %s echo agent", card, err, c.kind)
			}
			req, _ := http.NewRequest(http.MethodPost, base+c.path, bytes.NewBufferString(c.body))
			req.Header.Set("Content-Type", "application/json")
			if c.version != "" {
				req.Header.Set("A2A-Version", c.version)
			}
			resp, err = client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			_, _ = b.ReadFrom(resp.Body)
			resp.Body.Close()
			if !strings.Contains(b.String(), c.want) || !strings.Contains(strings.ToLower(b.String()), "completed") {
				t.Errorf("answer %s, want a completed task with %s", b.String(), c.want)
			}
		})
	}
}
