package credentials

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
	card["securitySchemes"] = map[string]any{is.name: s}
	card["securityRequirements"] = []any{map[string]any{"schemes": map[string]any{is.name: map[string]any{"list": []string{}}}}}
}
