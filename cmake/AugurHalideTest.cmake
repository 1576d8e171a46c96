# The test that augur_validate_halide_library (AugurHalide.cmake) adds:
#   cmake -DAUGUR=<augur> -DDIR=<dir> -P AugurHalideTest.cmake
# runs augur halide on the generator that DIR/augur-args.txt describes
# ("key=value" lines: generator, target, unknown, name, sarif_root,
# source_dir, source, include, define, link, param, arg (a flag of augur
# halide), validate_arg (a flag of the validation, augur halide's or augur
# submit's), exclude_*),
# writing into DIR, and
# validates the kernel: with augur halide --validate, or with augur
# submit when the environment variable AUGUR_SERVER is set. It fails
# (message(FATAL_ERROR), exit status 1) on INVALID, on an error, and on
# UNKNOWN when unknown=FAIL.

cmake_minimum_required(VERSION 3.18)

if (NOT AUGUR OR NOT EXISTS "${AUGUR}")
    message(FATAL_ERROR "augur: the augur command is not found (${AUGUR}); "
            "put it on the PATH or set AUGUR_EXECUTABLE when configuring")
endif ()
file(STRINGS "${DIR}/augur-args.txt" lines)
# What Halide's own targets contribute (exclude_sources,
# exclude_include_directories, exclude_compile_definitions) is dropped.
set(excluded "")
foreach (line IN LISTS lines)
    if (line MATCHES "^exclude_[a-z_]+=(.*)$")
        list(APPEND excluded "${CMAKE_MATCH_1}")
    endif ()
endforeach ()
set(seen "")
set(sources "")
set(flags "")
set(extra "")
set(source_dir "")
foreach (line IN LISTS lines)
    if (NOT line MATCHES "^([a-z_]+)=(.*)$")
        continue()
    endif ()
    set(key "${CMAKE_MATCH_1}")
    set(value "${CMAKE_MATCH_2}")
    if (value STREQUAL "" OR key MATCHES "^exclude_" OR value IN_LIST excluded)
        continue()
    endif ()
    if (key MATCHES "^(source|include|define)$")
        if ("${key}=${value}" IN_LIST seen)
            continue()
        endif ()
        list(APPEND seen "${key}=${value}")
    endif ()
    if (key STREQUAL "source")
        if (NOT IS_ABSOLUTE "${value}")
            set(value "${source_dir}/${value}")
        endif ()
        # Headers listed among a target's sources are included, not compiled.
        if (value MATCHES "\\.(cpp|cc|cxx|c\\+\\+|C)$")
            list(APPEND sources "${value}")
        endif ()
    elseif (key STREQUAL "include")
        list(APPEND flags -I "${value}")
    elseif (key STREQUAL "define")
        list(APPEND flags -D "${value}")
    elseif (key STREQUAL "link")
        list(APPEND flags --link "${value}")
    elseif (key STREQUAL "param")
        list(APPEND flags --param "${value}")
    elseif (key STREQUAL "arg")
        list(APPEND flags "${value}")
    elseif (key STREQUAL "validate_arg")
        list(APPEND extra "${value}")
    else ()
        set(${key} "${value}")
    endif ()
endforeach ()

set(report "${DIR}/report.txt")
set(sarif "${DIR}/augur.sarif")
file(REMOVE "${report}" "${sarif}" "${DIR}/augur.xml")
set(halide "${AUGUR}" halide ${sources} ${flags} -g "${generator}" --target "${target}" -o "${DIR}")

if (DEFINED ENV{AUGUR_SERVER} AND NOT "$ENV{AUGUR_SERVER}" STREQUAL "")
    message("augur.${name}: translating with augur halide, validating on $ENV{AUGUR_SERVER}")
    execute_process(COMMAND ${halide}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ECHO_OUTPUT_VARIABLE)
    if (NOT rc EQUAL 0)
        file(WRITE "${report}" "${out}")
        message(FATAL_ERROR "augur.${name}: ERROR: augur halide could not build or translate the generator (exit ${rc}), see above")
    endif ()
    execute_process(COMMAND "${AUGUR}" submit --sarif "${sarif}" --junit "${DIR}/augur.xml"
                            --label "halide_library=${name}" ${extra}
                            "${DIR}/spec.sare" "${DIR}/prog.sched"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ECHO_OUTPUT_VARIABLE)
else ()
    execute_process(COMMAND ${halide} --validate --sarif "${sarif}" --sarif-root "${sarif_root}" ${extra}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ECHO_OUTPUT_VARIABLE)
endif ()
file(WRITE "${report}" "${out}")

if (rc EQUAL 0)
    message("augur.${name}: VALID (report: ${report})")
elseif (rc EQUAL 1)
    message(FATAL_ERROR "augur.${name}: INVALID: Halide's kernel does not compute the generator's algorithm; "
            "the counterexample is above (report: ${report}, SARIF: ${sarif})")
elseif (rc EQUAL 2)
    if (unknown STREQUAL "FAIL")
        message(FATAL_ERROR "augur.${name}: UNKNOWN, which fails this test (UNKNOWN FAIL or AUGUR_UNKNOWN_FAILS; report: ${report})")
    endif ()
    message(WARNING "augur.${name}: UNKNOWN, which passes this test (UNKNOWN PASS; report: ${report})")
else ()
    message(FATAL_ERROR "augur.${name}: ERROR (exit ${rc}): the generator did not build or translate, or the service refused it; see above")
endif ()
