package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"strconv"
	"unsafe"
)

// SetMemoryLimit bounds the memory Z3 may use, in MiB, for every context
// of the process (Z3's global parameter memory_max_size): a query that
// would exceed it fails, and the verifier reports the condition as
// undecided. 0 removes the bound. It is meant to be called once, at start,
// before any context is created.
func SetMemoryLimit(mb uint) {
	name := C.CString("memory_max_size")
	defer C.free(unsafe.Pointer(name))
	val := C.CString(strconv.FormatUint(uint64(mb), 10))
	defer C.free(unsafe.Pointer(val))
	C.Z3_global_param_set(name, val)
}
