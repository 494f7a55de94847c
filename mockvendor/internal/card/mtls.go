package card

// declareMTLS adds a mutual TLS security scheme named name, and a
// requirement for it, to a card [A2A 1.0 §4.5.6 MutualTlsSecurityScheme;
// proto SecurityScheme.mtls_security_scheme]: in the 1.0 shape
// ({"mtlsSecurityScheme": {...}}, securityRequirements) for a card without
// the 0.3 member url, else in the 0.3 shape ({"type": "mutualTLS"},
// security).
func declareMTLS(card map[string]any, name, org string) {
	desc := "a client certificate " + org + " issued to you, presented in the TLS handshake with the agent's endpoint"
	if _, legacy := card["url"]; legacy {
		card["securitySchemes"] = map[string]any{name: map[string]any{"type": "mutualTLS", "description": desc}}
		card["security"] = []any{map[string]any{name: []string{}}}
		return
	}
	card["securitySchemes"] = map[string]any{name: map[string]any{"mtlsSecurityScheme": map[string]any{"description": desc}}}
	card["securityRequirements"] = []any{map[string]any{"schemes": map[string]any{name: map[string]any{"list": []string{}}}}}
}
