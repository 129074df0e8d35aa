// The example page's script (examples/web/index.html): the fxkcc package loaded as an ES module
// ('fxkcc' is mapped to the package's fxkcc.mjs by the page's import map; a bundler resolves it
// from node_modules through the package's "exports"), a world stepped, its checksums shown.
import { load } from 'fxkcc';
import { stopTime62 } from './world.mjs';

const $ = (id) => document.getElementById(id);
try {
  const lib = await load();
  const start = performance.now();
  const checksums = stopTime62(lib);
  const ms = performance.now() - start;
  $('version').textContent = `library ${lib.version >> 16}.${(lib.version >> 8) & 255}.${lib.version & 255}, behaviour ${lib.behaviourVersion}`;
  $('ticks').textContent = checksums.map((c, t) => `${t} ${c}`).join('\n');
  $('checksum').textContent = checksums[checksums.length - 1];
  $('status').textContent = `${checksums.length} ticks in ${ms.toFixed(1)} ms`;
  document.body.dataset.state = 'done';
} catch (e) {
  $('status').textContent = `failed: ${e && e.stack ? e.stack : e}`;
  document.body.dataset.state = 'error';
}
