#!/usr/bin/env python3
"""Build, lower and run the generators listed in suite.json.

For each pipeline (or the ones named on the command line) this
  1. compiles the generator with Halide's GenGen.cpp (once per source file),
  2. writes Halide's lowered statement (-e stmt) for the suite target with and
     without no_asserts (and, with --host, for target=host as well),
  3. compiles the pipeline ahead of time for the suite target, links it with
     run_check.cpp and runs every test size listed in the manifest,
  4. with --ir, saves the statement Halide prints under "Lowering after
     bounding small realizations:" (HL_DEBUG_CODEGEN=2) as NAME.bounded.stmt.

Everything is written under the build directory (default: a fresh temporary
directory); nothing is written next to the sources.

Environment: HALIDE_INCLUDE (default /usr/include/halide14), HALIDE_GENGEN
(default /usr/src/halide14/GenGen.cpp), HALIDE_LIB (default -lHalide14), CXX.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE = os.environ.get("HALIDE_INCLUDE", "/usr/include/halide14")
GENGEN = os.environ.get("HALIDE_GENGEN", "/usr/src/halide14/GenGen.cpp")
LIB = os.environ.get("HALIDE_LIB", "-lHalide14")
CXX = os.environ.get("CXX", "g++")


def sh(cmd, env=None, log=None):
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if log:
        with open(log, "w") as f:
            f.write(r.stdout)
    return r.returncode, r.stdout


def bounds_text(b):
    parts = []
    for d in b:
        parts.append("%d:%d" % (d[0], d[1]) if isinstance(d, list) else str(d))
    return "[" + ",".join(parts) + "]"


def target_of(suite, p, extra=()):
    feats = list(p.get("target_features", [])) + list(extra)
    return "-".join([suite["target"]] + feats)


def gen_params(params):
    return ["%s=%s" % (k, str(v).lower() if isinstance(v, bool) else v) for k, v in params.items()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--build", default=None)
    ap.add_argument("--host", action="store_true", help="also lower for target=host and host-no_asserts")
    ap.add_argument("--ir", action="store_true", help="save the statement before storage flattening")
    args = ap.parse_args()

    with open(os.path.join(HERE, "suite.json")) as f:
        suite = json.load(f)
    build = args.build or tempfile.mkdtemp(prefix="halide-suite-")
    os.makedirs(build, exist_ok=True)
    print("build directory:", build)

    gengen_o = os.path.join(build, "GenGen.o")
    if not os.path.exists(gengen_o):
        rc, out = sh([CXX, "-std=c++17", "-c", "-I" + INCLUDE, GENGEN, "-o", gengen_o])
        if rc:
            sys.exit("GenGen.cpp: " + out)
    runner_o = os.path.join(build, "run_check.o")
    if not os.path.exists(runner_o):
        rc, out = sh([CXX, "-std=c++17", "-O1", "-c", "-I" + INCLUDE, os.path.join(HERE, "run_check.cpp"), "-o", runner_o])
        if rc:
            sys.exit("run_check.cpp: " + out)

    failures = 0
    built = {}
    for p in suite["pipelines"]:
        if args.names and p["name"] not in args.names:
            continue
        src = p["file"]
        gen = os.path.join(build, os.path.splitext(src)[0] + ".gen")
        if src not in built:
            rc, out = sh([CXX, "-std=c++17", "-O1", "-fno-rtti", "-I" + INCLUDE, os.path.join(HERE, src),
                          gengen_o, "-o", gen, LIB, "-lpthread", "-ldl"])
            built[src] = rc == 0
            if rc:
                print("%-12s BUILD FAILED\n%s" % (p["name"], out))
        if not built[src]:
            failures += 1
            continue

        report = []
        base_params = dict(p.get("params", {}))
        targets = [target_of(suite, p, ["no_asserts"]), target_of(suite, p)]
        if args.host:
            feats = p.get("target_features", [])
            targets += ["-".join(["host", "no_asserts"] + feats), "-".join(["host"] + feats)]
        for t in targets:
            d = os.path.join(build, p["name"], "stmt", t)
            os.makedirs(d, exist_ok=True)
            rc, out = sh([gen, "-g", p["generator"], "-o", d, "-e", "stmt", "target=" + t] + gen_params(base_params),
                         log=os.path.join(d, "log"))
            report.append("stmt[%s]=%s" % (t, "ok" if rc == 0 else "FAIL"))
            failures += rc != 0
        if args.ir:
            d = os.path.join(build, p["name"], "ir")
            os.makedirs(d, exist_ok=True)
            env = dict(os.environ, HL_DEBUG_CODEGEN="2")
            rc, out = sh([gen, "-g", p["generator"], "-o", d, "-e", "stmt", "target=" + target_of(suite, p)]
                         + gen_params(base_params), env=env)
            start = out.find("Lowering after bounding small realizations:")
            end = out.find("Performing storage flattening", start)
            if rc == 0 and start >= 0:
                with open(os.path.join(d, p["generator"] + ".bounded.stmt"), "w") as f:
                    f.write(out[start:end])
                report.append("ir=ok")
            else:
                report.append("ir=FAIL")
                failures += 1

        for i, test in enumerate(p["tests"]):
            params = dict(base_params, **test.get("params", {}))
            d = os.path.join(build, p["name"], "run%d" % i)
            os.makedirs(d, exist_ok=True)
            rc, out = sh([gen, "-g", p["generator"], "-o", d, "-e", "static_library,h,registration",
                          "target=" + target_of(suite, p)] + gen_params(params), log=os.path.join(d, "log"))
            if rc == 0:
                rc, out = sh([CXX, "-I" + INCLUDE, "-I" + d, os.path.join(d, p["generator"] + ".registration.cpp"),
                              os.path.join(d, p["generator"] + ".a"), runner_o, "-o", os.path.join(d, "run"),
                              "-lpthread", "-ldl"])
            if rc == 0:
                cmd = [os.path.join(d, "run")]
                cmd += ["%s=%s" % (k, v) for k, v in test.get("scalars", {}).items()]
                cmd += ["%s=%s" % (k, bounds_text(v)) for k, v in test.get("inputs", {}).items()]
                cmd += ["%s=%s" % (k, bounds_text(v)) for k, v in test.get("outputs", {}).items()]
                rc, out = sh(cmd, log=os.path.join(d, "run.log"))
            report.append("run%d=%s" % (i, "ok" if rc == 0 else "FAIL: " + out.strip().splitlines()[-1] if out.strip() else "FAIL"))
            failures += rc != 0
        print("%-12s %s" % (p["name"], " ".join(report)))
    print("failures:", failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
