# AugurHalide: validate the Halide libraries of a CMake project with Augur.
#
#   list(APPEND CMAKE_MODULE_PATH <augur>/cmake)
#   find_package(Halide REQUIRED)
#   include(AugurHalide)          # after find_package(Halide), before add_halide_library
#   enable_testing()
#   add_halide_generator(filters.generator SOURCES blur.cpp sharpen.cpp)
#   add_halide_library(blur FROM filters.generator PARAMS tile=8)
#   augur_validate_halide_library(blur)
#
# augur_validate_halide_library(<target> [UNKNOWN PASS|FAIL]
#     [VALUE_MODEL real|ieee] [SOLVER_TIMEOUT <duration>] [ARGS <augur halide flag>...]
#     [FROM <generator target>] [GENERATOR <name>] [PARAMS <k=v>...] [TARGETS <target>...])
#
# adds the CTest test augur.<target> (label "augur"), or, for a library of
# several TARGETS, one test per target, augur.<target>.<halide target>
# (augur.blur.x86-64-linux-avx2). Each runs `augur halide` on the
# generator that <target> is built from, with the generator's sources,
# include directories, compile definitions and link libraries as CMake
# knows them, and the GENERATOR, PARAMS, FEATURES and its one of the
# TARGETS given to add_halide_library ("host" by default), then validates
# the kernel Halide compiles for that target against the generator's
# algorithm:
#
# - locally, `augur halide ... --validate`;
# - on a service when the environment variable AUGUR_SERVER is set when
#   the test runs: `augur halide` writes the pair, `augur submit` validates
#   it there (AUGUR_TOKEN is its token).
#
# The test fails on INVALID (the counterexample is in its output) and on
# any error (a generator that does not build, a construct Augur cannot
# translate); UNKNOWN passes with a warning, or fails with UNKNOWN FAIL
# or the cache option AUGUR_UNKNOWN_FAILS. It writes into
# ${CMAKE_CURRENT_BINARY_DIR}/augur/<target>/ (augur/<target>/<halide
# target>/ for one of several targets): spec.sare, prog.sched,
# report.txt (what augur printed), augur.sarif (SARIF 2.1.0) and, on a
# service, augur.xml (JUnit).
#
# add_halide_library does not record its arguments: this module wraps it
# to keep them on the target (properties AUGUR_HALIDE_FROM,
# AUGUR_HALIDE_GENERATOR, AUGUR_HALIDE_PARAMS, AUGUR_HALIDE_TARGETS,
# AUGUR_HALIDE_FEATURES), so it must be included after find_package(Halide)
# and before the libraries are added; or give FROM (and GENERATOR, PARAMS,
# TARGETS as add_halide_library got them) explicitly.
#
# Cache variables: AUGUR_EXECUTABLE (the augur program, looked for on the
# PATH), AUGUR_UNKNOWN_FAILS (OFF).

include_guard(GLOBAL)
if (CMAKE_VERSION VERSION_LESS 3.18)
    message(FATAL_ERROR "AugurHalide needs CMake 3.18 or later")
endif ()

find_program(AUGUR_EXECUTABLE augur DOC "The augur command")
option(AUGUR_UNKNOWN_FAILS "An UNKNOWN verdict fails the augur.* tests" OFF)
set_property(GLOBAL PROPERTY AUGUR_HALIDE_TEST_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/AugurHalideTest.cmake")

if (NOT COMMAND add_halide_library)
    message(FATAL_ERROR "AugurHalide: include it after find_package(Halide), which defines add_halide_library")
endif ()

# The wrapper: add_halide_library as Halide defines it (CMake keeps the
# previous definition of a redefined command as _add_halide_library), then
# its arguments recorded on the target.
function(add_halide_library TARGET)
    _add_halide_library(${TARGET} ${ARGN})
    set(outputs ASSEMBLY BITCODE COMPILER_LOG FEATURIZATION LLVM_ASSEMBLY PYTHON_EXTENSION
        PYTORCH_WRAPPER REGISTRATION SCHEDULE STMT STMT_HTML HEADER)
    cmake_parse_arguments(ARG "C_BACKEND;GRADIENT_DESCENT"
                          "FROM;GENERATOR;FUNCTION_NAME;NAMESPACE;USE_RUNTIME;AUTOSCHEDULER;${outputs}"
                          "TARGETS;FEATURES;PARAMS;PLUGINS" ${ARGN})
    # Halide's function sets these variables in its caller's scope: pass
    # them on to ours.
    foreach (out IN LISTS outputs)
        if (ARG_${out})
            set(${ARG_${out}} "${${ARG_${out}}}" PARENT_SCOPE)
        endif ()
    endforeach ()
    if (NOT ARG_GENERATOR)
        set(ARG_GENERATOR "${TARGET}")
    endif ()
    set_target_properties("${TARGET}" PROPERTIES
                          AUGUR_HALIDE_FROM "${ARG_FROM}"
                          AUGUR_HALIDE_GENERATOR "${ARG_GENERATOR}"
                          AUGUR_HALIDE_PARAMS "${ARG_PARAMS}"
                          AUGUR_HALIDE_TARGETS "${ARG_TARGETS}"
                          AUGUR_HALIDE_FEATURES "${ARG_FEATURES}")
endfunction()

# _augur_link_args sets out to the link arguments of the generator target
# gen: its LINK_LIBRARIES but Halide's own (Halide::Generator brings a
# main of its own; augur links libHalide itself), libraries built here as
# their files.
function(_augur_link_args gen out)
    get_target_property(libs "${gen}" LINK_LIBRARIES)
    set(args "")
    foreach (lib IN LISTS libs)
        if (NOT lib OR lib MATCHES "^Halide::" OR lib MATCHES "^\\$<")
            continue()
        endif ()
        if (TARGET "${lib}")
            get_target_property(type "${lib}" TYPE)
            if (type STREQUAL "STATIC_LIBRARY" OR type STREQUAL "SHARED_LIBRARY")
                list(APPEND args "$<TARGET_FILE:${lib}>")
            endif ()
        else ()
            list(APPEND args "${lib}")
        endif ()
    endforeach ()
    set(${out} "${args}" PARENT_SCOPE)
endfunction()

function(augur_validate_halide_library TARGET)
    cmake_parse_arguments(ARG "" "UNKNOWN;VALUE_MODEL;SOLVER_TIMEOUT;FROM;GENERATOR"
                          "ARGS;PARAMS;TARGETS" ${ARGN})
    if (NOT TARGET "${TARGET}")
        message(FATAL_ERROR "augur_validate_halide_library: no target ${TARGET}")
    endif ()
    foreach (field FROM GENERATOR PARAMS TARGETS FEATURES)
        if (NOT DEFINED ARG_${field})
            get_target_property(ARG_${field} "${TARGET}" AUGUR_HALIDE_${field})
            if (ARG_${field} STREQUAL "ARG_${field}-NOTFOUND")
                set(ARG_${field} "")
            endif ()
        endif ()
    endforeach ()
    if (NOT ARG_FROM)
        message(FATAL_ERROR "augur_validate_halide_library(${TARGET}): its generator is unknown: "
                "include(AugurHalide) after find_package(Halide) and before add_halide_library(${TARGET} ...), "
                "or give FROM <generator target>")
    endif ()
    if (NOT TARGET "${ARG_FROM}")
        message(FATAL_ERROR "augur_validate_halide_library(${TARGET}): no generator target ${ARG_FROM}")
    endif ()
    if (NOT ARG_GENERATOR)
        set(ARG_GENERATOR "${TARGET}")
    endif ()
    # Every target add_halide_library compiles (a multitarget library
    # holds one variant per target); the default as add_halide_library's.
    if (ARG_TARGETS)
        set(targets ${ARG_TARGETS})
    else ()
        set(targets "${Halide_TARGET}")
        if (NOT targets)
            set(targets host)
        endif ()
    endif ()
    list(LENGTH targets ntargets)
    if (NOT ARG_UNKNOWN)
        if (AUGUR_UNKNOWN_FAILS)
            set(ARG_UNKNOWN FAIL)
        else ()
            set(ARG_UNKNOWN PASS)
        endif ()
    endif ()
    if (NOT ARG_UNKNOWN MATCHES "^(PASS|FAIL)$")
        message(FATAL_ERROR "augur_validate_halide_library(${TARGET}): UNKNOWN is PASS or FAIL, not ${ARG_UNKNOWN}")
    endif ()

    # What augur halide is given, one "key=value" a line, written when the
    # build system is generated so that generator expressions and usage
    # requirements are resolved as the generator's own compilation sees
    # them.
    _augur_link_args("${ARG_FROM}" links)
    set(args "generator=${ARG_GENERATOR}\nunknown=${ARG_UNKNOWN}\nsarif_root=${CMAKE_SOURCE_DIR}\n")
    string(APPEND args "source_dir=$<TARGET_PROPERTY:${ARG_FROM},SOURCE_DIR>\n")
    string(APPEND args "$<$<BOOL:$<TARGET_PROPERTY:${ARG_FROM},SOURCES>>:source=$<JOIN:$<TARGET_PROPERTY:${ARG_FROM},SOURCES>,\nsource=>\n>")
    string(APPEND args "$<$<BOOL:$<TARGET_PROPERTY:${ARG_FROM},INCLUDE_DIRECTORIES>>:include=$<JOIN:$<TARGET_PROPERTY:${ARG_FROM},INCLUDE_DIRECTORIES>,\ninclude=>\n>")
    string(APPEND args "$<$<BOOL:$<TARGET_PROPERTY:${ARG_FROM},COMPILE_DEFINITIONS>>:define=$<JOIN:$<TARGET_PROPERTY:${ARG_FROM},COMPILE_DEFINITIONS>,\ndefine=>\n>")
    foreach (l IN LISTS links)
        string(APPEND args "link=${l}\n")
    endforeach ()
    # What Halide's own targets bring to the generator (GenGen.cpp, the
    # generator program's main; Halide's include directory and
    # definitions) is left out: augur compiles against Halide itself.
    foreach (halide Halide::Generator Halide::Halide Halide::LanguageOptions)
        if (NOT TARGET ${halide})
            continue()
        endif ()
        foreach (kind SOURCES INCLUDE_DIRECTORIES COMPILE_DEFINITIONS)
            get_target_property(values ${halide} INTERFACE_${kind})
            foreach (v IN LISTS values)
                if (v AND NOT v MATCHES "NOTFOUND$")
                    string(TOLOWER "exclude_${kind}" key)
                    string(APPEND args "${key}=${v}\n")
                endif ()
            endforeach ()
        endforeach ()
    endforeach ()
    foreach (p IN LISTS ARG_PARAMS)
        string(APPEND args "param=${p}\n")
    endforeach ()
    if (ARG_VALUE_MODEL)
        string(APPEND args "validate_arg=--value-model\nvalidate_arg=${ARG_VALUE_MODEL}\n")
    endif ()
    if (ARG_SOLVER_TIMEOUT)
        string(APPEND args "validate_arg=--timeout\nvalidate_arg=${ARG_SOLVER_TIMEOUT}\n")
    endif ()
    foreach (a IN LISTS ARG_ARGS)
        string(APPEND args "arg=${a}\n")
    endforeach ()
    # One test per target: augur.<library> for a library of one target,
    # augur.<library>.<target> (the target as TARGETS names it) for each of
    # several, each in a directory of its own.
    get_property(script GLOBAL PROPERTY AUGUR_HALIDE_TEST_SCRIPT)
    foreach (t IN LISTS targets)
        set(target "${t}")
        if (target STREQUAL "cmake")
            set(target "${Halide_CMAKE_TARGET}")
        endif ()
        foreach (feature IN LISTS ARG_FEATURES)
            string(APPEND target "-${feature}")
        endforeach ()
        if (ntargets EQUAL 1)
            set(name "${TARGET}")
            set(dir "${CMAKE_CURRENT_BINARY_DIR}/augur/${TARGET}")
        else ()
            set(name "${TARGET}.${t}")
            set(dir "${CMAKE_CURRENT_BINARY_DIR}/augur/${TARGET}/${t}")
        endif ()
        file(GENERATE OUTPUT "${dir}/augur-args.txt" CONTENT "name=${name}\ntarget=${target}\n${args}")
        add_test(NAME "augur.${name}"
                 COMMAND "${CMAKE_COMMAND}" "-DAUGUR=${AUGUR_EXECUTABLE}" "-DDIR=${dir}" -P "${script}")
        set_tests_properties("augur.${name}" PROPERTIES LABELS augur)
    endforeach ()
endfunction()
