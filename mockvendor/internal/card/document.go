package card

import (
	"cmp"
	"strings"
)

// Document is the vendor's honest card as a JSON object, unsigned: an
// interface in supportedInterfaces for each version served and, when it
// serves 0.3, the 0.3 members (url, preferredTransport, protocolVersion)
// too, so that clients of both generations can read it (a signed card
// keeps only the 1.0 members unless LegacyFields); a 1.0-only vendor's
// card has the 1.0 members only. An explicit card (Interfaces, Form,
// LegacyURL) takes its interfaces and form from the Spec. It holds no
// empty strings, arrays or objects, so the spec's canonical form and the
// SDKs' drop-empty form are the same bytes. Each call builds a new
// document, which the caller may change.
func (s *Spec) Document() map[string]any {
	org := s.Organization
	if org == "" {
		org = "Vendor " + strings.ToUpper(s.ID)
	}
	name := cmp.Or(s.Name, org+" agent")
	card := map[string]any{
		"name":                name,
		"description":         cmp.Or(s.Description, name+", a mock vendor agent of the a2a-conform fleet"),
		"version":             cmp.Or(s.Version, "1.0.0"),
		"protocolVersion":     "0.3.0",
		"url":                 s.URL,
		"preferredTransport":  "JSONRPC",
		"supportedInterfaces": s.interfaceDocs(),
		"provider":            map[string]any{"organization": org, "url": s.ProviderURL},
		"capabilities":        s.capabilities(),
		"defaultInputModes":   orList(s.DefaultInputModes, "text/plain"),
		"defaultOutputModes":  orList(s.DefaultOutputModes, "text/plain"),
		"skills":              skillDocs(s.listedSkills()),
	}
	if s.ExtendedCard {
		card["supportsAuthenticatedExtendedCard"] = true // the 0.3 flag
	}
	if !s.serves("0.3") || s.Signed && !s.LegacyFields {
		// A card of a vendor that serves no 0.3 is a 1.0 card, valid under
		// the 1.0 schema (no members outside it); so is a signed card
		// without LegacyFields.
		for _, k := range LegacyMembers {
			delete(card, k)
		}
	}
	if s.Explicit() {
		s.applyForm(card)
	}
	if s.Security != nil {
		s.Security.DeclareOn(card)
	}
	if s.MTLS != "" {
		declareMTLS(card, s.MTLS, org)
	}
	return card
}

// interfaceDocs are supportedInterfaces: the explicit interfaces, else
// one per version served, the preferred first (A2A 1.0 §8.3.2), the
// HTTP+JSON binding (1.0 only) after JSON-RPC 1.0, and the gRPC binding
// (1.0 only) last, so that a client that takes the first entry it speaks
// finds JSON-RPC first as before.
func (s *Spec) interfaceDocs() []any {
	if len(s.Interfaces) > 0 {
		return s.explicitInterfaceDocs()
	}
	var ifaces []any
	for _, ver := range s.Versions {
		ifaces = append(ifaces, map[string]any{"url": s.URL, "protocolBinding": "JSONRPC", "protocolVersion": ver})
		if ver == "1.0" && s.RESTURL != "" {
			ifaces = append(ifaces, map[string]any{"url": s.RESTURL, "protocolBinding": BindingREST, "protocolVersion": "1.0"})
		}
	}
	if s.GRPCURL != "" && s.serves("1.0") {
		ifaces = append(ifaces, map[string]any{"url": s.GRPCURL, "protocolBinding": BindingGRPC, "protocolVersion": "1.0"})
	}
	return ifaces
}

// capabilities is the card's capabilities member.
func (s *Spec) capabilities() map[string]any {
	caps := map[string]any{"streaming": s.Streaming, "pushNotifications": s.PushNotifications}
	if s.ExtendedCard {
		caps["extendedAgentCard"] = true
	}
	if len(s.Extensions) > 0 {
		caps["extensions"] = s.Extensions
	}
	return caps
}

// skillDocs renders skills as card entries.
func skillDocs(skills []Skill) []any {
	out := []any{}
	for _, s := range skills {
		out = append(out, SkillDoc(s))
	}
	return out
}

// SkillDoc is a skill's entry in a card's skills.
func SkillDoc(s Skill) map[string]any {
	d := map[string]any{
		"id":          s.ID,
		"name":        cmp.Or(s.Name, s.ID),
		"description": cmp.Or(s.Description, "Runs "+s.ID+"."),
		"tags":        []string{s.ID},
	}
	if len(s.InputModes) > 0 {
		d["inputModes"] = s.InputModes
	}
	if len(s.OutputModes) > 0 {
		d["outputModes"] = s.OutputModes
	}
	return d
}

func orList(s []string, def ...string) []string {
	if len(s) == 0 {
		return def
	}
	return s
}
