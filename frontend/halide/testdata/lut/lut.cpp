// lut: a lookup table read at data-dependent coordinates, as Halide's
// local Laplacian filter reads its remapping table: lut is computed at
// root over the range that the clamp gives its coordinate, and read at
// each pixel's value (an uint8 widened, and an int32 clamped).
#include "Halide.h"

namespace {

using namespace Halide;

class Lut : public Generator<Lut> {
public:
    Input<Buffer<uint8_t>> in{"in", 1};
    Input<Buffer<int32_t>> k{"k", 1};
    Output<Buffer<float>> out{"out", 1};

    void generate() {
        lut(v) = cast<float>(v) * 0.5f - 3.0f;
        out(x) = lut(cast<int>(in(x))) + lut(clamp(k(x), 0, 255)) * 2.0f;
    }

    void schedule() {
        lut.compute_root();
        out.parallel(x);
    }

private:
    Var x{"x"}, v{"v"};
    Func lut{"lut"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Lut, lut)
