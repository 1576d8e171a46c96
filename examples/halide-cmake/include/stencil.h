// Stencils shared by the generators of this example.
#ifndef FILTERS_STENCIL_H
#define FILTERS_STENCIL_H

#include "Halide.h"

namespace filters {

// The sum of f at (x, y)'s two diagonal neighbours, up-left and down-right.
inline Halide::Expr diagonal_pair(const Halide::Func &f, const Halide::Var &x, const Halide::Var &y) {
    return f(x + 1, y + 1) + f(x - 1, y - 1);
}

// The mean of f over the three rows around y, at column x.
inline Halide::Expr vertical_mean(const Halide::Func &f, const Halide::Var &x, const Halide::Var &y) {
    return (f(x, y - 1) + f(x, y) + f(x, y + 1)) / 3;
}

}  // namespace filters

#endif
