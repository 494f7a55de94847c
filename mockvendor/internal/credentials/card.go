package credentials

import (
	"encoding/json"
	"net/url"
)

// DeclareOn adds the issuer's security scheme and requirement to a card,
// in the card's shape: 1.0 (A2A 1.0 a2a.proto SecurityScheme,
// SecurityRequirement: {"httpAuthSecurityScheme": {"scheme": "Bearer"}}
// and securityRequirements [{"schemes": {name: {"list": []}}}]) or 0.3
// (the OpenAPI 3.0 form of the 0.3 schema: {"type": "http", "scheme":
// "bearer"} and security [{name: []}]). Without a configured CardShape, a
// card with a "url" member (the 0.3 generation) gets the 0.3 shape.
func (is *Issuer) DeclareOn(card map[string]any) {
	shape := is.shape
	if shape == "" {
		shape = "1.0"
		if _, legacy := card["url"]; legacy {
			shape = "0.3"
		}
	}
	desc := "the credential " + is.org + " issued to you"
	if is.oauth != nil {
		desc = "an access token from " + is.org + "'s token endpoint, for the client " + is.org + " registered for you"
		card["securitySchemes"] = map[string]any{is.name: is.declareOAuth(shape, desc)}
		if shape == "0.3" {
			card["security"] = []any{map[string]any{is.name: []string{"a2a.invoke"}}}
		} else {
			card["securityRequirements"] = []any{map[string]any{"schemes": map[string]any{is.name: map[string]any{"list": []string{"a2a.invoke"}}}}}
		}
		return
	}
	if shape == "0.3" {
		s := map[string]any{"type": "http", "scheme": "bearer", "description": desc}
		if is.scheme == APIKey {
			s = map[string]any{"type": "apiKey", "in": "header", "name": is.header, "description": desc}
		}
		card["securitySchemes"] = map[string]any{is.name: s}
		card["security"] = []any{map[string]any{is.name: []string{}}}
		return
	}
	s := map[string]any{"httpAuthSecurityScheme": map[string]any{"scheme": "Bearer", "description": desc}}
	if is.scheme == APIKey {
		s = map[string]any{"apiKeySecurityScheme": map[string]any{"location": "header", "name": is.header, "description": desc}}
	}
	schemes := map[string]any{is.name: s}
	if is.everyKind {
		schemes = everyKind(card, is.name, s)
	}
	card["securitySchemes"] = schemes
	card["securityRequirements"] = []any{map[string]any{"schemes": map[string]any{is.name: map[string]any{"list": []string{}}}}}
}

// everyKind is the securitySchemes of a card that declares one scheme of
// each kind of the 1.0 SecurityScheme oneof (a2a.proto: apiKey, httpAuth,
// oauth2, openIdConnect, mtls): own under name, and the other kinds under
// names of their own (their URLs on the card's own host, which answers
// 404 there). A bearer own scheme is written as a2aproject/a2a-go#302's
// card wrote it: scheme "bearer" in lower case (RFC 9110 §11.1: auth
// scheme names are case-insensitive) with a bearerFormat.
func everyKind(card map[string]any, name string, own map[string]any) map[string]any {
	base := cardOrigin(card)
	if h, ok := own["httpAuthSecurityScheme"].(map[string]any); ok {
		h["scheme"], h["bearerFormat"] = "bearer", "JWT"
	}
	out := map[string]any{
		name:          own,
		"partnerKey":  map[string]any{"apiKeySecurityScheme": map[string]any{"location": "query", "name": "partner_key", "description": "for partners with a key (not offered to you)"}},
		"workforce":   map[string]any{"oauth2SecurityScheme": map[string]any{"description": "for the vendor's staff", "flows": map[string]any{"authorizationCode": map[string]any{"authorizationUrl": base + "/oauth2/authorize", "tokenUrl": base + "/oauth2/token", "scopes": map[string]any{"agent.admin": "administer the agent"}}}}},
		"sso":         map[string]any{"openIdConnectSecurityScheme": map[string]any{"description": "for the vendor's staff", "openIdConnectUrl": base + "/.well-known/openid-configuration"}},
		"partnerMtls": map[string]any{"mtlsSecurityScheme": map[string]any{"description": "for partners with a client certificate (not offered to you)"}},
	}
	if name == "partnerKey" || name == "workforce" || name == "sso" || name == "partnerMtls" {
		out[name] = own
	}
	return out
}

// cardOrigin is the origin of the card's first interface (its url member,
// else its first supportedInterfaces entry), or "https://agent.invalid".
func cardOrigin(card map[string]any) string {
	raw, _ := card["url"].(string)
	if raw == "" {
		var ifaces []struct {
			URL string `json:"url"`
		}
		if b, err := json.Marshal(card["supportedInterfaces"]); err == nil && json.Unmarshal(b, &ifaces) == nil && len(ifaces) > 0 {
			raw = ifaces[0].URL
		}
	}
	if u, err := url.Parse(raw); err == nil && u.Scheme == "https" && u.Host != "" {
		return "https://" + u.Host
	}
	return "https://agent.invalid"
}
