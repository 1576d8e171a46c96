package halide

import "context"

// HalideFinalStmt lowers the pipeline with Halide's own compile_to_module
// under HL_DEBUG_CODEGEN=2 and returns the statement Halide prints after
// its last pass before the offloads and lower_parallel_tasks ("Lowering
// after final simplification:"), the statement StageFinal captures.
func HalideFinalStmt(ctx context.Context, driver string, o Options) (string, error) {
	return halideLogSection(ctx, driver, o, "Lowering after final simplification:", "\nSkipping Hexagon offload", "no Hexagon offload step after the final simplification")
}
