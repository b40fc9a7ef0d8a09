# cushim: lazy stubs for the CUDA libraries in CMake projects, in place of
# -lcuda, -lnvrtc, -lcublas, ...
#
#   include(path/to/cushim/cmake/cushim.cmake)
#   cushim_stubs(<target> DIR <dir> LIBRARIES <stem>... [INCLUDE <dir>...])
#
# <dir> holds what `cushim generate --lang cpp` writes: one pair per library
# (<stem>_shim.h and <stem>_shim.cpp, e.g. cuda, nvrtc, cublas) and the runtime
# they share (cushim_runtime.h, cushim_runtime.cpp). INCLUDE lists every
# directory the libraries' headers need (cuda.h, nvrtc.h, cublas_v2.h, ...).
# The runtime is compiled once for the whole project, however many targets
# and libraries use it; each target's pairs are compiled as C++17 objects and
# added to it, with -ldl and the thread library.
#
# A target without C++ sources stays a C program: its stubs and the runtime
# are compiled without exceptions and need nothing from the C++ library, so
# it links with the C compiler and never needs libstdc++ (checked with
# -Wl,--no-as-needed, where an unused library would still be recorded). The
# project must enable CXX (project(... C CXX)) to compile the stubs.
include_guard(GLOBAL)

# The runtime's object library, made once per project and per exception mode.
function(_cushim_runtime dir exceptions out)
    if(exceptions)
        set(name cushim_runtime)
    else()
        set(name cushim_runtime_noexcept)
    endif()
    if(NOT TARGET ${name})
        add_library(${name} OBJECT "${dir}/cushim_runtime.cpp")
        set_target_properties(${name} PROPERTIES
            CXX_STANDARD 17
            CXX_STANDARD_REQUIRED ON
            CXX_EXTENSIONS OFF
            POSITION_INDEPENDENT_CODE ON)
        target_include_directories(${name} PRIVATE "${dir}")
        if(NOT exceptions)
            target_compile_options(${name} PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-fno-exceptions>)
        endif()
        set_property(GLOBAL PROPERTY ${name}_DIR "${dir}")
    else()
        get_property(first GLOBAL PROPERTY ${name}_DIR)
        if(NOT first STREQUAL dir)
            message(FATAL_ERROR "cushim_stubs: one runtime per project; it was taken from ${first}, "
                                "not ${dir}: generate every pair into one directory")
        endif()
    endif()
    set(${out} ${name} PARENT_SCOPE)
endfunction()

function(cushim_stubs target)
    cmake_parse_arguments(CUSHIM "" "DIR" "LIBRARIES;INCLUDE" ${ARGN})
    if(NOT CUSHIM_DIR)
        message(FATAL_ERROR "cushim_stubs(${target}): DIR <dir with the generated pairs> is required")
    endif()
    if(NOT CUSHIM_LIBRARIES)
        message(FATAL_ERROR "cushim_stubs(${target}): LIBRARIES <stem>... is required (cuda, nvrtc, cublas, ...)")
    endif()
    foreach(file IN ITEMS cushim_runtime.cpp cushim_runtime.h)
        if(NOT EXISTS "${CUSHIM_DIR}/${file}")
            message(FATAL_ERROR "cushim_stubs(${target}): ${CUSHIM_DIR}/${file} not found; "
                                "generate it with `cushim generate --lang cpp --out ${CUSHIM_DIR}`")
        endif()
    endforeach()
    set(pairs)
    foreach(stem IN LISTS CUSHIM_LIBRARIES)
        if(NOT EXISTS "${CUSHIM_DIR}/${stem}_shim.cpp")
            message(FATAL_ERROR "cushim_stubs(${target}): ${CUSHIM_DIR}/${stem}_shim.cpp not found; "
                                "generate it with `cushim generate --lang cpp --lib ... --out ${CUSHIM_DIR}`")
        endif()
        list(APPEND pairs "${CUSHIM_DIR}/${stem}_shim.cpp")
    endforeach()
    get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(NOT "CXX" IN_LIST languages)
        message(FATAL_ERROR "cushim_stubs(${target}): enable CXX in project() to compile the stubs")
    endif()
    find_package(Threads REQUIRED)

    # A target without C++ sources links with the C compiler: without
    # exceptions, the objects need nothing from the C++ library.
    get_target_property(sources ${target} SOURCES)
    set(has_cxx OFF)
    foreach(source IN LISTS sources)
        if(source MATCHES "\\.(cpp|cc|cxx|C|c\\+\\+)$")
            set(has_cxx ON)
        endif()
    endforeach()
    _cushim_runtime("${CUSHIM_DIR}" ${has_cxx} runtime)

    set(stubs "${target}_cushim_stubs")
    add_library(${stubs} OBJECT ${pairs})
    set_target_properties(${stubs} PROPERTIES
        CXX_STANDARD 17
        CXX_STANDARD_REQUIRED ON
        CXX_EXTENSIONS OFF
        POSITION_INDEPENDENT_CODE ON)
    target_include_directories(${stubs} PRIVATE "${CUSHIM_DIR}" ${CUSHIM_INCLUDE})
    if(NOT has_cxx)
        target_compile_options(${stubs} PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-fno-exceptions>)
    endif()

    # Objects on the link line, not sources of the target: the target's link
    # language and the implicit libraries of its languages stay its own.
    add_dependencies(${target} ${stubs} ${runtime})
    target_link_libraries(${target} PRIVATE $<TARGET_OBJECTS:${stubs}> $<TARGET_OBJECTS:${runtime}>)
    target_include_directories(${target} PRIVATE "${CUSHIM_DIR}" ${CUSHIM_INCLUDE})
    target_link_libraries(${target} PRIVATE ${CMAKE_DL_LIBS} Threads::Threads)
endfunction()

# The driver alone, as before: cushim_cuda_stubs(<target> DIR <dir> [INCLUDE <dir>...]).
function(cushim_cuda_stubs target)
    cmake_parse_arguments(CUSHIM "" "DIR" "INCLUDE" ${ARGN})
    cushim_stubs(${target} DIR "${CUSHIM_DIR}" LIBRARIES cuda INCLUDE ${CUSHIM_INCLUDE})
endfunction()
