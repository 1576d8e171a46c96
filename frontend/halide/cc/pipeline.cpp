// The pipeline: its lowering, by Halide 14's own passes up to storage
// flattening, and its funcs, stages, buffers and parameters, gathered and
// named for both the specification and the kernel.
#include "emit_internal.h"

namespace augur {
namespace detail {

std::string element_name(const Function &f, int i) {
    return f.outputs() == 1 ? f.name() : f.name() + "." + std::to_string(i);
}

void Pipeline_::add_buffer(const std::string &name, const Type &t, int dims, bool output) {
    if (buffer_index.count(name)) {
        return;
    }
    Buffer_ b;
    b.name = name;
    b.type = type_name(t, "buffer " + name);
    b.dims = dims;
    b.output = output;
    b.tensor = output ? funcs.at(name).tensor : names(name);
    b.array = names("buf_" + name);
    for (int d = 0; d < dims; d++) {
        std::string mn = name + ".min." + std::to_string(d), ex = name + ".extent." + std::to_string(d);
        b.mins.push_back(names(mn));
        b.extents.push_back(names(ex));
        field_param[mn] = b.mins.back();
        field_param[ex] = b.extents.back();
    }
    buffer_index[name] = buffers.size();
    buffers.push_back(b);
}

std::string Pipeline_::stride_param(const std::string &field) {
    if (auto f = field_param.find(field); f != field_param.end()) {
        return f->second;
    }
    size_t at = field.find(".stride.");
    if (at == std::string::npos || !buffer_index.count(field.substr(0, at))) {
        return "";
    }
    const std::string k = field.substr(at + 8);
    if (k.empty() || k.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(k) >= buffers[buffer_index.at(field.substr(0, at))].dims) {
        return "";
    }
    std::string id = names(field);
    field_param[field] = id;
    params.push_back(id);
    strides.push_back(field);
    return id;
}

void Pipeline_::add_scalar(const Parameter &p) {
    if (scalar_index.count(p.name())) {
        return;
    }
    Scalar s;
    s.name = p.name();
    s.id = names(p.name());
    s.type = type_name(p.type(), "parameter " + p.name());
    s.index = p.type() == Int(32);
    if (!s.index) {
        s.array = names("buf_" + p.name());
    }
    scalar_index[s.name] = scalars.size();
    scalars.push_back(s);
}

namespace {

// Inputs finds the images and scalar parameters an expression reads.
class Inputs : public IRGraphVisitor {
public:
    std::vector<std::pair<std::string, const Call *>> images;
    std::vector<Parameter> scalars;

private:
    using IRGraphVisitor::visit;
    std::set<std::string> seen_;
    void visit(const Call *op) override {
        if (op->call_type == Call::Image && !seen_.count(op->name)) {
            seen_.insert(op->name);
            images.emplace_back(op->name, op);
        }
        IRGraphVisitor::visit(op);
    }
    void visit(const Variable *op) override {
        if (op->param.defined() && !op->param.is_buffer() && !seen_.count(op->param.name())) {
            seen_.insert(op->param.name());
            scalars.push_back(op->param);
        }
    }
};

// Realizations collects the bounds of every realization.
class Realizations : public IRVisitor {
public:
    std::map<std::string, std::vector<Region>> bounds;

private:
    using IRVisitor::visit;
    void visit(const Realize *op) override {
        bounds[op->name].push_back(op->bounds);
        IRVisitor::visit(op);
    }
};

// folded_dims finds the dimensions whose realization bounds storage folding
// changed: there the stores and loads are at folded coordinates.
std::map<std::string, std::set<int>> folded_dims(const Stmt &before, const Stmt &after) {
    Realizations b, a;
    before.accept(&b);
    after.accept(&a);
    std::map<std::string, std::set<int>> out;
    for (const auto &kv : a.bounds) {
        auto it = b.bounds.find(kv.first);
        for (size_t r = 0; r < kv.second.size(); r++) {
            for (size_t d = 0; d < kv.second[r].size(); d++) {
                bool same = it != b.bounds.end() && r < it->second.size() && d < it->second[r].size() &&
                            equal(it->second[r][d].min, kv.second[r][d].min) &&
                            equal(it->second[r][d].extent, kv.second[r][d].extent);
                if (!same) {
                    out[kv.first].insert((int)d);
                }
            }
        }
    }
    return out;
}

// func_info names element vi of the func fn and its stages, checking
// that its definitions are ones the translation handles.
FuncInfo func_info(Pipeline_ &p, const std::string &fn, const Function &f, int vi) {
    if (f.has_extern_definition()) {
        unsupported("the extern func " + fn);
    }
    if (!f.has_pure_definition()) {
        unsupported("the func " + fn + " without a pure definition");
    }
    std::string en = element_name(f, vi);
    FuncInfo fi;
    fi.f = f;
    fi.value_index = vi;
    fi.type = type_name(f.output_types()[vi], "func " + en);
    fi.tensor = p.names(en);
    size_t n = 1 + f.updates().size();
    for (size_t k = 0; k < n; k++) {
        Stage st;
        std::string prefix = fn + ".s" + std::to_string(k) + ".";
        st.tensor = n == 1 ? fi.tensor : p.names(en + "_s" + std::to_string(k));
        for (const std::string &a : f.args()) {
            st.coords.push_back(prefix + a);
            st.fused.push_back(prefix + "fused." + a);
        }
        if (k > 0) {
            const Definition &u = f.updates()[k - 1];
            const auto &rvs = u.schedule().rvars();
            for (auto it = rvs.rbegin(); it != rvs.rend(); ++it) {
                st.rv.push_back(*it);
                st.coords.push_back(prefix + it->var);
            }
            scan_stage(f, k, st);
        }
        fi.stages.push_back(st);
    }
    return fi;
}

// visit_definition visits every expression of the definition d.
void visit_definition(const Definition &d, IRVisitor *v) {
    for (const Expr &e : d.values()) {
        e.accept(v);
    }
    for (const Expr &e : d.args()) {
        e.accept(v);
    }
    if (d.predicate().defined()) {
        d.predicate().accept(v);
    }
    for (const ReductionVariable &r : d.schedule().rvars()) {
        r.min.accept(v);
        r.extent.accept(v);
    }
}

}  // namespace

Lowered lower(const Halide::Pipeline &pipeline, const Target &t, const std::string &name) {
    if (t.has_gpu_feature() || t.has_feature(Target::OpenGLCompute) || t.has_feature(Target::HexagonDma) ||
        (t.arch != Target::Hexagon && t.has_feature(Target::HVX))) {
        unsupported("the target " + t.to_string() + ": device offloading (only host targets are translated)");
    }
    std::vector<Function> outs;
    for (const Func &f : pipeline.outputs()) {
        outs.push_back(f.function());
    }
    auto copied = deep_copy(outs, build_environment(outs));
    Lowered l;
    l.outputs = copied.first;
    l.env = copied.second;
    strictify_float(l.env, t);
    for (const Function &f : l.outputs) {
        Func(f).compute_root().store_root();
    }
    for (auto &it : l.env) {
        it.second.lock_loop_levels();
    }
    l.env = wrap_func_calls(l.env);
    auto ordered = realization_order(l.outputs, l.env);
    l.order = ordered.first;
    simplify_specializations(l.env);
    bool any_memoized = false;
    Stmt s = schedule_functions(l.outputs, ordered.second, l.env, t, any_memoized);
    if (any_memoized) {
        unsupported("memoize(): memoized funcs");
    }
    s = inject_tracing(s, name, false, l.env, l.outputs, t);
    s = add_parameter_checks({}, s, t);
    FuncValueBounds fb = compute_function_value_bounds(l.order, l.env);
    s = clamp_unsafe_accesses(s, l.env, fb);
    s = bounds_inference(s, l.outputs, l.order, ordered.second, l.env, fb, t);
    s = remove_extern_loops(s);
    s = sliding_window(s, l.env);
    s = uniquify_variable_names(s);
    s = simplify(s, false);
    s = simplify_correlated_differences(s);
    s = allocation_bounds_inference(s, l.env, fb);
    s = add_image_checks(s, l.outputs, t, l.order, l.env, fb, false);
    s = remove_undef(s);
    Stmt before_folding = s;
    s = storage_folding(s, l.env);
    l.folded = folded_dims(before_folding, s);
    s = debug_to_file(s, l.outputs, l.env);
    s = inject_prefetch(s, l.env);
    s = lower_safe_promises(s);
    s = skip_stages(s, l.order);
    s = fork_async_producers(s, l.env);
    s = split_tuples(s, l.env);
    s = simplify_correlated_differences(s);
    s = bound_small_allocations(s);
    l.s = s;
    return l;
}

Pipeline_ gather(const Lowered &l) {
    Pipeline_ p;
    for (const std::string &w : reserved_words()) {
        p.names.reserve(w);
    }
    for (const std::string &fn : l.order) {
        const Function &f = l.env.at(fn);
        for (int i = 0; i < f.outputs(); i++) {
            std::string en = element_name(f, i);
            p.order.push_back(en);
            p.funcs[en] = func_info(p, fn, f, i);
        }
    }
    for (const Function &f : l.outputs) {
        for (int i = 0; i < f.outputs(); i++) {
            std::string en = element_name(f, i);
            p.add_buffer(en, f.output_types()[i], f.dimensions(), true);
            if (is_undef(f.values()[i]) && !f.updates().empty()) {
                // Updated in place: the updates start from the buffer's
                // contents.
                p.buffers[p.buffer_index.at(en)].initial = p.names(en + ".initial");
            }
        }
    }
    // Inputs and parameters, in the order the algorithm reads them.
    Inputs in;
    for (const std::string &fn : l.order) {
        const Function &f = l.env.at(fn);
        visit_definition(f.definition(), &in);
        for (const Definition &u : f.updates()) {
            visit_definition(u, &in);
        }
    }
    l.s.accept(&in);
    for (const auto &im : in.images) {
        const Call *c = im.second;
        Type t = c->type;
        int dims = (int)c->args.size();
        p.add_buffer(im.first, t, dims, false);
    }
    for (const Parameter &prm : in.scalars) {
        p.add_scalar(prm);
    }
    for (const Buffer_ &b : p.buffers) {
        for (int d = 0; d < b.dims; d++) {
            p.params.push_back(b.mins[d]);
            p.params.push_back(b.extents[d]);
        }
    }
    for (const Scalar &s : p.scalars) {
        if (s.index) {
            p.params.push_back(s.id);
        }
    }
    return p;
}

}  // namespace detail
}  // namespace augur
