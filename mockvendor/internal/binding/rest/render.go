package rest

import (
	"encoding/json"
	"net/http"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
)

// The HTTP+JSON binding's write side (A2A 1.0 §11.6, §11.7): answers bare,
// streams as server-sent events of bare StreamResponses, errors as a
// google.rpc.Status with the HTTP status of the error. request implements
// binding.Binding.

// Name is the protocolBinding a card names the binding by (A2A 1.0
// §4.4.6; mockvendor.BindingREST).
const Name = "HTTP+JSON"

var _ binding.Binding = (*request)(nil)

// Name is the binding's protocolBinding.
func (*request) Name() string { return Name }

// Offers: the binding serves 1.0 only (the 0.3 REST binding, under
// /v1/, is not served).
func (*request) Offers(version string) bool { return version == "1.0" }

// Tenant is the /{tenant} path segment before the route.
func (q *request) Tenant() string { return q.tenant }

// Answers: every HTTP+JSON request gets an answer.
func (*request) Answers() bool { return true }

// DecodeSend decodes the params of a send or stream with encoding/json.
func (q *request) DecodeSend() (*a2a.Message, error) {
	return binding.DecodeSend(q.Params, q.Dialect, &q.Send)
}

// Answer is the bare result (§11.6).
func (q *request) Answer(res ops.Result) []byte { return encode(res.ResultValue()) }

// Frame is one stream event as the bare StreamResponse (§11.7).
func (*request) Frame(item any) []byte { return encode(item) }

// ErrorAnswer is an HTTP+JSON error: the HTTP status of the error (status
// when the JSON-RPC binding would not answer 200: an over-limit body) and
// a google.rpc.Status body in the vendor's ErrorInfo domain.
func (q *request) ErrorAnswer(e *a2a.Error, status int) (int, []byte, bool) {
	name := "INVALID_ARGUMENT"
	switch status {
	case http.StatusUnauthorized:
		name = "UNAUTHENTICATED"
	case http.StatusBadGateway:
		name = "UNAVAILABLE"
	case http.StatusGatewayTimeout:
		name = "DEADLINE_EXCEEDED"
	}
	if status == http.StatusOK {
		status, name = httpStatus(e.Code)
	}
	return status, encode(errorBody(e, status, name, q.Host.ErrorDomain())), false
}

// encode is v as json.Marshal encodes it (nil on error).
func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// httpStatus maps a JSON-RPC error code to the HTTP status and
// google.rpc.Status code name of the HTTP+JSON binding (A2A 1.0 §5.4;
// 1.0.0's 409, 415 and 502 where 1.0.1 moved to 400/400/500, which is what
// the official TCK checks).
func httpStatus(code int) (int, string) {
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

// errorBody renders e as the HTTP+JSON binding's error body (a
// google.rpc.Status whose code is the HTTP status, with the ErrorInfo and
// the vendor data as details) for HTTP status status; domain is the
// vendor's ErrorInfo domain (see the JSON-RPC binding's errorObject). Over
// this binding the status alone does not tell the A2A errors apart, so an
// A2A-specific error MUST carry the spec's ErrorInfo (A2A 1.0.1 §11.6),
// and AIP-193 (which §11.6 adopts) allows one ErrorInfo
// per Status: an A2A-specific error with a vendor reason (the region gate's
// SKILL_NOT_AVAILABLE) carries the spec's reason of its code under
// a2a-protocol.org, and the vendor's reason and domain travel in the
// vendor data object.
func errorBody(e *a2a.Error, status int, statusName, domain string) map[string]any {
	var details []any
	if spec, ok := a2a.CodeReason(e.Code); ok && !e.HasSpecReason() {
		details = e.Details(spec, a2a.SpecDomain)
		vd := map[string]any{"@type": a2a.VendorDataType, "reason": e.Reason, "domain": domain}
		for k, v := range e.Data {
			vd[k] = v
		}
		if len(details) > 1 {
			details[1] = vd
		} else {
			details = append(details, vd)
		}
	} else {
		details = e.Details(e.Reason, e.Domain(domain))
	}
	return map[string]any{"error": map[string]any{"code": status, "status": statusName, "message": e.Message, "details": details}}
}
