package mockvendor

import (
	"fmt"
	"net/http"
	"strings"
)

// RPCError is a JSON-RPC error the fleet answers. It is a value until the
// one place (writeRPCError) that turns it into a dialect's wire form.
type RPCError struct {
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

func (e *RPCError) Error() string { return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message) }

// The errors of the JSON-RPC and A2A specifications.
func errParse(detail string) *RPCError {
	return &RPCError{Code: -32700, Message: "Invalid JSON payload: " + detail, Reason: "PARSE_ERROR"}
}
func errInvalidRequest(detail string) *RPCError {
	return &RPCError{Code: -32600, Message: "Request payload validation error: " + detail, Reason: "INVALID_REQUEST"}
}
func errMethodNotFound(method string) *RPCError {
	return &RPCError{Code: -32601, Message: "Method not found", Data: map[string]any{"method": method}, Reason: "METHOD_NOT_FOUND"}
}
func errInvalidParams(detail string) *RPCError {
	return &RPCError{Code: -32602, Message: "Invalid parameters: " + detail, Reason: "INVALID_PARAMS"}
}
func errInternal(detail string) *RPCError {
	return &RPCError{Code: -32603, Message: "Internal error: " + detail, Reason: "INTERNAL"}
}
func errTaskNotFound(id string) *RPCError {
	return &RPCError{Code: -32001, Message: "Task not found", Data: map[string]any{"taskId": id}, Reason: "TASK_NOT_FOUND"}
}
func errTaskNotCancelable(id, state string) *RPCError {
	return &RPCError{Code: -32002, Message: "Task cannot be canceled", Data: map[string]any{"taskId": id, "state": state}, Reason: "TASK_NOT_CANCELABLE"}
}
func errPushNotSupported() *RPCError {
	return &RPCError{Code: -32003, Message: "Push notifications are not supported", Reason: "PUSH_NOTIFICATION_NOT_SUPPORTED"}
}
func errUnsupported(detail string) *RPCError {
	return &RPCError{Code: -32004, Message: "Unsupported operation: " + detail, Reason: "UNSUPPORTED_OPERATION"}
}

func errVersionNotSupported(asked string, served []string) *RPCError {
	return &RPCError{Code: -32009, Message: "A2A version " + asked + " is not supported", Data: map[string]any{"requestedVersion": asked, "supportedVersions": append([]string(nil), served...)}, Reason: "VERSION_NOT_SUPPORTED"}
}

// errMethodNotInVersion is a known method of another A2A generation than
// the negotiated version's.
func errMethodNotInVersion(method, version string) *RPCError {
	return &RPCError{Code: -32601, Message: "Method not found: " + method + " is not a method of A2A " + version, Data: map[string]any{"method": method, "version": version}, Reason: "METHOD_NOT_FOUND"}
}

// errSkillNotServed is an honest vendor's refusal of a skill it does not
// serve (here): the spec's UnsupportedOperationError, whose 1.0 ErrorInfo
// is the spec's own (UNSUPPORTED_OPERATION), with the skills served as the
// vendor's data. The region gate's answer, as the source document card as
// claim, not contract records it, is errSkillUnavailable (internal/fault).
func errSkillNotServed(skill, region string, available []string) *RPCError {
	data := map[string]any{"skillId": skill, "availableSkills": available}
	if region != "" {
		data["region"] = region
	}
	return &RPCError{Code: -32004, Message: fmt.Sprintf("Unsupported operation: skill %q is not served here", skill), Data: data, Reason: "UNSUPPORTED_OPERATION"}
}

func errExtendedCardNotConfigured() *RPCError {
	return &RPCError{Code: -32007, Message: "Extended agent card not configured", Reason: "EXTENDED_AGENT_CARD_NOT_CONFIGURED"}
}

func errContentType(detail string) *RPCError {
	return &RPCError{Code: -32005, Message: "Content type not supported: " + detail, Reason: "CONTENT_TYPE_NOT_SUPPORTED"}
}

// restStatus maps a JSON-RPC error code to the HTTP status and
// google.rpc.Status code name of the HTTP+JSON binding (A2A 1.0 §5.4;
// 1.0.0's 409, 415 and 502 where 1.0.1 moved to 400/400/500, which is what
// the official TCK checks); limit is the status of an over-limit body.
func restStatus(code int) (int, string) {
	switch code {
	case -32001, -32601:
		return http.StatusNotFound, "NOT_FOUND"
	case -32002:
		return http.StatusConflict, "FAILED_PRECONDITION"
	case -32003, -32004, -32007, -32008, -32009:
		return http.StatusBadRequest, "FAILED_PRECONDITION"
	case -32005:
		return http.StatusUnsupportedMediaType, "INVALID_ARGUMENT"
	case -32006:
		return http.StatusBadGateway, "INTERNAL"
	case -32700, -32600, -32602:
		return http.StatusBadRequest, "INVALID_ARGUMENT"
	}
	return http.StatusInternalServerError, "INTERNAL"
}

// rest renders e as the HTTP+JSON binding's error body (a google.rpc.Status
// whose code is the HTTP status, with the ErrorInfo and the vendor data as
// details) for HTTP status status; domain is the vendor's ErrorInfo domain
// (see wire). Over this binding the status alone does not tell the A2A
// errors apart, so an A2A-specific error MUST carry the spec's ErrorInfo
// (A2A 1.0.1 §11.6), and AIP-193 (which §11.6 adopts) allows one ErrorInfo
// per Status: an A2A-specific error with a vendor reason (the region gate's
// SKILL_NOT_AVAILABLE) carries the spec's reason of its code under
// a2a-protocol.org, and the vendor's reason and domain travel in the
// vendor data object.
func (e *RPCError) rest(status int, statusName, domain string) map[string]any {
	var details []any
	if spec, ok := a2aReasons[e.Code]; ok && !protocolReasons[e.Reason] {
		details = e.details(spec, a2aDomain)
		vd := map[string]any{"@type": VendorDataType, "reason": e.Reason, "domain": domain}
		for k, v := range e.Data {
			vd[k] = v
		}
		if len(details) > 1 {
			details[1] = vd
		} else {
			details = append(details, vd)
		}
	} else {
		details = e.details(e.Reason, e.domain(domain))
	}
	return map[string]any{"error": map[string]any{"code": status, "status": statusName, "message": e.Message, "details": details}}
}

const errorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"

// VendorDataType is the @type of the vendor data object in 1.0 error data.
const VendorDataType = "type.a2a-conform.dev/a2aconform.v1.VendorErrorData"

// a2aDomain is the ErrorInfo domain of the reasons the A2A spec defines
// (A2A 1.0.1 §9.5, §11.6: "domain: Set to a2a-protocol.org").
const a2aDomain = "a2a-protocol.org"

// a2aReasons are the ErrorInfo reasons of the A2A-specific error codes:
// the error type in UPPER_SNAKE_CASE without "Error" (A2A 1.0.1 §3.3.2,
// §5.4, §11.6).
var a2aReasons = map[int]string{
	-32001: "TASK_NOT_FOUND",
	-32002: "TASK_NOT_CANCELABLE",
	-32003: "PUSH_NOTIFICATION_NOT_SUPPORTED",
	-32004: "UNSUPPORTED_OPERATION",
	-32005: "CONTENT_TYPE_NOT_SUPPORTED",
	-32006: "INVALID_AGENT_RESPONSE",
	-32007: "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
	-32008: "EXTENSION_SUPPORT_REQUIRED",
	-32009: "VERSION_NOT_SUPPORTED",
}

// protocolReasons are the reasons rendered under a2aDomain: the A2A error
// types' and those of the JSON-RPC standard errors the fleet answers
// (@a2a-js/sdk 1.3.0 files INVALID_PARAMS under a2a-protocol.org too).
// Any other reason is a vendor's own and gets the vendor's domain.
var protocolReasons = func() map[string]bool {
	m := map[string]bool{"PARSE_ERROR": true, "INVALID_REQUEST": true, "METHOD_NOT_FOUND": true, "INVALID_PARAMS": true, "INTERNAL": true}
	for _, r := range a2aReasons {
		m[r] = true
	}
	return m
}()

// domain is the ErrorInfo domain of e's reason: a2a-protocol.org for a
// reason of the spec's, else vendor (the vendor's own domain). A vendor
// reason is never filed under the spec's domain.
func (e *RPCError) domain(vendor string) string {
	if protocolReasons[e.Reason] {
		return a2aDomain
	}
	return vendor
}

// wire renders e in dialect d; domain is the vendor's ErrorInfo domain
// (Vendor.errorDomain: "agent-b.example"), used for a reason the spec does
// not define. The 0.x dialects send the vendor data as the data object;
// 1.0 sends an array of typed objects (A2A 1.0.1 §9.5): one
// google.rpc.ErrorInfo, then the vendor data with an @type. @a2a-js/sdk
// keeps that array as the error's data (JsonRpc*Error.data).
func (e *RPCError) wire(d Dialect, domain string) map[string]any {
	out := map[string]any{"code": e.Code, "message": e.Message}
	if d != Dialect10 {
		if e.Data != nil {
			out["data"] = e.Data
		}
		return out
	}
	out["data"] = e.details(e.Reason, e.domain(domain))
	return out
}

// details are e's 1.0 error details: an ErrorInfo with reason and domain
// and e.Data flattened as its metadata, then (when e has data) the vendor
// data object.
func (e *RPCError) details(reason, domain string) []any {
	info := map[string]any{"@type": errorInfoType, "reason": reason, "domain": domain}
	if len(e.Data) > 0 {
		md := map[string]string{}
		for k, v := range e.Data {
			md[k] = flatten(v)
		}
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

// errorDomain is the ErrorInfo domain of the vendor's own error reasons:
// the name of its first card host ("agent-b.example"), else of its first
// named host, else "vendor-<id>.invalid" for a vendor with bare-IP hosts
// only. It is never the spec's a2a-protocol.org.
func (v *Vendor) errorDomain() string {
	name := ""
	for _, h := range v.hosts {
		if h.cfg.Name == "" {
			continue
		}
		if h.cfg.Card {
			return h.cfg.Name
		}
		if name == "" {
			name = h.cfg.Name
		}
	}
	if name == "" {
		return "vendor-" + v.cfg.ID + ".invalid"
	}
	return name
}
