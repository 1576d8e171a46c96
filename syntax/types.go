package syntax

// Type is a scalar element type of tensors and arrays.
type Type int

// Scalar types. Invalid is the zero value and means "no type".
const (
	Invalid Type = iota
	Bool
	I8
	I16
	I32
	I64
	U8
	U16
	U32
	U64
	F32
	F64
	numTypes
)

var typeNames = [numTypes]string{
	Invalid: "invalid", Bool: "bool", I8: "i8", I16: "i16", I32: "i32", I64: "i64",
	U8: "u8", U16: "u16", U32: "u32", U64: "u64", F32: "f32", F64: "f64",
}

func (t Type) String() string {
	if t >= 0 && t < numTypes {
		return typeNames[t]
	}
	return "invalid"
}

// TypeByName returns the type spelled name, or Invalid.
func TypeByName(name string) Type {
	for t := Bool; t < numTypes; t++ {
		if typeNames[t] == name {
			return t
		}
	}
	return Invalid
}

// IsInteger reports whether t is a signed or unsigned integer type.
func (t Type) IsInteger() bool { return t >= I8 && t <= U64 }

// IsSigned reports whether t is a signed integer type.
func (t Type) IsSigned() bool { return t >= I8 && t <= I64 }

// IsUnsigned reports whether t is an unsigned integer type.
func (t Type) IsUnsigned() bool { return t >= U8 && t <= U64 }

// IsFloat reports whether t is f32 or f64.
func (t Type) IsFloat() bool { return t == F32 || t == F64 }

// IsNumeric reports whether t is an integer or float type.
func (t Type) IsNumeric() bool { return t.IsInteger() || t.IsFloat() }

// Bits is the width of t in bits (1 for bool, 0 for Invalid).
func (t Type) Bits() int {
	switch t {
	case Bool:
		return 1
	case I8, U8:
		return 8
	case I16, U16:
		return 16
	case I32, U32, F32:
		return 32
	case I64, U64, F64:
		return 64
	}
	return 0
}
