package store

import "strings"

// KernelName finds the kernel's name in its source ("kernel NAME(...)"),
// without parsing it, or returns "".
func KernelName(src string) string {
	for len(src) > 0 {
		line := src
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = ""
		}
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "kernel")
		if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		rest = strings.TrimSpace(rest)
		end := 0
		for end < len(rest) && (rest[end] == '_' || rest[end] >= 'a' && rest[end] <= 'z' || rest[end] >= 'A' && rest[end] <= 'Z' || end > 0 && rest[end] >= '0' && rest[end] <= '9') {
			end++
		}
		return rest[:end]
	}
	return ""
}
