package fault

import "cmp"

// UnknownFields has a vendor answer with fields A2A 1.0.1 does not define,
// as a vendor on a later minor version (or with its own additions) would:
// on the card (top level, in capabilities, in each skill and each
// supportedInterfaces entry) and in every answer (the 1.0 response
// wrapper, the task, its status, each message, artifact and part, each
// stream update event), probes' answers too. Every known field keeps its
// honest value; the added ones are in addition.
//
// Some added fields look like a later version's counterpart of a known
// one and carry Marker as content, so that a client that reads them as
// results shows it: the task's "outputs" (a list of one artifact-shaped
// object, id "a-later-version", whose one part is the text Marker), the
// status's "detail" (a message-shaped object whose part is Marker), the
// artifact's "summary" and each part's "annotations" note (Marker). The
// others are plain additions (numbers, flags, small objects).
//
// The vendor breaks no clause: A2A 1.0.1 §5.7 asks implementations to
// ignore unrecognized fields, for forward compatibility as the protocol
// evolves; a client that refuses the answer, or reports Marker as a
// result, is judged by the READ checks.
type UnknownFields struct {
	// Marker is the text the result-like added fields carry. Empty means
	// DefaultUnknownMarker.
	Marker string `json:"marker,omitempty" doc:"the text the result-like added fields carry; empty means a fixed sentence naming a later version"`
}

// DefaultUnknownMarker is the text UnknownFields' result-like fields carry
// when its config names none.
const DefaultUnknownMarker = "Added by a later version of the agent: not part of the result."

// LaterArtifactID is the artifactId of the artifact-shaped object in an
// UnknownFields task's "outputs".
const LaterArtifactID = "a-later-version"

func init() {
	Register("unknown-fields", "the card and every answer carry fields A2A 1.0.1 does not define, some result-like (marker text)", func() any { return &UnknownFields{} })
}

// OnCard adds the unknown fields to the card (CardHook).
func (u *UnknownFields) OnCard(_ VendorView, card map[string]any, _ bool) {
	card["trustRegistry"] = map[string]any{"uri": "https://registry.example/agents", "sinceVersion": "1.2"}
	card["protocolExtensionsV2"] = []any{map[string]any{"uri": "https://a2a.example/ext/batching", "minVersion": "1.2"}}
	if caps, ok := card["capabilities"].(map[string]any); ok {
		caps["batchedMessages"] = true
	}
	if skills, ok := card["skills"].([]any); ok {
		eachObject(skills, func(s map[string]any) {
			s["pricing"] = map[string]any{"currency": "EUR", "perTask": 0.02}
		})
	}
	if ifs, ok := card["supportedInterfaces"].([]any); ok {
		eachObject(ifs, func(i map[string]any) { i["weight"] = 10 })
	}
}

// OnAnswer adds the unknown fields to the objects of an answer
// (AnswerHook).
func (u *UnknownFields) OnAnswer(c *Call, v map[string]any) {
	marker := cmp.Or(u.Marker, DefaultUnknownMarker)
	walkAnswer(v, func(k objKind, m map[string]any) {
		switch k {
		case objResponse:
			m["traceContext"] = map[string]any{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}
		case objTask:
			m["usage"] = map[string]any{"inputTokens": 42, "outputTokens": 7}
			m["outputs"] = []any{map[string]any{"artifactId": LaterArtifactID, "name": "outputs", "parts": []any{map[string]any{"text": marker}}}}
		case objStatus:
			m["progress"] = 1
			m["detail"] = map[string]any{"parts": []any{map[string]any{"text": marker}}}
		case objMessage:
			m["priority"] = "normal"
		case objArtifact:
			m["summary"] = marker
		case objPart:
			m["annotations"] = map[string]any{"confidence": 0.97, "note": marker}
		case objStatusUpdate, objArtifactUpdate:
			m["emittedBy"] = "worker-3"
		}
	})
	c.Faults = appendOnce(c.Faults, "unknown-fields")
}

// appendOnce appends s to list unless it is there.
func appendOnce(list []string, s string) []string {
	for _, e := range list {
		if e == s {
			return list
		}
	}
	return append(list, s)
}
