package a2a

import (
	"fmt"
	"strings"
)

// The A2A error model, binding-neutral: an Error is a value (code, message,
// vendor data, ErrorInfo reason) from the stage or operation that refuses
// a request until a binding renders it in its own form (the JSON-RPC error
// object of a dialect; the HTTP+JSON google.rpc.Status). What both forms
// share is here: the codes, the constructors of the errors the fleet
// answers, and the ErrorInfo of A2A 1.0.1 §9.5 and §11.6 (reason, domain,
// metadata, the vendor data object).

// Error is an A2A error the fleet answers (the root package re-exports it
// as RPCError): the JSON-RPC code and message of the error, the vendor's
// data, and the 1.0 ErrorInfo reason.
type Error struct {
	// Code is the JSON-RPC error code.
	Code int
	// Message is the error message.
	Message string
	// Data is the vendor's error data. The 0.x dialects send it as the
	// data object; 1.0 sends an array of typed objects: a google.rpc.ErrorInfo
	// with Reason, then Data with an @type.
	Data map[string]any
	// Reason is the ErrorInfo reason for the 1.0 dialect ("TASK_NOT_FOUND").
	Reason string
}

func (e *Error) Error() string { return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message) }

// The error codes of JSON-RPC 2.0 (§5.1) and of A2A (A2A 1.0.1 §5.4) the
// fleet answers or maps; CodeUnauthenticated is the fleet's own for a call
// without an accepted credential (answered with HTTP 401).
const (
	CodeParse                     = -32700
	CodeInvalidRequest            = -32600
	CodeMethodNotFound            = -32601
	CodeInvalidParams             = -32602
	CodeInternal                  = -32603
	CodeUnauthenticated           = -32000
	CodeTaskNotFound              = -32001
	CodeTaskNotCancelable         = -32002
	CodePushNotSupported          = -32003
	CodeUnsupported               = -32004
	CodeContentTypeNotSupported   = -32005
	CodeInvalidAgentResponse      = -32006
	CodeExtendedCardNotConfigured = -32007
	CodeExtensionSupportRequired  = -32008
	CodeVersionNotSupported       = -32009
)

// ParseError is JSON-RPC's -32700: the body is not JSON.
func ParseError(detail string) *Error {
	return &Error{Code: CodeParse, Message: "Invalid JSON payload: " + detail, Reason: "PARSE_ERROR"}
}

// InvalidRequest is JSON-RPC's -32600: not a valid request object.
func InvalidRequest(detail string) *Error {
	return &Error{Code: CodeInvalidRequest, Message: "Request payload validation error: " + detail, Reason: "INVALID_REQUEST"}
}

// MethodNotFound is JSON-RPC's -32601 for a method (or route) the
// endpoint does not know.
func MethodNotFound(method string) *Error {
	return &Error{Code: CodeMethodNotFound, Message: "Method not found", Data: map[string]any{"method": method}, Reason: "METHOD_NOT_FOUND"}
}

// InvalidParams is JSON-RPC's -32602.
func InvalidParams(detail string) *Error {
	return &Error{Code: CodeInvalidParams, Message: "Invalid parameters: " + detail, Reason: "INVALID_PARAMS"}
}

// Internal is JSON-RPC's -32603.
func Internal(detail string) *Error {
	return &Error{Code: CodeInternal, Message: "Internal error: " + detail, Reason: "INTERNAL"}
}

// TaskNotFound is A2A's TaskNotFoundError (-32001).
func TaskNotFound(id string) *Error {
	return &Error{Code: CodeTaskNotFound, Message: "Task not found", Data: map[string]any{"taskId": id}, Reason: "TASK_NOT_FOUND"}
}

// TaskNotCancelable is A2A's TaskNotCancelableError (-32002).
func TaskNotCancelable(id, state string) *Error {
	return &Error{Code: CodeTaskNotCancelable, Message: "Task cannot be canceled", Data: map[string]any{"taskId": id, "state": state}, Reason: "TASK_NOT_CANCELABLE"}
}

// PushNotSupported is A2A's PushNotificationNotSupportedError (-32003).
func PushNotSupported() *Error {
	return &Error{Code: CodePushNotSupported, Message: "Push notifications are not supported", Reason: "PUSH_NOTIFICATION_NOT_SUPPORTED"}
}

// Unsupported is A2A's UnsupportedOperationError (-32004).
func Unsupported(detail string) *Error {
	return &Error{Code: CodeUnsupported, Message: "Unsupported operation: " + detail, Reason: "UNSUPPORTED_OPERATION"}
}

// NoStreaming answers a stream method of a vendor whose card says
// capabilities.streaming false (A2A 1.0 §3.3.4).
func NoStreaming() *Error {
	return Unsupported("streaming is not offered: the card says capabilities.streaming false")
}

// VersionNotSupported is A2A's VersionNotSupportedError (-32009), with the
// versions served.
func VersionNotSupported(asked string, served []string) *Error {
	return &Error{Code: CodeVersionNotSupported, Message: "A2A version " + asked + " is not supported", Data: map[string]any{"requestedVersion": asked, "supportedVersions": append([]string(nil), served...)}, Reason: "VERSION_NOT_SUPPORTED"}
}

// MethodNotInVersion is a known method of another A2A generation than
// the negotiated version's.
func MethodNotInVersion(method, version string) *Error {
	return &Error{Code: CodeMethodNotFound, Message: "Method not found: " + method + " is not a method of A2A " + version, Data: map[string]any{"method": method, "version": version}, Reason: "METHOD_NOT_FOUND"}
}

// SkillNotServed is an honest vendor's refusal of a skill it does not
// serve (here): the spec's UnsupportedOperationError, whose 1.0 ErrorInfo
// is the spec's own (UNSUPPORTED_OPERATION), with the skills served as the
// vendor's data. The region gate's answer, as the source document card as
// claim, not contract records it, is a fault's (SKILL_NOT_AVAILABLE).
func SkillNotServed(skill, region string, available []string) *Error {
	data := map[string]any{"skillId": skill, "availableSkills": available}
	if region != "" {
		data["region"] = region
	}
	return &Error{Code: CodeUnsupported, Message: fmt.Sprintf("Unsupported operation: skill %q is not served here", skill), Data: data, Reason: "UNSUPPORTED_OPERATION"}
}

// ExtensionSupportRequired is A2A's ExtensionSupportRequiredError
// (-32008): the request did not activate the extensions missing, which
// the card marks required, in header (A2A-Extensions, or 0.3's
// X-A2A-Extensions).
func ExtensionSupportRequired(missing []string, header string) *Error {
	return &Error{
		Code:    CodeExtensionSupportRequired,
		Message: "Extension support required: " + strings.Join(missing, ", ") + " (declare it in the " + header + " header)",
		Data:    map[string]any{"requiredExtensions": append([]string(nil), missing...), "header": header},
		Reason:  "EXTENSION_SUPPORT_REQUIRED",
	}
}

// ExtendedCardNotConfigured is A2A's
// ExtendedAgentCardNotConfiguredError (-32007).
func ExtendedCardNotConfigured() *Error {
	return &Error{Code: CodeExtendedCardNotConfigured, Message: "Extended agent card not configured", Reason: "EXTENDED_AGENT_CARD_NOT_CONFIGURED"}
}

// ContentTypeNotSupported is A2A's ContentTypeNotSupportedError (-32005).
func ContentTypeNotSupported(detail string) *Error {
	return &Error{Code: CodeContentTypeNotSupported, Message: "Content type not supported: " + detail, Reason: "CONTENT_TYPE_NOT_SUPPORTED"}
}

// TooDeep is a body nested deeper than maxDepth. Its code is JSON-RPC
// 2.0's -32700 Parse error, "an error occurred on the server while
// parsing the JSON text" (§5.1): the server stopped parsing at its bound,
// before there was any request object to judge, which -32600 Invalid
// Request ("not a valid Request object") would claim; the message says
// the body is JSON.
func TooDeep(maxDepth int) *Error {
	return &Error{
		Code:    CodeParse,
		Message: fmt.Sprintf("Parse error: the body is nested deeper than %d levels of arrays and objects, the fleet's limit; it was not parsed", maxDepth),
		Data:    map[string]any{"maxDepth": maxDepth},
		Reason:  "PARSE_ERROR",
	}
}

// ErrorInfoType is the @type of a google.rpc.ErrorInfo detail.
const ErrorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"

// VendorDataType is the @type of the vendor data object in 1.0 error data.
const VendorDataType = "type.a2a-conform.dev/a2aconform.v1.VendorErrorData"

// SpecDomain is the ErrorInfo domain of the reasons the A2A spec defines
// (A2A 1.0.1 §9.5, §11.6: "domain: Set to a2a-protocol.org").
const SpecDomain = "a2a-protocol.org"

// specReasons are the ErrorInfo reasons of the A2A-specific error codes:
// the error type in UPPER_SNAKE_CASE without "Error" (A2A 1.0.1 §3.3.2,
// §5.4, §11.6).
var specReasons = map[int]string{
	CodeTaskNotFound:              "TASK_NOT_FOUND",
	CodeTaskNotCancelable:         "TASK_NOT_CANCELABLE",
	CodePushNotSupported:          "PUSH_NOTIFICATION_NOT_SUPPORTED",
	CodeUnsupported:               "UNSUPPORTED_OPERATION",
	CodeContentTypeNotSupported:   "CONTENT_TYPE_NOT_SUPPORTED",
	CodeInvalidAgentResponse:      "INVALID_AGENT_RESPONSE",
	CodeExtendedCardNotConfigured: "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
	CodeExtensionSupportRequired:  "EXTENSION_SUPPORT_REQUIRED",
	CodeVersionNotSupported:       "VERSION_NOT_SUPPORTED",
}

// CodeReason is the spec's ErrorInfo reason of an A2A-specific error code
// (ok false for any other code).
func CodeReason(code int) (reason string, ok bool) {
	reason, ok = specReasons[code]
	return reason, ok
}

// protocolReasons are the reasons rendered under SpecDomain: the A2A
// error types' and those of the JSON-RPC standard errors the fleet answers
// (@a2a-js/sdk 1.3.0 files INVALID_PARAMS under a2a-protocol.org too).
// Any other reason is a vendor's own and gets the vendor's domain.
var protocolReasons = func() map[string]bool {
	m := map[string]bool{"PARSE_ERROR": true, "INVALID_REQUEST": true, "METHOD_NOT_FOUND": true, "INVALID_PARAMS": true, "INTERNAL": true}
	for _, r := range specReasons {
		m[r] = true
	}
	return m
}()

// HasSpecReason reports whether e's reason is one the spec defines (filed
// under SpecDomain).
func (e *Error) HasSpecReason() bool { return protocolReasons[e.Reason] }

// Domain is the ErrorInfo domain of e's reason: a2a-protocol.org for a
// reason of the spec's, else vendor (the vendor's own domain). A vendor
// reason is never filed under the spec's domain.
func (e *Error) Domain(vendor string) string {
	if protocolReasons[e.Reason] {
		return SpecDomain
	}
	return vendor
}

// Details are e's 1.0 error details: an ErrorInfo with reason and domain
// and e.Data flattened as its metadata, then (when e has data) the vendor
// data object.
func (e *Error) Details(reason, domain string) []any {
	info := map[string]any{"@type": ErrorInfoType, "reason": reason, "domain": domain}
	if md := e.InfoMetadata(); md != nil {
		info["metadata"] = md
	}
	data := []any{info}
	if len(e.Data) > 0 {
		vd := map[string]any{"@type": VendorDataType}
		for k, v := range e.Data {
			vd[k] = v
		}
		data = append(data, vd)
	}
	return data
}

// InfoMetadata is e.Data flattened as an ErrorInfo's metadata (lists
// comma-joined); nil when e has no data. Every binding's ErrorInfo (the
// JSON error data of 1.0, the gRPC status details) carries it.
func (e *Error) InfoMetadata() map[string]string {
	if len(e.Data) == 0 {
		return nil
	}
	md := make(map[string]string, len(e.Data))
	for k, v := range e.Data {
		md[k] = flatten(v)
	}
	return md
}

// flatten renders a data value as an ErrorInfo metadata string (lists are
// comma-joined).
func flatten(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []string:
		return strings.Join(x, ",")
	case []any:
		var parts []string
		for _, e := range x {
			parts = append(parts, flatten(e))
		}
		return strings.Join(parts, ",")
	}
	return fmt.Sprint(v)
}
