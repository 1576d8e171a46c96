// Chain of 5 x 5 stencils on uint16, from Halide's stencil_chain app with its
// CPU schedule (Clément 2022, Table 6.1: sc1 with stencils=1, sc32 with
// stencils=32). Every stage reads 25 neighbours of the previous one, weighted
// by (i + 3) * (j + 3); the input is extended by repeating its edge.
//
// The schedule computes one stage in every group of eleven at root, in 4 x 4
// parallel tiles sized from the benchmark image (width x height, plus the
// stencil footprint of the stages still to come); the stages in between are
// computed per row of the tile. The tiles use the default ShiftInwards tail,
// so the output must be at least width/4 x height/4.
#include "Halide.h"

namespace {

using namespace Halide;

class StencilChain : public Generator<StencilChain> {
public:
    GeneratorParam<int> stencils{"stencils", 32, 1, 100};
    // Image size the tiles are cut for (the app's benchmark size).
    GeneratorParam<int> width{"width", 1536};
    GeneratorParam<int> height{"height", 2560};

    Input<Buffer<uint16_t, 2>> input{"input"};
    Output<Buffer<uint16_t, 2>> output{"output"};

    Var x{"x"}, y{"y"};
    std::vector<Func> stages;

    void generate() {
        stages.push_back(BoundaryConditions::repeat_edge(input));
        for (int n = 0; n < (int)stencils; n++) {
            Func prev = stages.back();
            Func f("stage_" + std::to_string(n));
            Expr e = cast<uint16_t>(0);
            for (int i = -2; i <= 2; i++) {
                for (int j = -2; j <= 2; j++) {
                    e += ((i + 3) * (j + 3)) * prev(x + i, y + j);
                }
            }
            f(x, y) = e;
            stages.push_back(f);
        }
        output(x, y) = stages.back()(x, y);
    }

    void schedule() {
        const int vec = natural_vector_size<uint16_t>();
        const int group = 11;
        Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, t{"t"};
        const int last = (int)stages.size() - 1;
        for (int j = last; j > 0; j -= group) {
            Func root = (j == last) ? Func(output) : stages[j];
            const int grow = 4 * (last - j);
            const int w = (int)width + grow, h = (int)height + grow;
            root.compute_root()
                .tile(x, y, xo, yo, xi, yi, w / 4, h / 4)
                .fuse(xo, yo, t)
                .parallel(t)
                .vectorize(xi, vec);
            for (int i = std::max(0, j - group + 1); i < j; i++) {
                stages[i].store_at(root, t)
                    .compute_at(root, yi)
                    .vectorize(stages[i].args()[0], vec);
            }
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(StencilChain, stencil_chain)
