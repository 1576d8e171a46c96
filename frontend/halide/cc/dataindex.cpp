// Data-dependent indices: the coordinate of a read that reads a func or
// an image itself, such as a lookup table's lut(clamp(cast<int>(f(x)), 0,
// 255)), is the formats' data-dependent index (Clément 2022, section
// 9.6.1): the typed value of the coordinate instead of a quasi-affine
// index expression.
#include "emit_internal.h"

namespace augur {
namespace detail {

namespace {

// ReadsData finds a read of a func or an image in an expression.
class ReadsData : public IRVisitor {
public:
    bool found = false;

private:
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide || op->call_type == Call::Image) {
            found = true;
            return;
        }
        IRVisitor::visit(op);
    }
};

}  // namespace

bool reads_data(const Expr &e) {
    ReadsData v;
    e.accept(&v);
    return v.found;
}

Frag Translator::read_index(const Expr &e) {
    if (!reads_data(e)) {
        return index(e);
    }
    if (!e.type().is_int() || e.type().bits() > 32) {
        unsupported("the data-dependent coordinate " + str(e) + " of type " + type_name(e.type(), str(e)));
    }
    return value(e);
}

}  // namespace detail
}  // namespace augur
