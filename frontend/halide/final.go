package halide

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
)

// HalideFinalStmt lowers the pipeline with Halide's own compile_to_module
// under HL_DEBUG_CODEGEN=2 and returns the statement Halide prints after
// its last pass before the offloads and lower_parallel_tasks ("Lowering
// after final simplification:"), the statement StageFinal captures.
func HalideFinalStmt(ctx context.Context, driver string, o Options) (string, error) {
	var log bytes.Buffer
	if err := runDriver(ctx, driver, o, []string{"HL_DEBUG_CODEGEN=2"}, &log, "--halide-lower"); err != nil {
		return "", err
	}
	const head = "Lowering after final simplification:\n"
	text := log.String()
	i := strings.Index(text, head)
	if i < 0 {
		return "", fmt.Errorf("the log of Halide's lowering has no %q", strings.TrimSpace(head))
	}
	text = text[i+len(head):]
	j := strings.Index(text, "\nSkipping Hexagon offload")
	if j < 0 {
		return "", errors.New("the log of Halide's lowering has no Hexagon offload step after the final simplification")
	}
	return strings.TrimRight(text[:j], "\n") + "\n", nil
}
