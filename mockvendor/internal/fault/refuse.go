package fault

// RefuseConnections makes a host a dead endpoint: every connection to it
// is closed as soon as it is accepted, before any TLS, as an interface
// whose server is down looks to a client (the connection fails; A2A 1.0
// §5.2 asks clients to fall back to another interface). An outage, not a
// card that misdeclares its interfaces. Each refused
// connection is traced as OpConnRefused with the host's name, whether it
// came through the proxy or was dialed directly.
type RefuseConnections struct{}

func init() {
	Register("refuse-connections", "every connection to the host is closed at once, before TLS (a dead endpoint); each is traced as connection-refused", func() any { return &RefuseConnections{} })
}

// RefusesConnections is always true (ConnRefuser).
func (RefuseConnections) RefusesConnections() bool { return true }
