// levels: a lookup table of 4 entries per level read at an index
// computed in float32 from the parameter levels, as Halide's local
// Laplacian filter reads its remapping table: the index is
// clamp(int32(float32(levels - 1) * 4.0f) + in(x) / 64, 0, levels * 4 -
// 1), and Halide bounds the table by interval arithmetic in float32
// (int32(float32(levels + -1) * 4.0f)), which the kernel reads as the
// integers it computes, assuming them exact.
#include "Halide.h"

namespace {

using namespace Halide;

class Levels : public Generator<Levels> {
public:
    Input<Buffer<uint8_t>> in{"in", 1};
    Input<int> levels{"levels"};
    Output<Buffer<float>> out{"out", 1};

    void generate() {
        lut(v) = cast<float>(v) * 0.5f - 3.0f;
        Expr i = cast<int>(cast<float>(levels - 1) * 4.0f) + cast<int>(in(x) / 64);
        out(x) = lut(clamp(i, 0, levels * 4 - 1));
    }

    void schedule() {
        lut.compute_root();
    }

private:
    Var x{"x"}, v{"v"};
    Func lut{"lut"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Levels, levels)
