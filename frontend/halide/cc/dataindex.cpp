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

// ReadsFloat finds a float variable in an expression: a float parameter
// (a 0-d input of the specification, read as resize's beginx =
// int32(ceil((x + 0.5f) / scale_factor - ...)) reads it) or a float let.
class ReadsFloat : public IRVisitor {
public:
    bool found = false;

private:
    using IRVisitor::visit;
    void visit(const Variable *op) override {
        found = found || op->type.is_float();
    }
};

}  // namespace

bool reads_data(const Expr &e) {
    ReadsData v;
    e.accept(&v);
    return v.found;
}

// ReadsStride finds a buffer's stride in an expression.
class ReadsStride : public IRVisitor {
public:
    bool found = false;

private:
    using IRVisitor::visit;
    void visit(const Variable *op) override {
        found = found || op->name.find(".stride.") != std::string::npos;
    }
};

bool reads_stride(const Expr &e) {
    ReadsStride v;
    e.accept(&v);
    return v.found;
}

bool reads_float(const Expr &e) {
    ReadsFloat v;
    e.accept(&v);
    return v.found;
}

bool Translator::data_index(const Expr &e) {
    return reads_data(e) || reads_float(e);
}

Frag Translator::read_index(const Expr &e) {
    if (!data_index(e)) {
        return index(e);
    }
    if (!e.type().is_int() || e.type().bits() > 32) {
        unsupported("the data-dependent coordinate " + str(e) + " of type " + type_name(e.type(), str(e)));
    }
    return value(e);
}

// hist_stage records a histogram (Clément 2022, section 9.6.3): an
// update whose every dimension either keeps its pure variable or writes
// at a data-dependent index over the RVars, such as
// hist(clamp(cast<int>(in(r)), 0, 255)) += 1. Its tensor is indexed by
// the pure variables and the RVars, as a plain update's (spec.cpp,
// update_cases), its value at a cell a select between the update's and
// the previous one; its stores write at data-dependent indices, the
// formats' data-dependent writes (KernelTranslator::store_coords).
void hist_stage(const std::string &what, Stage &st) {
    Scan &sc = st.scan;
    for (size_t i = 0; i < sc.lhs.size(); i++) {
        if (!sc.kept[i] && !sc.data[i]) {
            unsupported(what + " writes at " + str(sc.lhs[i]) + " in dimension " + std::to_string(i) +
                        " beside a data-dependent index: a histogram's other dimensions must keep their pure variables");
        }
        if (sc.data[i] && sc.lhs[i].type() != Int(32)) {
            unsupported(what + " writes at " + str(sc.lhs[i]) + " of type " + type_name(sc.lhs[i].type(), str(sc.lhs[i])));
        }
    }
    if (st.rv.empty()) {
        unsupported(what + " writes at a data-dependent index without an RDom");
    }
    sc.on = false;
    sc.hist = true;
    sc.dim_of.assign(st.rv.size(), -1);
}

}  // namespace detail
}  // namespace augur
