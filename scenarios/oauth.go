package scenarios

import (
	"fmt"

	"github.com/a2a-conform/a2a-conform/contract"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// AUTH-008: OAuth 2.0 client credentials [A2A 1.0 §4.5.4, §4.5.9, §7.3;
// RFC 6749 §4.4, §2.3.1; RFC 6750 §3.1; a2a-cli A2ACLI_AUTH_006]. D's
// card declares an oauth2SecurityScheme whose clientCredentials flow names
// its token endpoint (https://auth.agent-d.example/oauth2/token, the
// fleet's TLS); the caller holds a client id and secret for D's endpoint
// (trust.oauth2). The first access token D issues has expired by its
// first use: D answers 401 with WWW-Authenticate: Bearer
// error="invalid_token", and a client that gets a new token goes on.

// rfc6750InvalidToken is RFC 6750's invalid_token error.
var rfc6750InvalidToken = RFC(6750, "§3.1", SrcMay, Client).Read("invalid_token: the access token provided is expired, revoked, malformed, or invalid; the resource SHOULD answer 401, and the client MAY request a new access token and retry the protected resource request")

// cliAuth006 is the a2a-cli registry's client credentials entry.
var cliAuth006 = CLI("A2ACLI_AUTH_006", SrcShould).Read("auth login with an OAuth 2.1 client-credentials flow (a2a-cli Tier 2, SPEC §12.2): the registry names the flow; what the flow must do is RFC 6749's")

// isSecretVia reports whether a presentation was an OAuth 2.0 client
// secret (mockvendor.Presented.Via "secret:...").
func isSecretVia(p mockvendor.Presented) bool { return strings.HasPrefix(p.Via, "secret:") }

// tokenRequests are the events at the vendor's token endpoint.
func tokenRequests(evs []mockvendor.Event, vendor string) []mockvendor.Event {
	return filter(evs, func(e mockvendor.Event) bool { return e.Op == mockvendor.OpToken && inVendor(e, vendor) })
}

// oauthScenarios are the OAuth 2.0 AUTH scenarios.
func oauthScenarios() []*Scenario {
	rfc6749 := RFC(6749, "§4.4", SrcDescriptive, Client).Read("client credentials grant: the client authenticates with the authorization server at the token endpoint and asks for an access token")
	return []*Scenario{{
		ID:     "AUTH-008",
		Title:  "OAuth 2.0 client credentials: a token from the declared endpoint, renewed after invalid_token",
		Area:   "auth",
		Source: "A2A 1.0 §4.5.4, §4.5.9 (OAuth2SecurityScheme, ClientCredentialsOAuthFlow.tokenUrl), §7.3; RFC 6749 §4.4, §2.3.1; RFC 6750 §3.1; a2a-cli COMPLIANCE.md A2ACLI_AUTH_006",
		Setup: "D serves A2A 1.0 only; its card declares an oauth2SecurityScheme with a clientCredentials flow whose tokenUrl is https://auth.agent-d.example/oauth2/token (a fleet host, real TLS). " +
			"The request hands out, for https://rpc.agent-d.example, a client id and secret and that token URL (trust.oauth2). The token endpoint issues bearer tokens (expires_in 300); " +
			"the first one has expired by its first use: D answers 401 with WWW-Authenticate: Bearer error=\"invalid_token\". Later tokens work.",
		Fleet:    fleetOf(mockvendor.VendorDOAuth2(true)),
		Requests: []Request{authReq(skillS, []string{"d"}, mockvendor.HostCardD)},
		Offers:   []string{V10},
		Checks: []Check{
			{
				ID:     "AUTH-008.SECRET",
				Title:  "the client secret goes to the token endpoint only",
				Grades: must(Safety),
				Requirement: "The client secret authenticates the client to the authorization server, at the token endpoint the card declares and the caller named; " +
					"it never goes to the agent's endpoint (as a bearer token, a header, a query parameter or in a body) nor to any other URL.",
				Sources: []Source{
					RFC(6749, "§2.3.1", SrcDescriptive, Client).Read("client password: the client authenticates to the authorization server (HTTP Basic, or client_id and client_secret in the token request's body)"),
					A2A("§13.4", SrcMust, Server).Read("Credential Management: API keys, tokens, and other credentials MUST be treated as secrets; " +
						"stated among general security practices, read here for the client secret the caller holds"),
					rfc6749,
					Proto("ClientCredentialsOAuthFlow.token_url", SrcDescriptive, Server).Read("the token URL to be used for this flow"),
					authScope.Read("a secret goes only to the origin it was issued for: a client secret to its token endpoint"),
					cliAuth006,
				},
				Fix:     "Send the client id and secret only in the token request to the tokenUrl the caller named (and the card declares); present the access token, never the secret, to the agent.",
				Reached: tokenOrRPC("d"),
				Judge:   judgeSecretScope,
			},
			{
				ID:     "AUTH-008.PRESENTED",
				Title:  "every call carries an access token from the token endpoint",
				Grades: []Grade{{Profile: Core, Level: Should}, {Profile: Safety, Level: Must}},
				Requirement: "For an OAuth 2.0 scheme the credential the agent wants is an access token: the client gets one with its client credentials (RFC 6749 §4.4) and presents it as Authorization: Bearer <token> (RFC 6750 §2.1) on every call to the agent. " +
					"(A2A 1.0 §7.3 describes this without a requirement keyword: an a2a-core SHOULD; a2a-cli makes it a MUST, graded in delegation-safety.)",
				Sources: []Source{
					authProcess,
					Proto("OAuth2SecurityScheme.flows", SrcDescriptive, Server).Read("configuration for the supported OAuth 2.0 flows: here the client credentials flow and its token URL"),
					rfc6749,
					RFC(6750, "§2.1", SrcDescriptive, Client).Read("the Authorization request header field with the Bearer scheme carries the access token"),
					authCLIAttach,
					cliAuth006,
				},
				Fix:     "Read oauth2SecurityScheme.flows.clientCredentials.tokenUrl, get a token there with the client the caller holds for the endpoint's origin, and send it as Authorization: Bearer on every call.",
				Reached: rpcAt("d"),
				Judge:   judgeTokenPresented,
			},
			{
				ID:     "AUTH-008.REFRESH",
				Title:  "after invalid_token, a new token and the call made again",
				Grades: should(Safety),
				Requirement: "A 401 with error=\"invalid_token\" says the access token expired or was revoked (RFC 6750 §3.1); a client that holds client credentials can get a new token and retry (RFC 6750 lets it). " +
					"It does so: a new token request after the refusal, the call made again with the new token, and the task completes. (A MAY of RFC 6750, graded SHOULD by this project's posture: the delegation need not fail for an expired token.)",
				Sources: []Source{
					rfc6750InvalidToken,
					rfc6749,
					Posture("a delegation that can renew its own credential does not fail for an expired token"),
				},
				Fix:          "On 401 with error=\"invalid_token\", drop the cached token, get a new one from the token endpoint once, and repeat the request; a second refusal is final (auth-rejected).",
				ReadsOutcome: true,
				Reached:      expiredTokenRefused("d"),
				Judge:        judgeTokenRenewed,
			},
			{
				ID:     "AUTH-008.NO-LOOP",
				Title:  "no loop with the refused token or at the token endpoint",
				Grades: must(Safety),
				Requirement: "After the 401 invalid_token, the refused token goes to D at most once more, and the token endpoint is not asked in a loop (at most one token request per call to D, and 2 more): " +
					"a refused token cannot succeed, and a loop looks like the brute force servers rate-limit (A2A 1.0 §13.4).",
				Sources: []Source{
					rfc6750InvalidToken,
					A2A("§13.4", SrcShould, Server).Read("agents SHOULD log authentication failures and implement rate limiting to prevent brute-force attacks"),
					Posture("after a 401, the same credential goes to that origin at most once more in the delegation"),
				},
				Fix:     "Renew the token once per refusal; a second refusal is final. Never resend the refused token in a loop or hammer the token endpoint.",
				Reached: expiredTokenRefused("d"),
				Judge:   judgeNoTokenLoop,
			},
		},
	}}
}

// oauthForeignScenarios is AUTH-012, after the mutual TLS scenarios in
// catalog order.
func oauthForeignScenarios() []*Scenario { return []*Scenario{auth012()} }

// auth012 is a card whose tokenUrl is not the one the caller's client is
// registered with: a host of no vendor's own (the card as a claim, seed
// 000; a card edited in a CDN or a proxy would do this to collect client
// secrets).
func auth012() *Scenario {
	d := mockvendor.VendorDOAuth2(false)
	d.Auth.DeclaredTokenURL = "https://" + mockvendor.HostSSOX + mockvendor.DefaultTokenPath
	return &Scenario{
		ID:     "AUTH-012",
		Title:  "a card names another token endpoint: the client secret stays home",
		Area:   "auth",
		Source: "RFC 6749 §2.3 (client credentials authenticate the client with the authorization server it was registered with); driver contract, trust.oauth2 (the secret goes to its tokenUrl only); posture",
		Setup: "D's 1.0 card declares an oauth2SecurityScheme whose clientCredentials tokenUrl is https://" + mockvendor.HostSSOX + mockvendor.DefaultTokenPath +
			" (a host of the fleet that is no vendor's own and issues nothing), while the client the request hands out for https://rpc.agent-d.example names https://" +
			mockvendor.HostAuthD + mockvendor.DefaultTokenPath + ", D's real token endpoint.",
		Fleet:    fleetOf(d, mockvendor.VendorSSOX()),
		Requests: []Request{authReq(skillS, []string{"d"}, mockvendor.HostCardD)},
		Offers:   []string{V10},
		Checks: []Check{{
			ID:     "AUTH-012.NO-SECRET",
			Title:  "no client secret to a token endpoint the caller did not name",
			Grades: must(Safety),
			Requirement: "The client secret goes only to the token endpoint the caller registered the client with (trust.oauth2's tokenUrl), whatever a card declares: a card that names another tokenUrl does not get it. " +
				"The client refuses the agent (no-credential, or auth-rejected after a 401), or gets its token where the caller said and completes the task; a delegation that ended for another reason, the secret kept, did not reach the question.",
			Sources: []Source{
				RFC(6749, "§2.3", SrcDescriptive, Client).Read("confidential clients are issued client credentials for authenticating with the authorization server: that server, not whichever one a resource names"),
				ContractRule("Delegation request: OAuth 2.0 client credentials", SrcMust).Read("use the client only for a card whose clientCredentials tokenUrl is exactly the client's tokenUrl; the secret goes there and nowhere else"),
				Seed000("Decision Boundary", SrcDescriptive).Read("the card is a claim, not a contract"),
				authScope.Read("a secret goes only to the origin it was issued for: a client secret to its token endpoint"),
			},
			Fix:          "Compare the card's tokenUrl with the one the caller gave for the client, byte for byte; when they differ, do not send the secret (skip the candidate, or report no-credential).",
			ReadsOutcome: true,
			Reached:      cardFetched("d"),
			Judge:        judgeSecretWithheld,
		}},
	}
}

// judgeSecretWithheld is AUTH-012.NO-SECRET.
func judgeSecretWithheld(r *Run) Verdict {
	if v := judgeSecretScope(r); v.Outcome == Fail {
		return v
	}
	o, bad := r.outcome(0)
	if bad != nil {
		return *bad
	}
	switch {
	case o.Outcome == contract.OutcomeCompleted:
		if v := completedAt(r, 0, "d"); v.Outcome != Pass {
			return v
		}
		return Passf("the secret went only to the token endpoint the caller named, and the task completed at D")
	case (o.Outcome == contract.OutcomeRejected || o.Outcome == contract.OutcomeFailed) &&
		(o.Reason == contract.ReasonNoCredential || o.Reason == contract.ReasonAuthRejected):
		return Passf("%s with reason %s; the secret went nowhere the caller did not name", o.Outcome, o.Reason)
	}
	return NotExercisedf("the delegation ended %s (reason %q) with no client secret sent: nothing says the card's token endpoint was why, so the question was not reached", o.Outcome, o.Reason)
}

// tokenOrRPC needs a token request to the vendor or a call to its
// endpoint.
func tokenOrRPC(vendor string) Precondition {
	return Precondition{
		Needs: "ask " + vendorName(vendor) + "'s token endpoint for a token, or call its endpoint",
		Met: func(r *Run) bool {
			return slices.ContainsFunc(r.Events, func(e mockvendor.Event) bool {
				return inVendor(e, vendor) && (e.Op == mockvendor.OpToken || isRPC(e))
			})
		},
	}
}

// expiredTokenRefused needs a call that presented the vendor's first
// access token and got 401.
func expiredTokenRefused(vendor string) Precondition {
	return Precondition{
		Needs: "present " + vendorName(vendor) + "'s first access token and get its 401 invalid_token",
		Met:   func(r *Run) bool { return firstTokenRefusal(r, vendor) != nil },
	}
}

// firstTokenRefusal is the first 401 to a call presenting access token #1.
func firstTokenRefusal(r *Run, vendor string) *mockvendor.Event {
	for i, e := range r.Events {
		if e.Status == 401 && inVendor(e, vendor) && isRPC(e) && slices.Contains(e.Credentials, mockvendor.Presented{Owner: vendor, Via: viaBearer, Token: 1}) {
			return &r.Events[i]
		}
	}
	return nil
}

// judgeSecretScope is AUTH-008.SECRET.
func judgeSecretScope(r *Run) Verdict {
	tokens := 0
	for _, e := range r.Events {
		if e.Op == mockvendor.OpToken && e.Host == mockvendor.HostAuthD && e.Path == mockvendor.DefaultTokenPath {
			tokens++
			continue
		}
		if i := slices.IndexFunc(e.Credentials, isSecretVia); i >= 0 {
			return Failf("%s: the client secret went there (%s); it belongs to https://%s%s only", describe(e), e.Credentials[i].Via, mockvendor.HostAuthD, mockvendor.DefaultTokenPath).At(e.Seq).
				Want("the secret only in token requests to the token endpoint", e.Credentials[i].Via+" at "+e.Host+e.Path)
		}
	}
	if tokens == 0 {
		return NotExercisedf("the token endpoint was never asked, so where the secret goes was not seen")
	}
	return Passf("the client secret went only to the token endpoint (%d token requests)", tokens)
}

// judgeTokenPresented is AUTH-008.PRESENTED.
func judgeTokenPresented(r *Run) Verdict {
	n := 0
	for _, e := range r.Events {
		if !isRPC(e) || !inVendor(e, "d") {
			continue
		}
		n++
		if !slices.ContainsFunc(e.Credentials, func(p mockvendor.Presented) bool { return p.Owner == "d" && p.Via == viaBearer && p.Token > 0 }) {
			return Failf("%s: no access token from D's token endpoint as Authorization: Bearer (presented: %s)", describe(e), presentedList(e)).At(e.Seq).
				Want("an access token D issued, as a bearer token", presentedList(e))
		}
	}
	if n == 0 {
		return NotExercisedf("no call reached D's endpoint")
	}
	return Passf("%d calls to D's endpoint, each with an access token D's token endpoint issued", n)
}

// judgeTokenRenewed is AUTH-008.REFRESH.
func judgeTokenRenewed(r *Run) Verdict {
	refused := firstTokenRefusal(r, "d")
	if refused == nil {
		return NotExercisedf("the expired token was never refused")
	}
	var renewedAt, retried int64
	for _, e := range r.Events {
		if e.Seq <= refused.Seq {
			continue
		}
		if e.Op == mockvendor.OpToken && inVendor(e, "d") && e.Status == 200 && renewedAt == 0 {
			renewedAt = e.Seq
		}
		if renewedAt != 0 && retried == 0 && isRPC(e) && inVendor(e, "d") && e.Status == 200 &&
			slices.ContainsFunc(e.Credentials, func(p mockvendor.Presented) bool { return p.Via == viaBearer && p.Token > 1 }) {
			retried = e.Seq
		}
	}
	switch {
	case renewedAt == 0:
		return Failf("after the 401 invalid_token (%s) no new token was got", describe(*refused)).At(refused.Seq).Want("a token request after the refusal", "none")
	case retried == 0:
		return Failf("a new token was got (#%d) but no call to D succeeded with it", renewedAt).At(renewedAt).Want("the call made again with the new token", "none")
	}
	if v := completedAt(r, 0, "d"); v.Outcome != Pass {
		return v
	}
	return Passf("after the 401 invalid_token a new token was got (#%d), the call made again with it (#%d) and the task completed", renewedAt, retried).At(retried)
}

// judgeNoTokenLoop is AUTH-008.NO-LOOP.
func judgeNoTokenLoop(r *Run) Verdict {
	refused := firstTokenRefusal(r, "d")
	if refused == nil {
		return NotExercisedf("the expired token was never refused")
	}
	again := 0
	for _, e := range r.Events {
		if e.Seq > refused.Seq && isRPC(e) && inVendor(e, "d") && slices.Contains(e.Credentials, mockvendor.Presented{Owner: "d", Via: viaBearer, Token: 1}) {
			again++
			if again > 1 {
				return Failf("%s: the refused token sent again, %d times after its 401", describe(e), again).At(e.Seq).Want("at most once more", fmt.Sprint(again))
			}
		}
	}
	asked := len(tokenRequests(r.Events, "d"))
	calls := count(r.Events, func(e mockvendor.Event) bool { return isRPC(e) && inVendor(e, "d") })
	if asked > calls+2 {
		return Failf("the token endpoint was asked %d times for %d calls to D", asked, calls).Want("at most one token request per call, and 2 more", fmt.Sprint(asked))
	}
	return Passf("the refused token went %d more times, and %d token requests for %d calls to D", again, asked, calls)
}
