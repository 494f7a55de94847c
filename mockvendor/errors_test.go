package mockvendor

import (
	"net/http"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// TestErrorInfoDomain: in 1.0 an error whose reason the spec defines
// carries an ErrorInfo under a2a-protocol.org (A2A 1.0.1 §9.5, §11.6); a
// vendor's own reason (the region gate's SKILL_NOT_AVAILABLE) is filed
// under the vendor's domain over JSON-RPC, and over HTTP+JSON, where the
// spec's ErrorInfo is a MUST for an A2A-specific error and AIP-193 allows
// one, the ErrorInfo is the spec's reason of the code while the vendor's
// reason and domain travel in the vendor data object. 0.3 keeps the data
// object. Real TLS fleet, both routes.
func TestErrorInfoDomain(t *testing.T) {
	cfg := Config{Vendors: []VendorConfig{VendorD()}}
	cfg.Vendors[0].Faults = []FaultSpec{Spec("region-gate", RegionGate{GatedSkills: []string{SkillFXHedging}, AvailableSkills: []string{SkillInvoice}})}
	f := tStart(t, cfg)
	rpc := "https://" + HostRPCD + DefaultRPCPath
	const gated = `{"message":{"role":"ROLE_USER","messageId":"m-gate","parts":[{"text":"hedge"}],"metadata":{"skillId":"` + SkillFXHedging + `"}}}`
	for _, route := range tRoutes {
		c := tClient(t, f, route)
		t.Run(string(route), func(t *testing.T) {
			for _, tc := range []struct {
				name string
				// do returns the 1.0 error details (data or details array)
				// and the 0.x data when dialect 0.3 is asked.
				do     func(t *testing.T) []any
				reason string
				domain string
				// vendorReason is the reason the vendor data object must
				// carry ("" when it carries none).
				vendorReason string
			}{
				{"jsonrpc task not found", func(t *testing.T) []any {
					r := tRPC(t, c, rpc, "1.0", "GetTask", map[string]any{"id": "t-none"})
					tWantCode(t, "GetTask", r, -32001)
					return tAsList(tPath(r.Err(), "data"))
				}, "TASK_NOT_FOUND", "a2a-protocol.org", ""},
				{"jsonrpc region gate", func(t *testing.T) []any {
					r := tSend(t, c, rpc, Dialect10, "hedge", SkillFXHedging)
					tWantCode(t, "gated send", r, -32004)
					return tAsList(tPath(r.Err(), "data"))
				}, "SKILL_NOT_AVAILABLE", HostCardD, ""},
				{"rest task not found", func(t *testing.T) []any {
					r := tREST(t, c, http.MethodGet, "/tasks/t-none", "", nil)
					tRESTError(t, "GET task", r, http.StatusNotFound, "TASK_NOT_FOUND")
					return tAsList(tPath(r.JSON, "error", "details"))
				}, "TASK_NOT_FOUND", "a2a-protocol.org", ""},
				{"rest region gate", func(t *testing.T) []any {
					r := tREST(t, c, http.MethodPost, "/message:send", gated, nil)
					tRESTError(t, "gated send", r, http.StatusBadRequest, "UNSUPPORTED_OPERATION")
					return tAsList(tPath(r.JSON, "error", "details"))
				}, "UNSUPPORTED_OPERATION", "a2a-protocol.org", "SKILL_NOT_AVAILABLE"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					d := tc.do(t)
					infos := 0
					for _, x := range d {
						if tPath(x, "@type") == a2a.ErrorInfoType {
							infos++
						}
					}
					if infos != 1 || tPath(d, 0, "@type") != a2a.ErrorInfoType {
						t.Fatalf("details %v: want exactly one ErrorInfo, first (AIP-193)", d)
					}
					if got := tPath(d, 0, "reason"); got != tc.reason {
						t.Errorf("reason %v, want %s", got, tc.reason)
					}
					if got := tPath(d, 0, "domain"); got != tc.domain {
						t.Errorf("domain %v, want %s", got, tc.domain)
					}
					if tc.reason == "SKILL_NOT_AVAILABLE" || tc.vendorReason != "" {
						// The gate's data: in the ErrorInfo metadata and the
						// vendor data object.
						if tPath(d, 0, "metadata", "availableSkills") != SkillInvoice {
							t.Errorf("ErrorInfo metadata %v", tPath(d, 0, "metadata"))
						}
						if len(d) != 2 || tPath(d, 1, "@type") != VendorDataType || !tEqualStrings(tStrings(tPath(d, 1, "availableSkills")), []string{SkillInvoice}) {
							t.Errorf("vendor data %v", d)
						}
					}
					if tc.vendorReason != "" && (tPath(d, 1, "reason") != tc.vendorReason || tPath(d, 1, "domain") != HostCardD) {
						t.Errorf("vendor data %v: want reason %s under %s", tPath(d, 1), tc.vendorReason, HostCardD)
					}
				})
			}
			// 0.3: the free-form data object, no ErrorInfo.
			r := tSend(t, c, rpc, Dialect03, "hedge", SkillFXHedging)
			tWantCode(t, "0.3 gated send", r, -32004)
			if d, ok := tPath(r.Err(), "data").(map[string]any); !ok || d["@type"] != nil || !tEqualStrings(tStrings(d["availableSkills"]), []string{SkillInvoice}) {
				t.Errorf("0.3 data %v", tPath(r.Err(), "data"))
			}
		})
	}
}

// TestErrorDomain: the vendor's domain is its card host, else its first
// named host, else a reserved name for a bare-IP vendor; never the
// spec's.
func TestErrorDomain(t *testing.T) {
	for _, tc := range []struct {
		hosts []HostConfig
		want  string
	}{
		{[]HostConfig{{Name: "rpc.agent-q.example", RPCPath: "/a"}, {Name: "agent-q.example", Card: true}}, "agent-q.example"},
		{[]HostConfig{{Name: "rpc.agent-q.example", RPCPath: "/a"}, {Name: "rpc2.agent-q.example"}}, "rpc.agent-q.example"},
		{[]HostConfig{{Card: true, RPCPath: "/a"}}, "vendor-q.invalid"},
	} {
		v := &Vendor{cfg: VendorConfig{ID: "q"}}
		for _, hc := range tc.hosts {
			v.hosts = append(v.hosts, &host{cfg: hc})
		}
		if got := v.errorDomain(); got != tc.want {
			t.Errorf("%v: %s, want %s", tc.hosts, got, tc.want)
		}
	}
}

func tEqualStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
