package mockvendor

import "github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"

// The A2A model lives in internal/a2a (layer 1); these aliases keep it part
// of this package's public face.

// Dialect is the A2A wire generation a request speaks.
type Dialect = a2a.Dialect

// The three dialects the fleet speaks. Dialect01 is 0.1 as the source documents
// use it (tasks/send, parts with "type"); Dialect03 covers 0.2 and 0.3
// (message/send, "kind"); Dialect10 is 1.0 (SendMessage, member-named parts,
// TASK_STATE_* enums, error data as an array).
const (
	Dialect01 = a2a.Dialect01
	Dialect03 = a2a.Dialect03
	Dialect10 = a2a.Dialect10
)

// Part is a message part in dialect-neutral form.
type Part = a2a.Part

// Message is a message in dialect-neutral form.
type Message = a2a.Message

// ArtifactSpec is an artifact a completed task holds, in a form of its own
// that names what every dialect can say (the artifacts fault's config,
// TaskArtifacts).
type ArtifactSpec = a2a.ArtifactSpec

// ArtifactPart is one part of an ArtifactSpec.
type ArtifactPart = a2a.ArtifactPart
