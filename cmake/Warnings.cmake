# One INTERFACE target carries the warning policy; every target of ours links it.
add_library(rankscope_warnings INTERFACE)
target_compile_options(rankscope_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wnon-virtual-dtor
  -Wold-style-cast -Wcast-align -Woverloaded-virtual -Wdouble-promotion
  -Wformat=2 -Wimplicit-fallthrough)
target_compile_definitions(rankscope_warnings INTERFACE
  QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_URL_CAST_FROM_STRING
  QT_NO_CAST_FROM_BYTEARRAY QT_USE_QSTRINGBUILDER QT_NO_FOREACH QT_NO_KEYWORDS
  QT_STRICT_ITERATORS)
if("$ENV{CI}" STREQUAL "true")
  target_compile_options(rankscope_warnings INTERFACE -Werror)
endif()
