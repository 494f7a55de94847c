package fault

// CardEmpty has a vendor answer its card fetch with HTTP 200 and the
// empty JSON object `{}`: what an SDK serves when it is handed a card
// built with no members (a2aproject/a2a-python#1267: an AgentCard() with
// nothing set is served as {}). The status, headers and cache behaviour
// are those of an honest card; only the document is empty.
//
// The vendor breaks A2A 1.0 §8.1 (servers MUST make an Agent Card
// available) and the proto's REQUIRED members of AgentCard (name,
// description, supportedInterfaces, version, capabilities,
// defaultInputModes, defaultOutputModes, skills): an empty object is no
// card. Its endpoints still answer, as honestly as ever, which a client
// that guesses an endpoint would find.
type CardEmpty struct{}

func init() {
	Register("card-empty", "the card fetch answers HTTP 200 with {}", func() any { return &CardEmpty{} })
}

// OnCard removes every member of the card (CardHook).
func (*CardEmpty) OnCard(_ VendorView, card map[string]any, _ bool) {
	for k := range card {
		delete(card, k)
	}
}
