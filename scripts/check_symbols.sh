#!/usr/bin/env bash
# Fails when a shared library exports a symbol outside rowbridge's public
# API: the C functions rowbridge_* and the C++ API in namespace rowbridge.
# Anything else (std:: template instantiations, helpers from other
# namespaces, operator new) leaking into the dynamic symbol table is a
# packaging bug.
#
#   scripts/check_symbols.sh LIBRARY
set -euo pipefail

library=$1
exported=$(nm -D --defined-only "$library" | awk 'NF >= 3 { print $3 }' | sort -u)
if [[ -z "$exported" ]]; then
  echo "check_symbols: $library exports nothing" >&2
  exit 1
fi

c_count=0
cxx_count=0
unexpected=()
while IFS= read -r symbol; do
  if [[ "$symbol" == rowbridge_* ]]; then
    c_count=$((c_count + 1))
    continue
  fi
  demangled=$(c++filt "$symbol")
  # A C++ symbol of namespace rowbridge: a function, or the typeinfo, vtable or
  # thunk of a class; a function template's name may follow its return type.
  if [[ "$symbol" == _Z* ]] &&
     [[ "$demangled" =~ ^((typeinfo|typeinfo\ name|vtable|VTT|construction\ vtable|guard\ variable|non-virtual\ thunk|virtual\ thunk)\ (for|to)\ )?([^\ \(]+\ )?rowbridge:: ]]; then
    cxx_count=$((cxx_count + 1))
    continue
  fi
  unexpected+=("$symbol  ($demangled)")
done <<<"$exported"

if [[ ${#unexpected[@]} -gt 0 ]]; then
  echo "check_symbols: $library exports ${#unexpected[@]} symbol(s) outside the rowbridge API:" >&2
  printf '  %s\n' "${unexpected[@]}" >&2
  exit 1
fi
if [[ $c_count -eq 0 ]]; then
  echo "check_symbols: $library exports no rowbridge_* C function" >&2
  exit 1
fi
echo "check_symbols: $library exports $c_count C and $cxx_count C++ symbols, all of the rowbridge API"
