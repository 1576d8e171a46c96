package fuzz

import (
	"fmt"
	"strings"
)

// cxx prints a case's definitions and directives as Halide C++.
type cxx struct {
	c     *Case
	rdoms map[string]string // "f.K" -> the C++ name of the K-th update's RDom
}

func (p *cxx) def(d Def) string {
	args := p.args(p.c.Dims(d.Name))
	switch d.Kind {
	case BCDef:
		call := fmt.Sprintf("BoundaryConditions::%s(%s)", d.BC, d.Src)
		if d.BC == "constant_exterior" {
			call = fmt.Sprintf("BoundaryConditions::constant_exterior(%s, cast(%s.type(), 0))", d.Src, d.Src)
		}
		return fmt.Sprintf("    Func %s(%q);\n    %s(%s) = %s(%s);\n", d.Name, d.Name, d.Name, args, call, args)
	case FuncDef:
		return fmt.Sprintf("    Func %s(%q);\n    %s(%s) = cast(%s, %s);\n", d.Name, d.Name, d.Name, args, cxxType(d.Type), p.expr(d.Value, ""))
	}
	k := 0
	for _, x := range p.c.Defs {
		if x.Kind == UpdateDef && x.Name == d.Name {
			k++
			if x.Value == d.Value {
				break
			}
		}
	}
	st := fmt.Sprintf("%s.%d", d.Name, k)
	r := fmt.Sprintf("r_%s_%d", d.Name, k)
	p.rdoms[st] = r
	var ranges []string
	for _, x := range d.RDom {
		ranges = append(ranges, fmt.Sprintf("{%d, %d}", x[0], x[1]))
	}
	return fmt.Sprintf("    RDom %s({%s}, \"%s_r%d\");\n    %s(%s) = cast(%s, %s);\n", r, strings.Join(ranges, ", "), d.Name, k-1,
		d.Name, args, cxxType(p.c.Def(d.Name).Type), p.expr(d.Value, st))
}

func (p *cxx) args(dims int) string {
	return strings.Join([]string{"x", "y", "z"}[:dims], ", ")
}

var cxxBinary = map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true, "<": true, "<=": true, "==": true, "&&": true}

// expr prints e, in the stage st ("f.K" for an update, whose rx and ry
// are its RDom's).
func (p *cxx) expr(e *Expr, st string) string {
	if e.Op == "" {
		switch a := e.Atom; {
		case a == "x" || a == "y" || a == "z":
			return a
		case a == "rx" || a == "ry":
			return p.rdoms[st] + "." + a[1:]
		case strings.Contains(a, "."):
			return "Expr(" + a + "f)"
		default:
			return "Expr(" + a + ")"
		}
	}
	var args []string
	for i, a := range e.Args {
		if e.Op == "cast" && i == 0 {
			args = append(args, cxxType(Type(a.Atom)))
			continue
		}
		args = append(args, p.expr(a, st))
	}
	if cxxBinary[e.Op] {
		return "(" + args[0] + " " + e.Op + " " + args[1] + ")"
	}
	return e.Op + "(" + strings.Join(args, ", ") + ")"
}

// stage prints the stage "f" or "f.K".
func (p *cxx) stage(s string) string {
	f, k, ok := strings.Cut(s, ".")
	if !ok || k == "0" {
		return f
	}
	var n int
	fmt.Sscan(k, &n)
	return fmt.Sprintf("%s.update(%d)", f, n-1)
}

// v prints the variable tok of the stage s.
func (p *cxx) v(s, tok string) string {
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	switch {
	case tok == "x" || tok == "y" || tok == "z":
		return tok
	case (tok == "rx" || tok == "ry") && p.rdoms[s] != "":
		return p.rdoms[s] + "." + tok[1:]
	case strings.HasPrefix(tok, "r"):
		return fmt.Sprintf("RVar(%q)", tok)
	}
	return fmt.Sprintf("Var(%q)", tok)
}

var cxxTails = map[string]string{
	"auto": "Auto", "round_up": "RoundUp", "guard_with_if": "GuardWithIf", "shift_inwards": "ShiftInwards",
	"predicate": "Predicate", "predicate_loads": "PredicateLoads", "predicate_stores": "PredicateStores",
}

func (p *cxx) directive(d Directive) string {
	f := d.Func()
	switch d[0] {
	case "compute_root", "store_root":
		return fmt.Sprintf("%s.%s()", f, d[0])
	case "compute_at", "store_at":
		if len(d) == 5 {
			st := d[2]
			if d[3] != "0" {
				st += "." + d[3]
			}
			return fmt.Sprintf("%s.%s(LoopLevel(%s, %s))", f, d[0], d[2], p.v(st, d[4]))
		}
	case "fold":
		return fmt.Sprintf("%s.fold_storage(Var(%q), %s)", f, d[2], d[3])
	case "bound":
		return fmt.Sprintf("%s.bound(Var(%q), %s, %s)", f, d[2], d[3], d[4])
	case "align_bounds":
		return fmt.Sprintf("%s.align_bounds(Var(%q), %s)", f, d[2], d[3])
	}
	return p.stage(d[1]) + p.stageCalls(d[1], d[0:1], d[2:])
}

// stageCalls prints a stage directive's call (and, after specialize,
// the call on the specialised stage).
func (p *cxx) stageCalls(s string, name, a []string) string {
	v := func(i int) string { return p.v(s, a[i]) }
	switch name[0] {
	case "split":
		return fmt.Sprintf(".split(%s, %s, %s, %s, TailStrategy::%s)", v(0), v(1), v(2), a[3], cxxTails[a[4]])
	case "tile":
		return fmt.Sprintf(".tile(%s, %s, %s, %s, %s, %s, %s, %s, TailStrategy::%s)", v(0), v(1), v(2), v(3), v(4), v(5), a[6], a[7], cxxTails[a[8]])
	case "reorder":
		var vs []string
		for i := range a {
			vs = append(vs, "VarOrRVar("+v(i)+")")
		}
		return ".reorder({" + strings.Join(vs, ", ") + "})"
	case "fuse":
		return fmt.Sprintf(".fuse(%s, %s, %s)", v(0), v(1), v(2))
	case "vectorize", "unroll":
		if len(a) == 1 {
			return fmt.Sprintf(".%s(%s)", name[0], v(0))
		}
		return fmt.Sprintf(".%s(%s, %s)", name[0], v(0), a[1])
	case "parallel":
		return fmt.Sprintf(".parallel(%s)", v(0))
	case "specialize":
		call := fmt.Sprintf(".specialize(%s.output_buffer().dim(%s).extent() >= %s)", p.c.Output, a[0], a[1])
		if len(a) > 2 {
			call += p.stageCalls(s, a[2:3], a[3:])
		}
		return call
	case "rfactor":
		return fmt.Sprintf(".rfactor(%s, Var(%q)).compute_root()", v(0), a[1])
	case "atomic":
		return ".atomic()"
	}
	return "/* unknown directive */"
}

// reproHead is the repro's preamble: the poisoned allocator and the
// inputs' values, those of the fuzz driver (cc/fuzz.cpp).
const reproHead = `#include "Halide.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace Halide;

static unsigned char poison = 0;

static void *poison_malloc(JITUserContext *, size_t n) {
    void *p = nullptr;
    if (posix_memalign(&p, 128, n + 128) != 0) {
        return nullptr;
    }
    std::memset(p, poison, n + 128);
    return p;
}

static void poison_free(JITUserContext *, void *p) {
    std::free(p);
}

static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

template<typename T>
static void fill(Buffer<void> &b, const std::string &name) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (char ch : name) {
        h = mix(h + (unsigned char)ch);
    }
    Buffer<T> t = b.as<T>();
    t.for_each_element([&](const int *pos) {
        uint64_t z = h;
        for (int d = 0; d < t.dimensions(); d++) {
            z = mix(z + (uint64_t)(int64_t)pos[d]);
        }
        if constexpr (std::is_floating_point<T>::value) {
            t(pos) = (T)((double)(z % 2001) / 1000.0 - 1.0);
        } else {
            t(pos) = (T)(z % 64);
        }
    });
}

static void fill_any(Buffer<void> &b, const std::string &name) {
    if (b.type() == Float(32)) fill<float>(b, name);
    else if (b.type() == Int(32)) fill<int32_t>(b, name);
    else if (b.type() == Int(16)) fill<int16_t>(b, name);
    else fill<uint8_t>(b, name);
}

static double at(const Buffer<void> &b, const int *pos) {
    if (b.type() == Float(32)) return b.as<float>()(pos);
    if (b.type() == Int(32)) return b.as<int32_t>()(pos);
    if (b.type() == Int(16)) return b.as<int16_t>()(pos);
    return b.as<uint8_t>()(pos);
}

`

// reproMain is the rest of the repro's main: both pipelines get the same
// input buffers, the union of what their bounds queries ask for (the
// algorithm's boundary conditions read the inputs' bounds), widened by
// pad cells on each side of the output region in the output's
// dimensions.
const reproMain = `    bool wrong = false;
    for (int p : {0, 0x55, 0xff}) {
        poison = (unsigned char)p;
        // [0] the algorithm, realised first; [1] the scheduled pipeline.
        std::vector<ImageParam> inputs[2];
        Pipeline pipe[2];
        Buffer<void> out[2];
        for (int s = 0; s < 2; s++) {
            pipe[s] = build(s == 1, inputs[s]);
            pipe[s].jit_handlers().custom_malloc = poison_malloc;
            pipe[s].jit_handlers().custom_free = poison_free;
            out[s] = Buffer<void>(t, extents);
            out[s].set_min(mins);
            std::memset(out[s].data(), poison, out[s].size_in_bytes());
            std::vector<Buffer<void>> bufs{out[s]};
            Realization r(bufs);
            pipe[s].infer_input_bounds(r, get_host_target());
        }
        for (size_t i = 0; i < inputs[0].size(); i++) {
            Buffer<void> a = inputs[0][i].get(), b = inputs[1][i].get();
            if (!a.defined() || !b.defined()) {
                continue;
            }
            std::vector<int> lo, ext;
            for (int d = 0; d < a.dimensions(); d++) {
                int l = std::min(a.dim(d).min(), b.dim(d).min()), h = std::max(a.dim(d).max(), b.dim(d).max());
                if (pad > 0 && d < (int)mins.size()) {
                    l = std::min(l, mins[d] - pad);
                    h = std::max(h, mins[d] + extents[d] - 1 + pad);
                }
                lo.push_back(l);
                ext.push_back(h - l + 1);
            }
            Buffer<void> u(a.type(), ext);
            u.set_min(lo);
            fill_any(u, inputs[0][i].name());
            inputs[0][i].set(u);
            inputs[1][i].set(u);
        }
        if (p == 0) {
            pipe[1].compile_to_lowered_stmt("repro.stmt", pipe[1].infer_arguments(), Text, get_host_target());
        }
        for (int s = 0; s < 2; s++) {
            if (s == 1) {
                std::printf("poison 0x%02x: realizing the scheduled pipeline\n", p);
                std::fflush(stdout);
            }
            std::vector<Buffer<void>> bufs{out[s]};
            Realization r(bufs);
            pipe[s].realize(r, get_host_target());
        }
        int shown = 0;
        out[0].for_each_element([&](const int *pos) {
            double a = at(out[1], pos), b = at(out[0], pos);
            bool same = t.is_float() ? (std::isnan(a) && std::isnan(b)) || std::fabs(a - b) <= 1e-4 * std::max(1.0, std::max(std::fabs(a), std::fabs(b))) : a == b;
            if (!same && shown++ < 10) {
                std::printf("poison 0x%02x: cell (", p);
                for (int d = 0; d < out[0].dimensions(); d++) {
                    std::printf(d ? ", %d" : "%d", pos[d]);
                }
                std::printf("): scheduled %g, unscheduled %g\n", a, b);
            }
        });
        wrong = wrong || shown > 0;
    }
    std::printf(wrong ? "WRONG: the scheduled pipeline differs from its algorithm\n" : "the scheduled pipeline computes its algorithm\n");
    return wrong ? 1 : 0;
}
`
