// Linked into every wasm32 executable (--pre-js, cmake/toolchains/wasm32-emscripten.cmake).
// Emscripten gives a program a synthetic environment; under node, pass the real one through so
// that getenv sees it (fxkcc bless refuses to run when CI is set). The JavaScript module, built
// without a file system, has no ENV and skips this.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  if (typeof process === 'object' && process.env && typeof ENV === 'object') {
    for (var k in process.env) ENV[k] = process.env[k];
  }
});
