# cmake -DIN=capi/js/fxkcc.js -DOUT=<build>/js/fxkcc.mjs -P fxkcc_esm.cmake
# The ES module entry of the npm package, made from the one implementation, fxkcc.js (CommonJS):
# its one require of the module becomes an import of the ES module build (fxkcc_wasm.mjs), and
# its one `module.exports = { names };` the statement `export { names };`; nothing else changes.
# Fails when either is not there exactly once or anything else CommonJS remains, so the two
# entries cannot drift apart.
file(READ "${IN}" _src)
set(_require "const createModule = require('./fxkcc_wasm.js');\n")
string(FIND "${_src}" "${_require}" _at)
string(FIND "${_src}" "${_require}" _last REVERSE)
if(_at EQUAL -1 OR NOT _at EQUAL _last)
  message(FATAL_ERROR "${IN}: expected the line '${_require}' exactly once (capi/js/fxkcc_esm.cmake)")
endif()
string(REPLACE "${_require}" "import createModule from './fxkcc_wasm.mjs';\n" _src "${_src}")
set(_exports "\nmodule\\.exports = (\\{[A-Za-z0-9_, ]*\\});\n")
string(REGEX MATCHALL "module\\.exports" _found "${_src}") # (a match holding ';' would be two list items)
list(LENGTH _found _n)
if(NOT _n EQUAL 1 OR NOT _src MATCHES "${_exports}")
  message(FATAL_ERROR "${IN}: expected one line 'module.exports = { name, ... };' (capi/js/fxkcc_esm.cmake), found ${_n} module.exports")
endif()
string(REGEX REPLACE "${_exports}" "\nexport \\1;\n" _src "${_src}")
if(_src MATCHES "require\\(|module\\.exports|exports\\.")
  message(FATAL_ERROR "${IN}: CommonJS left besides the two lines capi/js/fxkcc_esm.cmake rewrites")
endif()
file(WRITE "${OUT}.tmp"
  "// Generated from capi/js/fxkcc.js by capi/js/fxkcc_esm.cmake: the ES module entry of the fxkcc\n"
  "// package (the same code; only the module's import and the exports differ).\n${_src}")
file(RENAME "${OUT}.tmp" "${OUT}")
