# SPDX-License-Identifier: MIT
# rankscope_stage(NAME [USES stage...] [LIBS target...]): one folder of core/ or views/ as a static
# library. Its own folder is its PUBLIC include directory, so a header is visible only to the stages
# that link it: USES names the stages it may use (public, since its headers include theirs), LIBS the
# third-party libraries it uses privately.
function(rankscope_stage name)
  cmake_parse_arguments(ARG "" "" "USES;LIBS;PUBLIC_LIBS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp ${CMAKE_CURRENT_SOURCE_DIR}/*.h)
  add_library(rankscope_${name} STATIC ${sources})
  target_include_directories(rankscope_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  list(TRANSFORM ARG_USES PREPEND rankscope_)
  target_link_libraries(rankscope_${name} PUBLIC ${ARG_USES} ${ARG_PUBLIC_LIBS} PRIVATE ${ARG_LIBS} rankscope_warnings)
  # Listed so that a build-wide option (the fuzz build's coverage instrumentation) reaches every stage.
  set_property(GLOBAL APPEND PROPERTY RANKSCOPE_CORE_STAGES rankscope_${name})
endfunction()

# rankscope_view_area(NAME [USES target...]): one folder of views/ as the static library
# rankscope_view_NAME, with Qt Widgets. USES names full target names (views areas and core stages).
function(rankscope_view_area name)
  cmake_parse_arguments(ARG "" "" "USES" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp ${CMAKE_CURRENT_SOURCE_DIR}/*.h)
  add_library(rankscope_view_${name} STATIC ${sources})
  target_include_directories(rankscope_view_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(rankscope_view_${name} PUBLIC ${ARG_USES} Qt6::Widgets Qt6::Svg Qt6::Concurrent
    PRIVATE rankscope_warnings)
endfunction()
