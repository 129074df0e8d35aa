// js.pack_test: the wasm32 build's js/ folder is an npm package. `npm pack` makes the tarball
// (the files package.json lists, the project's version); a temporary project that depends on it
// installs it (npm install, offline) and uses it: `import { load } from 'fxkcc'` in an ES module
// (the "import" condition: fxkcc.mjs), `require('fxkcc')` in CommonJS (the "require" condition:
// fxkcc.js; under a bundler's "browser" condition, fxkcc.mjs), and TypeScript (tsc --strict,
// node16 resolution, both conditions' declarations). Both routes step examples/web/world.mjs
// (stop-time-62 from its own numbers): every tick's checksum the same, and the golden's world hash.
// Usage: node pack_test.js JS_DIR VERSION EXAMPLE_DIR GOLDEN.hashes
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const assert = require('assert');
const { spawnSync } = require('child_process');
const { pathToFileURL } = require('url');
const { npm, pack } = require('./pack.js');

const [jsDir, version, exampleDir, golden] = process.argv.slice(2);
if (!golden) {
  console.error('usage: node pack_test.js JS_DIR VERSION EXAMPLE_DIR GOLDEN.hashes');
  process.exit(2);
}
const worldUrl = pathToFileURL(path.resolve(exampleDir, 'world.mjs')).href;
const goldenSums = fs.readFileSync(golden, 'utf8').split('\n').map((l) => /^(\d+) ([0-9a-f]{16})/.exec(l))
  .filter(Boolean).map((m) => m[2]);

function node(args, cwd) {
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  assert.strictEqual(r.status, 0, `node ${args.join(' ')}:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fxkcc-pack-'));
try {
  // The tarball: what package.json lists, nothing of the build's other files.
  const { tarball, info } = pack(jsDir, tmp);
  assert.strictEqual(info.name, 'fxkcc');
  assert.strictEqual(info.version, version, 'the package has the project\'s version');
  const files = info.files.map((f) => f.path).sort();
  assert.deepStrictEqual(files, ['fxkcc.d.mts', 'fxkcc.d.ts', 'fxkcc.js', 'fxkcc.mjs', 'fxkcc_wasm.js',
    'fxkcc_wasm.mjs', 'package.json']);
  console.log(`pack_test: ${path.basename(tarball)}, ${files.length} files, ${(info.size / 1024).toFixed(0)} KiB packed`);

  // A project that depends on the tarball, as a game would depend on the published package.
  const app = path.join(tmp, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({
    name: 'fxkcc-pack-test', version: '1.0.0', private: true,
    dependencies: { fxkcc: `file:${tarball}` },
  }, null, 2));
  npm(['install', '--ignore-scripts'], app);
  const installed = JSON.parse(fs.readFileSync(path.join(app, 'node_modules/fxkcc/package.json'), 'utf8'));
  assert.strictEqual(installed.version, version);

  fs.writeFileSync(path.join(app, 'esm.mjs'), `
import { load, ONE, FxkccError, SETTINGS } from 'fxkcc';
import { stopTime62 } from ${JSON.stringify(worldUrl)};
if (ONE !== 1n << 32n || typeof FxkccError !== 'function' || SETTINGS.length !== 23) throw new Error('exports');
const lib = await load();
console.log(JSON.stringify({ entry: import.meta.resolve ? import.meta.resolve('fxkcc') : '', sums: stopTime62(lib) }));
`);
  fs.writeFileSync(path.join(app, 'cjs.cjs'), `
const { load } = require('fxkcc');
import(${JSON.stringify(worldUrl)}).then(async ({ stopTime62 }) => {
  const lib = await load();
  console.log(JSON.stringify({ entry: require.resolve('fxkcc'), sums: stopTime62(lib) }));
}).catch((e) => { console.error(e); process.exit(1); });
`);
  const esm = JSON.parse(node(['esm.mjs'], app));
  const cjs = JSON.parse(node(['cjs.cjs'], app));
  if (esm.entry) assert.ok(esm.entry.endsWith('/node_modules/fxkcc/fxkcc.mjs'), `import resolved ${esm.entry}`);
  assert.ok(cjs.entry.endsWith(path.join('node_modules', 'fxkcc', 'fxkcc.js')), `require resolved ${cjs.entry}`);
  assert.strictEqual(esm.sums.length, 70);
  assert.deepStrictEqual(esm.sums, cjs.sums, 'import and require computed other checksums');
  assert.deepStrictEqual(esm.sums, goldenSums, `the checksums are not the golden's (${golden})`);
  console.log(`pack_test: import { load } from 'fxkcc' (fxkcc.mjs) and require('fxkcc') (fxkcc.js): ` +
    `70 ticks, every checksum the golden's; the last ${esm.sums[69]}`);

  // A bundler building for a browser resolves with the "browser" condition: require('fxkcc') then
  // gets the ES module too, whose module build has no node code (fxkcc_wasm.js requires fs and
  // path in its node branch, which a browser bundle cannot resolve).
  const browserRequire = node(['--conditions=browser', '-e', "console.log(require.resolve('fxkcc'))"], app).trim();
  assert.ok(browserRequire.endsWith(path.join('node_modules', 'fxkcc', 'fxkcc.mjs')), `browser require resolved ${browserRequire}`);
  const wasmMjs = fs.readFileSync(path.join(app, 'node_modules/fxkcc/fxkcc_wasm.mjs'), 'utf8');
  assert.ok(!/\brequire\(|__dirname/.test(wasmMjs), 'fxkcc_wasm.mjs has node code (require, __dirname)');
  console.log('pack_test: the "browser" condition: require(\'fxkcc\') resolves to fxkcc.mjs, whose module has no node code');

  // The declarations through the package's "exports": an ES module and a CommonJS file.
  fs.writeFileSync(path.join(app, 'typed.mts'), `
import { load, ONE, type Fixed, type World } from 'fxkcc';
const lib = await load();
const w: World = lib.createWorld();
const x: Fixed = ONE;
w.addPlane(1, [0n, x, 0n], 0n);
const sum: bigint = w.checksum();
`);
  fs.writeFileSync(path.join(app, 'typed.cts'), `
import fxkcc = require('fxkcc');
fxkcc.load().then((lib: fxkcc.Fxkcc) => { const one: bigint = lib.ONE; return one; });
`);
  const tsc = spawnSync('tsc', ['--strict', '--noEmit', '--module', 'node16', '--moduleResolution', 'node16',
    '--target', 'es2022', '--lib', 'es2022,dom', 'typed.mts', 'typed.cts'], { cwd: app, encoding: 'utf8' });
  if (tsc.error) throw new Error(`tsc: ${tsc.error.message} (apt-get install node-typescript)`);
  assert.strictEqual(tsc.status, 0, `tsc on the installed package:\n${tsc.stdout}${tsc.stderr}`);
  console.log('pack_test: the declarations through "exports" (fxkcc.d.mts for import, fxkcc.d.ts for require): tsc --strict');
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
