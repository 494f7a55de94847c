// Package yamlfile reads and writes configuration files in YAML (or JSON,
// which is YAML too) for Go structs described by their json tags, and
// places every error in the file. It is layer 0 of the packages under
// mockvendor/internal (the bottom, beside trace and netx): the root package
// mockvendor builds its fleet file (LoadConfig, ParseConfig, WriteConfig)
// on it and keeps the fleet's own rules (the file-only keys, the fleet's
// validation) to itself.
//
// It holds:
//   - a strict Decoder: a value of the wrong type, an unknown or duplicate
//     key, a merge key or an unknown alias is an *Error naming the line,
//     the column and the field path ("vendors[1].faults[0].config");
//     time.Duration takes "10s" or a number of nanoseconds; a
//     json.RawMessage field keeps its subtree as compact JSON in the file's
//     key order; any other non-string scalar, map or interface goes through
//     encoding/json;
//   - a hook for keys a struct type accepts beyond its fields (Extra,
//     ExtraFunc, Key), applied after the struct's fields;
//   - the place of every field path the document has (Decoder.Position,
//     Decoder.Nearest), so that a later check of the decoded value can point
//     at the line;
//   - the writer (Marshal): a value as encoding/json renders it, in YAML,
//     keeping the order of the members, so that a json.RawMessage reads
//     back byte for byte.
//
// The name says what it is: a YAML file codec that knows nothing of
// fleets, vendors or faults (those rules live in the root's configfile.go).
// yamlfile imports no package of mockvendor, and every package of
// mockvendor may import it; being on layer 0, it has nothing below it.
package yamlfile
