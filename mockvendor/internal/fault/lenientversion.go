package fault

// LenientVersion answers a method in its own dialect whatever A2A-Version
// the request names: the source documents send 0.1 method names (tasks/send) with
// A2A-Version: 1.0, and the first edition of the fleet answered that mix
// everywhere. An honest vendor negotiates instead (negotiate.go); a
// scenario whose orchestrators are expected to speak the source documents' mix
// switches this on and says so.
type LenientVersion struct{}

func init() {
	Register("lenient-version", "a method is answered in its own dialect whatever A2A-Version the request names (the source documents' mix)", func() any { return &LenientVersion{} })
}

// Lenient is always true: the method's dialect wins (LenientHook).
func (*LenientVersion) Lenient() bool { return true }
