package scenarios

import (
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// AUTH-009: a 1.0 card whose securitySchemes hold every kind of the 1.0
// SecurityScheme oneof [a2a.proto SecurityScheme; A2A 1.0 §4.5.1-4.5.6;
// a2aproject/a2a-go#302: a client that did not know the oneof's member
// names ("unknown security scheme type ... found keys
// [httpAuthSecurityScheme]") refused every card that advertised
// authentication]. D's card declares its bearer scheme as that issue's
// card did (scheme "bearer" in lower case, bearerFormat "JWT") beside an
// API key, an OAuth 2.0, an OpenID Connect and a mutual TLS scheme it
// offers to others; its requirement names the bearer scheme alone.

// authOneofScenarios are the AUTH scenarios about the 1.0 card shape.
func authOneofScenarios() []*Scenario {
	return []*Scenario{{
		ID:     "AUTH-009",
		Title:  "a 1.0 card with a scheme of every kind: the bearer token, and the task completes",
		Area:   "auth",
		Source: "a2aproject/a2a-go#302; A2A 1.0 §4.5.1 (SecurityScheme, a oneof), §7.3; RFC 9110 §11.1 (auth scheme names are case-insensitive)",
		Setup: "D serves A2A 1.0 only. Its card's securitySchemes hold one scheme of each member of the 1.0 SecurityScheme oneof: bearerAuth " +
			"({\"httpAuthSecurityScheme\": {\"scheme\": \"bearer\", \"bearerFormat\": \"JWT\"}}, as a2aproject/a2a-go#302's card wrote it), and apiKeySecurityScheme (a query parameter), " +
			"oauth2SecurityScheme (an authorization code flow), openIdConnectSecurityScheme and mtlsSecurityScheme entries for other callers; its securityRequirements name bearerAuth alone. " +
			"Every call without D's token gets 401. The request hands out D's token for https://rpc.agent-d.example.",
		Fleet:    fleetOf(protectedD(mockvendor.AuthConfig{EveryKind: true}, true)),
		Requests: []Request{authReq(skillS, []string{"d"}, mockvendor.HostCardD)},
		Offers:   []string{V10},
		Checks: []Check{
			{
				ID:     "AUTH-009.ATTACH",
				Title:  "the bearer token, read from a card with every scheme kind",
				Grades: []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
				Requirement: "A client reads a 1.0 card's securitySchemes by the oneof member each entry holds (apiKeySecurityScheme, httpAuthSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme), " +
					"takes the scheme name case-insensitively, leaves aside the schemes it cannot use or holds nothing for, and presents the credential the requirement asks for: Authorization: Bearer <token> on every call. " +
					"(A2A 1.0 §7.3 describes this without a requirement keyword: an a2a-core SHOULD; a2a-cli makes it a MUST, graded in delegation-safety.)",
				Sources: []Source{
					authProcess,
					Proto("SecurityScheme", SrcDescriptive, Server).Read("a oneof: api_key_security_scheme, http_auth_security_scheme, oauth2_security_scheme, open_id_connect_security_scheme, mtls_security_scheme"),
					Proto("HTTPAuthSecurityScheme.scheme", SrcDescriptive, Server).Read("the HTTP Authentication scheme to be used in the Authorization header, as defined in RFC 7235 (e.g. Bearer)"),
					RFC(9110, "§11.1", SrcDescriptive, Client).Read("an authentication scheme is a case-insensitive token"),
					Field("a2aproject/a2a-go#302").Read("the Go client's card parser failed on httpAuthSecurityScheme (\"unknown security scheme type\"), so it could not connect to any agent whose card advertised authentication"),
					authCLIAttach,
				},
				Fix:     "Decode each securitySchemes entry by the one member it holds; skip (do not fail on) kinds you do not use; compare the HTTP scheme name case-insensitively; present the credential the requirement names.",
				Reached: rpcAt("d"),
				Judge:   attachedAsDeclared("d", viaBearer, "as Authorization: Bearer"),
			},
			{
				ID:     "AUTH-009.DONE",
				Title:  "the card with every scheme kind is used, and the task completes",
				Grades: must(Safety),
				Requirement: "The card is valid 1.0: one the client cannot fully use is no reason to refuse the agent when the requirement asks for a credential it holds. " +
					"The outcome is completed at D; a refusal, a parse failure or another candidate is a failure here.",
				Sources: []Source{
					Field("a2aproject/a2a-go#302").Read("every agent that advertised authentication was refused: card parsing failed on a security scheme the 1.0 proto defines"),
					Proto("SecurityScheme", SrcDescriptive, Server).Read("a oneof of five kinds: the card is in the form the proto defines"),
					authProcess,
				},
				Fix:          "Parse the 1.0 SecurityScheme oneof (all five members); an unusable scheme is skipped, not a reason to refuse the card.",
				ReadsOutcome: true,
				Reached:      cardFetched("d"),
				Judge:        func(r *Run) Verdict { return completedAt(r, 0, "d") },
			},
		},
	}}
}
