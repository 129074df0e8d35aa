// js.browser_test: the example page (examples/web/) in headless chromium, loading the npm package
// as an ES module: the tarball `npm pack` makes from the wasm32 build's js/ folder, extracted beside
// the page as fxkcc/, served on 127.0.0.1 by examples/web/serve.mjs (module scripts are not loaded
// from file://). The page steps stop-time-62 and writes its checksums into the DOM; they must be
// what node computes through the same package's CommonJS entry, and the golden's world hashes.
// Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe): no npm
// dependency. The browser is $FXKCC_BROWSER or chromium (scripts/setup.sh installs it) under one
// of its names; without one the test is skipped (exit 77). FXKCC_BROWSER=none skips it too.
// Usage: node browser_test.js JS_DIR EXAMPLE_DIR GOLDEN.hashes
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const assert = require('assert');
const { spawn, spawnSync } = require('child_process');
const { pathToFileURL } = require('url');
const { pack } = require('./pack.js');

const [jsDir, exampleDir, golden] = process.argv.slice(2);
const TIMEOUT_MS = 60000; // the page takes about 1.5 s from chromium's launch

function findBrowser() {
  const wanted = process.env.FXKCC_BROWSER;
  if (wanted === 'none') return null;
  for (const name of [wanted, 'chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
    if (!name) continue;
    if (name.includes('/')) { if (fs.existsSync(name)) return name; continue; }
    for (const dir of (process.env.PATH || '').split(path.delimiter)) {
      const p = path.join(dir, name);
      try { fs.accessSync(p, fs.constants.X_OK); return p; } catch { /* next */ }
    }
  }
  return null;
}

/** Chromium, headless, with the DevTools protocol on fds 3 (commands) and 4 (replies and events). */
function launch(browser, profile) {
  const child = spawn(browser, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
    '--no-first-run', '--no-default-browser-check', '--disable-extensions', '--remote-debugging-pipe',
    `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const pending = new Map();
  const events = [];
  let nextId = 1;
  let buffer = '';
  let exited = null;
  const gone = (why) => {
    for (const { reject } of pending.values()) reject(new Error(why));
    pending.clear();
  };
  const exit = new Promise((resolve) => {
    child.on('exit', (code, signal) => { exited = { code, signal }; gone(`chromium exited (${code ?? signal})`); resolve(); });
    child.on('error', (e) => { exited = { error: e }; gone(`chromium is not running: ${e.message}`); resolve(); });
  });
  child.stdio[4].on('data', (d) => {
    buffer += d;
    for (let end = buffer.indexOf('\0'); end >= 0; end = buffer.indexOf('\0')) {
      const msg = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      if (msg.id !== undefined && pending.has(msg.id)) {
        const { resolve, reject } = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) reject(new Error(`${msg.error.message} (${msg.error.code})`));
        else resolve(msg.result);
      } else if (msg.method) {
        events.push(msg);
      }
    }
  });
  child.stdio[3].on('error', () => { /* chromium gone: the pending calls are rejected on exit */ });
  // A command's reply, or an error after 20 s (a browser that hangs fails the test, never stalls it).
  const send = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
    if (exited) { reject(new Error('chromium is not running')); return; }
    const id = nextId++;
    const timer = setTimeout(() => { pending.delete(id); reject(new Error(`no reply to ${method} in 20 s`)); }, 20000);
    const settle = (f) => (v) => { clearTimeout(timer); f(v); };
    pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
    child.stdio[3].write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
  });
  const stop = async () => {
    if (!exited) {
      send('Browser.close').catch(() => {});
      let timer;
      await Promise.race([exit, new Promise((r) => { timer = setTimeout(r, 5000); })]);
      clearTimeout(timer);
    }
    // The rest of the process group chromium was started in (its renderer and zygote processes,
    // which hold the pipes open a while after it exits).
    try { process.kill(-child.pid, 'SIGKILL'); } catch { /* none left */ }
    if (!exited) await exit;
    gone('chromium stopped');
    for (const s of [child.stdio[3], child.stdio[4], child.stderr]) s.destroy();
  };
  return { send, stop, events, stderr: () => stderr };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  if (!golden) {
    console.error('usage: node browser_test.js JS_DIR EXAMPLE_DIR GOLDEN.hashes');
    process.exit(2);
  }
  const browser = findBrowser();
  if (!browser) {
    console.log('browser_test: SKIPPED: no chromium (chromium, chromium-browser, google-chrome or $FXKCC_BROWSER; ' +
      'scripts/setup.sh installs Debian\'s chromium)');
    process.exit(77);
  }
  const goldenSums = fs.readFileSync(golden, 'utf8').split('\n').map((l) => /^(\d+) ([0-9a-f]{16})/.exec(l))
    .filter(Boolean).map((m) => m[2]);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fxkcc-browser-'));
  let chromium = null;
  let server = null;
  try {
    // The site: the example page and the package from its tarball, as fxkcc/.
    const site = path.join(tmp, 'site');
    fs.mkdirSync(site);
    const { tarball } = pack(jsDir, tmp);
    const tar = spawnSync('tar', ['-xzf', tarball, '-C', tmp], { encoding: 'utf8' });
    assert.strictEqual(tar.status, 0, `tar: ${tar.stderr}`);
    fs.renameSync(path.join(tmp, 'package'), path.join(site, 'fxkcc'));
    for (const f of ['index.html', 'main.mjs', 'world.mjs']) fs.copyFileSync(path.join(exampleDir, f), path.join(site, f));

    // What node computes through the same package's CommonJS entry.
    const { stopTime62 } = await import(pathToFileURL(path.join(site, 'world.mjs')).href);
    const nodeSums = stopTime62(await require(path.join(site, 'fxkcc', 'fxkcc.js')).load());
    assert.deepStrictEqual(nodeSums, goldenSums, `node's checksums are not the golden's (${golden})`);

    const { serve } = await import(pathToFileURL(path.resolve(exampleDir, 'serve.mjs')).href);
    let url;
    const requested = [];
    ({ server, url } = await serve(site, { onRequest: (p) => requested.push(p) }));
    const started = Date.now();
    chromium = launch(browser, path.join(tmp, 'profile'));
    const version = await chromium.send('Browser.getVersion');
    const { targetId } = await chromium.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await chromium.send('Target.attachToTarget', { targetId, flatten: true });
    await chromium.send('Runtime.enable', {}, sessionId);
    await chromium.send('Log.enable', {}, sessionId);
    await chromium.send('Page.navigate', { url }, sessionId);
    const read = `(() => { const b = document.body; if (!b || !b.dataset.state) return null;
      const t = (id) => (document.getElementById(id) || {}).textContent;
      return { state: b.dataset.state, checksum: t('checksum'), ticks: t('ticks'), status: t('status'), version: t('version') }; })()`;
    let page = null;
    let lastError = null;
    while (!page) {
      if (Date.now() - started > TIMEOUT_MS)
        throw new Error(`the page did not finish in ${TIMEOUT_MS / 1000} s${lastError ? ` (last: ${lastError.message})` : ''}`);
      const thrown = chromium.events.find((m) => m.method === 'Runtime.exceptionThrown');
      if (thrown) throw new Error(`the page threw: ${thrown.params.exceptionDetails.exception?.description || thrown.params.exceptionDetails.text}`);
      try {
        const r = await chromium.send('Runtime.evaluate', { expression: read, returnByValue: true }, sessionId);
        page = r.result && r.result.value;
      } catch (e) {
        if (/exited|not running/.test(e.message)) throw e; // a navigation in between is retried
        lastError = e;
      }
      if (!page) await sleep(100);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (page.state !== 'done') throw new Error(`the page failed: ${page.status}`);
    const pageSums = page.ticks.split('\n').map((l) => l.split(' ')[1]);
    assert.deepStrictEqual(pageSums, nodeSums, 'the page computed other checksums than node');
    assert.strictEqual(page.checksum, nodeSums[nodeSums.length - 1]);
    // The page took the package's ES module route, and nothing of the CommonJS one.
    for (const f of ['/fxkcc/fxkcc.mjs', '/fxkcc/fxkcc_wasm.mjs']) assert.ok(requested.includes(f), `${f} not requested: ${requested}`);
    for (const f of ['/fxkcc/fxkcc.js', '/fxkcc/fxkcc_wasm.js']) assert.ok(!requested.includes(f), `${f} requested`);
    console.log(`browser_test: ${version.product}: the example page loaded the package as an ES module ` +
      `(${requested.filter((f) => f.startsWith('/fxkcc/')).join(', ')}; ${page.version}; ${page.status}); ${pageSums.length} ticks, every checksum node's and the golden's; ` +
      `the last ${page.checksum} (${seconds} s from launch)`);
  } catch (e) {
    if (chromium) {
      const logs = chromium.events.filter((m) => /^(Runtime\.consoleAPICalled|Runtime\.exceptionThrown|Log\.entryAdded)$/.test(m.method))
        .map((m) => JSON.stringify(m.params).slice(0, 800));
      if (logs.length) console.error(`the page's console and exceptions:\n${logs.join('\n')}`);
      console.error(`chromium's stderr:\n${chromium.stderr().split('\n').filter((l) => !/dbus|\[: /.test(l)).slice(-30).join('\n')}`);
    }
    throw e;
  } finally {
    if (chromium) await chromium.stop();
    if (server) { server.close(); server.closeAllConnections(); } // no wait for keep-alive
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(`browser_test: ${e.stack || e}`); process.exit(1); });
