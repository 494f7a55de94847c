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
// vendor's data. The seed's region-gate answer is errSkillUnavailable.
func errSkillNotServed(skill, region string, available []string) *RPCError {
	data := map[string]any{"skillId": skill, "availableSkills": available}
	if region != "" {
		data["region"] = region
	}
	return &RPCError{Code: -32004, Message: fmt.Sprintf("Unsupported operation: skill %q is not served here", skill), Data: data, Reason: "UNSUPPORTED_OPERATION"}
}

// errSkillUnavailable is the seed's -32004: the skill is not served in this
// region, with the skills that are.
func errSkillUnavailable(region string, available []string) *RPCError {
	return &RPCError{
		Code:    -32004,
		Message: "skill not available in region",
		Data:    map[string]any{"region": region, "availableSkills": available},
		Reason:  "SKILL_NOT_AVAILABLE",
	}
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
// details) for HTTP status status.
func (e *RPCError) rest(status int, statusName string) map[string]any {
	details := e.wire(Dialect10)["data"]
	return map[string]any{"error": map[string]any{"code": status, "status": statusName, "message": e.Message, "details": details}}
}

const errorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"

// VendorDataType is the @type of the vendor data object in 1.0 error data.
const VendorDataType = "type.a2a-conform.dev/a2aconform.v1.VendorErrorData"

// wireError renders e in dialect d.
func (e *RPCError) wire(d Dialect) map[string]any {
	out := map[string]any{"code": e.Code, "message": e.Message}
	if d != Dialect10 {
		if e.Data != nil {
			out["data"] = e.Data
		}
		return out
	}
	info := map[string]any{"@type": errorInfoType, "reason": e.Reason, "domain": "a2a-protocol.org"}
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
	out["data"] = data
	return out
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
