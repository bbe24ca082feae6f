# One concern, one folder, one target (docs/ARCHITECTURE.md, "Targets").
#
# A concern's target sees only its own headers, the public headers it
# declares, and what the targets it links show: no target has src/ or
# include/ on its include path. Each target gets an include root of its own
# in the build tree, holding symbolic links:
#   <root>/<prefix>            -> the concern's folder ("row" -> src/row), so
#                                 that "row/column_plan.hpp" resolves;
#   <root>/rowbridge/<header>  -> include/rowbridge/<header>, for each public
#                                 header the concern implements.
# The root is PUBLIC: a target above sees it through target_link_libraries,
# and a target below, which does not link it, cannot include from it, so an
# include that crosses a layer upward fails to compile. scripts/check_layers.py
# checks the same rule over the sources in make test, without a build.

# The function reads the build tree's root itself: it is called from folders
# (tests/support) outside the one that includes this file, where a variable
# set here is not defined.

# rowbridge_include_root(TARGET [FOLDER prefix=dir] [PUBLIC_HEADERS h...])
function(rowbridge_include_root target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "FOLDER;PUBLIC_HEADERS;GENERATED_HEADERS")
  set(root ${CMAKE_BINARY_DIR}/include_roots/${target})
  file(MAKE_DIRECTORY ${root}/rowbridge)
  foreach(entry ${arg_FOLDER})
    string(REPLACE "=" ";" pair ${entry})
    list(GET pair 0 prefix)
    list(GET pair 1 folder)
    get_filename_component(parent ${root}/${prefix} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    file(CREATE_LINK ${folder} ${root}/${prefix} SYMBOLIC)
  endforeach()
  foreach(header ${arg_PUBLIC_HEADERS})
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/include/rowbridge/${header})
      message(FATAL_ERROR "${target}: include/rowbridge/${header} does not exist")
    endif()
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/include/rowbridge/${header}
         ${root}/rowbridge/${header} SYMBOLIC)
  endforeach()
  foreach(header ${arg_GENERATED_HEADERS})
    file(CREATE_LINK ${CMAKE_BINARY_DIR}/generated/rowbridge/${header}
         ${root}/rowbridge/${header} SYMBOLIC)
  endforeach()
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_include_directories(${target} INTERFACE $<BUILD_INTERFACE:${root}>)
  else()
    target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${root}>)
  endif()
endfunction()

# rowbridge_concern(NAME SOURCES s... [PUBLIC_HEADERS h...] [LINKS t...])
# The static library rowbridge_NAME of src/NAME: position-independent, hidden
# visibility, the project's warnings, linking LINKS publicly (the concerns
# below it whose headers its own headers or sources include).
function(rowbridge_concern name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;PUBLIC_HEADERS;LINKS")
  set(target rowbridge_${name})
  add_library(${target} STATIC ${arg_SOURCES})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON
                        CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_link_libraries(${target} PUBLIC ${arg_LINKS} PRIVATE rowbridge_warnings)
  rowbridge_include_root(${target} FOLDER ${name}=${CMAKE_CURRENT_SOURCE_DIR}
                         PUBLIC_HEADERS ${arg_PUBLIC_HEADERS})
  # librowbridge.so carries every concern's objects.
  target_sources(rowbridge_shared PRIVATE $<TARGET_OBJECTS:${target}>)
endfunction()
