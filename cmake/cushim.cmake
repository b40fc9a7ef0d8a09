# cushim: lazy CUDA driver stubs for CMake projects, in place of -lcuda.
#
#   include(path/to/cushim/cmake/cushim.cmake)
#   cushim_cuda_stubs(<target> DIR <dir> [INCLUDE <cuda include dir>])
#
# <dir> holds the pair that `cushim generate --lang cpp` writes (cuda_shim.h
# and cuda_shim.cpp). The stubs are compiled once per target as C++17 objects
# and added to <target>, with the include directories and -ldl/-pthread they
# need. They use nothing from the C++ library, so a C target stays a C
# program: it links with the C compiler and without libstdc++. The project
# must enable CXX (project(... C CXX)) to compile them.
include_guard(GLOBAL)

function(cushim_cuda_stubs target)
    cmake_parse_arguments(CUSHIM "" "DIR;INCLUDE" "" ${ARGN})
    if(NOT CUSHIM_DIR)
        message(FATAL_ERROR "cushim_cuda_stubs(${target}): DIR <dir with cuda_shim.cpp> is required")
    endif()
    if(NOT EXISTS "${CUSHIM_DIR}/cuda_shim.cpp")
        message(FATAL_ERROR "cushim_cuda_stubs(${target}): ${CUSHIM_DIR}/cuda_shim.cpp not found; "
                            "generate it with `cushim generate --lang cpp --out ${CUSHIM_DIR}`")
    endif()
    get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(NOT "CXX" IN_LIST languages)
        message(FATAL_ERROR "cushim_cuda_stubs(${target}): enable CXX in project() to compile the stubs")
    endif()
    find_package(Threads REQUIRED)

    set(stubs "${target}_cushim_cuda_stubs")
    add_library(${stubs} OBJECT "${CUSHIM_DIR}/cuda_shim.cpp")
    set_target_properties(${stubs} PROPERTIES
        CXX_STANDARD 17
        CXX_STANDARD_REQUIRED ON
        CXX_EXTENSIONS OFF
        POSITION_INDEPENDENT_CODE ON)
    target_include_directories(${stubs} PRIVATE "${CUSHIM_DIR}" ${CUSHIM_INCLUDE})
    # A target without C++ sources links with the C compiler: without
    # exceptions, the stub object needs nothing from the C++ library.
    get_target_property(sources ${target} SOURCES)
    set(has_cxx OFF)
    foreach(source IN LISTS sources)
        if(source MATCHES "\\.(cpp|cc|cxx|C|c\\+\\+)$")
            set(has_cxx ON)
        endif()
    endforeach()
    if(NOT has_cxx)
        target_compile_options(${stubs} PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-fno-exceptions>)
    endif()

    # Objects, not a library: the target's own link language stays as it is.
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:${stubs}>)
    target_include_directories(${target} PRIVATE "${CUSHIM_DIR}" ${CUSHIM_INCLUDE})
    target_link_libraries(${target} PRIVATE ${CMAKE_DL_LIBS} Threads::Threads)
endfunction()
