package fault

// CardMissing has a vendor serve a card without some of the members the
// A2A 1.0 proto marks REQUIRED on AgentCard. By default it drops those a
// client does not need in order to send (DefaultCardMissing: name,
// description, version, capabilities, defaultInputModes,
// defaultOutputModes) and keeps supportedInterfaces and skills, so that a
// client that never validates the card finds an endpoint and a skill and
// goes ahead; its endpoints answer honestly. A2A 0.3's members (url,
// preferredTransport, protocolVersion) are dropped only when named.
//
// The vendor breaks the proto's REQUIRED annotations on AgentCard (A2A
// 1.0 §4.4.1) and §8.3 (the card MUST properly declare what it supports):
// such a document is not a valid Agent Card, as assistant-ui/assistant-ui
// PR 5115 found of a client that took one for a card.
type CardMissing struct {
	// Members are the top-level card members to drop. Empty means
	// DefaultCardMissing.
	Members []string `json:"members,omitempty" doc:"the card members to drop; empty means name, description, version, capabilities, defaultInputModes, defaultOutputModes"`
}

// DefaultCardMissing are the members CardMissing drops when its config
// names none: REQUIRED members of AgentCard that sending does not need.
var DefaultCardMissing = []string{"name", "description", "version", "capabilities", "defaultInputModes", "defaultOutputModes"}

func init() {
	Register("card-missing", "the card lacks members the proto marks REQUIRED", func() any { return &CardMissing{} })
}

// OnCard drops the members (CardHook).
func (m *CardMissing) OnCard(_ VendorView, card map[string]any, _ bool) {
	members := m.Members
	if len(members) == 0 {
		members = DefaultCardMissing
	}
	for _, k := range members {
		delete(card, k)
	}
}
