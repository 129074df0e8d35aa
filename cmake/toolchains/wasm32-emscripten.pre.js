// Linked into every wasm32 executable (--pre-js, cmake/toolchains/wasm32-emscripten.cmake).
// Emscripten gives a program a synthetic environment; under node, pass the real one through so
// that getenv sees it (fxkcc bless refuses to run when CI is set).
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  if (typeof process === 'object' && process.env) {
    for (var k in process.env) ENV[k] = process.env[k];
  }
});
