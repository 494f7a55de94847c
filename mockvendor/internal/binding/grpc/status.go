package grpc

import (
	"net/http"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// The one mapping of A2A errors to gRPC statuses (A2A 1.0.1 §5.4's table
// and §10.6): the code from the A2A error's code, the message as it is,
// and as details a google.rpc.ErrorInfo with the spec's reason for the
// error type under the domain a2a-protocol.org, its metadata the
// vendor's data flattened (§10.6), then, when the vendor gave the error a
// reason of its own (the region gate's SKILL_NOT_AVAILABLE), a second
// ErrorInfo with that reason under the vendor's domain.

// Code is the gRPC status code of the A2A error code code answered with
// HTTP status httpStatus (binding.WireError): 401 is UNAUTHENTICATED and
// 413 RESOURCE_EXHAUSTED whatever the code; a gateway's 502 and 504 (the
// agent behind a proxied vendor unreachable or too slow) are UNAVAILABLE,
// as gRPC's HTTP-to-gRPC status mapping (grpc/grpc doc/http-grpc-status-
// mapping.md) has them and Envoy answers its own upstream timeouts, not
// DEADLINE_EXCEEDED, which a client reads as its own deadline run out;
// else A2A 1.0.1 §5.4's table
// for the A2A errors, INVALID_ARGUMENT for JSON-RPC's parse, request and
// params errors, UNIMPLEMENTED for -32601, INTERNAL for -32603 and the
// rest of the server-error range (-32000 to -32099), UNKNOWN otherwise.
func Code(code, httpStatus int) codes.Code {
	switch httpStatus {
	case http.StatusUnauthorized:
		return codes.Unauthenticated
	case http.StatusRequestEntityTooLarge:
		return codes.ResourceExhausted
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		return codes.Unavailable
	}
	switch code {
	case a2a.CodeTaskNotFound:
		return codes.NotFound
	case a2a.CodeTaskNotCancelable, a2a.CodePushNotSupported, a2a.CodeUnsupported,
		a2a.CodeExtendedCardNotConfigured, a2a.CodeExtensionSupportRequired, a2a.CodeVersionNotSupported:
		return codes.FailedPrecondition
	case a2a.CodeContentTypeNotSupported, a2a.CodeParse, a2a.CodeInvalidRequest, a2a.CodeInvalidParams:
		return codes.InvalidArgument
	case a2a.CodeMethodNotFound:
		return codes.Unimplemented
	case a2a.CodeInvalidAgentResponse, a2a.CodeInternal:
		return codes.Internal
	}
	if code <= -32000 && code >= -32099 {
		return codes.Internal // JSON-RPC 2.0 §5.1's server-error range
	}
	return codes.Unknown
}

// Status is the gRPC status of the A2A error e answered with HTTP status
// httpStatus; vendorDomain is the ErrorInfo domain of the vendor's own
// reasons.
func Status(e *a2a.Error, httpStatus int, vendorDomain string) *status.Status {
	p := &spb.Status{Code: int32(Code(e.Code, httpStatus)), Message: e.Message}
	for _, info := range errorInfos(e, vendorDomain) {
		if d, err := anypb.New(info); err == nil {
			p.Details = append(p.Details, d)
		}
	}
	return status.FromProto(p)
}

// errorInfos are the ErrorInfo details of e: the spec's reason of an
// A2A-specific code under a2a-protocol.org, then the vendor's own reason
// (if any) under its domain; for any other code, e's reason under its
// domain (the spec's for the JSON-RPC standard errors).
func errorInfos(e *a2a.Error, vendorDomain string) []*errdetails.ErrorInfo {
	md := e.InfoMetadata()
	spec, specific := a2a.CodeReason(e.Code)
	switch {
	case specific && (e.Reason == "" || e.HasSpecReason()):
		return []*errdetails.ErrorInfo{{Reason: spec, Domain: a2a.SpecDomain, Metadata: md}}
	case specific:
		return []*errdetails.ErrorInfo{
			{Reason: spec, Domain: a2a.SpecDomain, Metadata: md},
			{Reason: e.Reason, Domain: e.Domain(vendorDomain), Metadata: md},
		}
	case e.Reason != "":
		return []*errdetails.ErrorInfo{{Reason: e.Reason, Domain: e.Domain(vendorDomain), Metadata: md}}
	}
	return nil
}
