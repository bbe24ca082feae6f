# Fails when a per-ISA object defines a global or weak symbol other than its
# entry points (rowbridge::row::*Avx512, *Avx2; rowbridge::decoder::*Avx512): such a symbol, an inline function
# or template emitted there with the ISA's instructions, could be picked by
# the linker for the whole library and crash CPUs without that ISA.
#   cmake -DOBJECTS="a.o;b.o" -P check_isa_symbols.cmake
set(checked 0)
foreach(object IN LISTS OBJECTS)
  if(NOT object MATCHES "_avx(512|2)\\.cpp\\.o(bj)?$")
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  execute_process(COMMAND nm -C --defined-only ${object} OUTPUT_VARIABLE symbols
                  RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "nm failed on ${object}")
  endif()
  string(REPLACE "\n" ";" lines "${symbols}")
  foreach(line IN LISTS lines)
    if(line STREQUAL "" OR line MATCHES "^[0-9a-f]* [a-z] " OR line MATCHES " DW\\.ref\\.")
      continue()
    endif()
    if(NOT line MATCHES " T rowbridge::(row|decoder)::[A-Za-z0-9]+Avx(512|2)\\(")
      message(FATAL_ERROR "${object} defines a shared symbol: ${line}")
    endif()
  endforeach()
endforeach()
if(checked EQUAL 0)
  message(FATAL_ERROR "no per-ISA object among OBJECTS")
endif()
message(STATUS "${checked} per-ISA object(s): only their entry points are global")
