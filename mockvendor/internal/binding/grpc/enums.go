package grpc

import (
	"encoding/json"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Proto3 enums are open: a value outside the enum travels as its number
// and the receiver keeps it as an unrecognized value. A JSON answer that
// names a value the proto's enum does not have (unknown-role's
// ROLE_SYSTEM, state-unknown's state outside TaskState) is what a later
// version's agent would send; over gRPC it goes as the first number past
// the enum's values, the number such a version would give it.

// unrecognizedEnums is the JSON b of a message md with every enum name
// md's enums do not have replaced by the first number past the enum's
// values; b itself when it does not parse.
func unrecognizedEnums(b []byte, md protoreflect.MessageDescriptor) []byte {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return b
	}
	fixMessage(v, md)
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}

// fixMessage fixes the enum values of v, the JSON object of a message md.
func fixMessage(v any, md protoreflect.MessageDescriptor) {
	obj, ok := v.(map[string]any)
	if !ok || strings.HasPrefix(string(md.FullName()), "google.protobuf.") {
		return
	}
	for k, val := range obj {
		fd := md.Fields().ByJSONName(k)
		if fd == nil {
			fd = md.Fields().ByTextName(k)
		}
		if fd == nil {
			continue
		}
		if fd.IsList() {
			if list, ok := val.([]any); ok {
				for i := range list {
					list[i] = fixValue(list[i], fd)
				}
			}
			continue
		}
		if !fd.IsMap() {
			obj[k] = fixValue(val, fd)
		}
	}
}

// fixValue is one value of field fd with an unknown enum name replaced.
func fixValue(v any, fd protoreflect.FieldDescriptor) any {
	switch fd.Kind() {
	case protoreflect.EnumKind:
		name, ok := v.(string)
		if !ok || fd.Enum().Values().ByName(protoreflect.Name(name)) != nil {
			return v
		}
		return pastEnum(fd.Enum())
	case protoreflect.MessageKind, protoreflect.GroupKind:
		fixMessage(v, fd.Message())
	}
	return v
}

// pastEnum is the first number past the values of enum ed.
func pastEnum(ed protoreflect.EnumDescriptor) int32 {
	var n protoreflect.EnumNumber
	vals := ed.Values()
	for i := 0; i < vals.Len(); i++ {
		n = max(n, vals.Get(i).Number())
	}
	return int32(n) + 1
}
