# cmake -DIN=capi/js/fxkcc.js -DOUT=<build>/js/fxkcc.mjs -P fxkcc_esm.cmake
# The ES module entry of the npm package, made from the one implementation, fxkcc.js (CommonJS):
# its one require of the module becomes an import of the ES module build (fxkcc_wasm.mjs) and its
# one module.exports an export statement; nothing else changes. Fails when either line is not
# there exactly once or anything else CommonJS remains, so the two entries cannot drift apart.
file(READ "${IN}" _src)
set(_require "const createModule = require('./fxkcc_wasm.js');\n")
set(_exports "module.exports = { load, ONE, FxkccError, SETTINGS };\n")
foreach(_line _require _exports)
  string(FIND "${_src}" "${${_line}}" _at)
  string(FIND "${_src}" "${${_line}}" _last REVERSE)
  if(_at EQUAL -1 OR NOT _at EQUAL _last)
    message(FATAL_ERROR "${IN}: expected the line '${${_line}}' exactly once (capi/js/fxkcc_esm.cmake)")
  endif()
endforeach()
string(REPLACE "${_require}" "import createModule from './fxkcc_wasm.mjs';\n" _src "${_src}")
string(REPLACE "${_exports}" "export { load, ONE, FxkccError, SETTINGS };\n" _src "${_src}")
if(_src MATCHES "require\\(|module\\.exports|exports\\.")
  message(FATAL_ERROR "${IN}: CommonJS left besides the two lines capi/js/fxkcc_esm.cmake rewrites")
endif()
file(WRITE "${OUT}.tmp"
  "// Generated from capi/js/fxkcc.js by capi/js/fxkcc_esm.cmake: the ES module entry of the fxkcc\n"
  "// package (the same code; only the module's import and the exports differ).\n${_src}")
file(RENAME "${OUT}.tmp" "${OUT}")
