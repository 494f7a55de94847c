package cardsig

import "errors"

// Class is the kind of a verification failure. The first four values equal
// the driver contract's reason words.
type Class string

// Verification failure classes.
const (
	// ClassUnsigned: the card has no signature ("signatures" absent, null
	// or empty).
	ClassUnsigned Class = "unsigned-card"
	// ClassSignatureInvalid: a malformed signature entry or protected
	// header, a key that does not fit the algorithm, or a signature that
	// does not match the card under either canonical form.
	ClassSignatureInvalid Class = "signature-invalid"
	// ClassKeyUnknown: no key with the signature's kid could be obtained,
	// even after fetching the key set again.
	ClassKeyUnknown Class = "key-unknown"
	// ClassKeyAmbiguous: the key set holds more than one key with the kid.
	ClassKeyAmbiguous Class = "key-ambiguous"
	// ClassKeyExpired: the key's certificate (its JWK's x5c, RFC 7517
	// §4.7) is outside its validity period (RFC 5280 §4.1.2.5): A2A 1.0
	// §8.4.3 has expired keys never used for verification.
	ClassKeyExpired Class = "key-expired"
	// ClassAlgRejected: the header's alg is missing, "none", an HMAC
	// algorithm or otherwise not an accepted asymmetric algorithm.
	ClassAlgRejected Class = "alg-rejected"
)

// Error is a classified verification failure.
type Error struct {
	// Class says what went wrong.
	Class Class
	// KID is the kid of the signature concerned, when known.
	KID string
	// Err is the underlying cause, if any.
	Err error
}

// Error implements the error interface.
func (e *Error) Error() string {
	msg := "cardsig: " + string(e.Class)
	if e.KID != "" {
		msg += " (kid " + e.KID + ")"
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is the sentinel for e's class, so that
// errors.Is(err, ErrKeyUnknown) works for any key-unknown failure.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.KID == "" && t.Err == nil && t.Class == e.Class
}

// Sentinels for errors.Is, one per Class.
var (
	ErrUnsigned         = &Error{Class: ClassUnsigned}
	ErrSignatureInvalid = &Error{Class: ClassSignatureInvalid}
	ErrKeyUnknown       = &Error{Class: ClassKeyUnknown}
	ErrKeyAmbiguous     = &Error{Class: ClassKeyAmbiguous}
	ErrKeyExpired       = &Error{Class: ClassKeyExpired}
	ErrAlgRejected      = &Error{Class: ClassAlgRejected}
)

// ClassOf returns the Class of the first *Error in err's chain, or "" when
// err is nil or carries none.
func ClassOf(err error) Class {
	var e *Error
	if errors.As(err, &e) {
		return e.Class
	}
	return ""
}

// fail builds an *Error.
func fail(class Class, kid string, err error) *Error {
	return &Error{Class: class, KID: kid, Err: err}
}
