// The node test of the JavaScript module (capi/js/fxkcc.js): a level, runtime changes, a
// rollback and the error paths through the JavaScript API, and, given a golden hash file of
// scenarios/conformance/stop-time-62.yaml, that scenario built from its own numbers and every
// tick's checksum matched against the golden's world hash. Expected values are derived from the
// spec (docs/controller.md), as in the C test. Everything runs twice, through both entries of the
// npm package: fxkcc.js (CommonJS, require) and fxkcc.mjs (the ES module generated from it, import),
// and the checksums of the two runs must be identical.
// Usage: node fxkcc_node_test.js MODULE_DIR [HASHES...]
'use strict';
const fs = require('fs');
const path = require('path');
const assert = require('assert');
const { pathToFileURL } = require('url');

const [moduleDir, ...goldens] = process.argv.slice(2);
const ENTRIES = [
  ['fxkcc.js', () => require(path.resolve(moduleDir, 'fxkcc.js'))],
  ['fxkcc.mjs', () => import(pathToFileURL(path.resolve(moduleDir, 'fxkcc.mjs')).href)],
];
let fxkcc; // the entry under test, and its file name
let entry;

function near(a, b, tol) { const d = a - b; return d <= tol && -d <= tol; }

async function main() {
  const runs = [];
  for (const [name, open] of ENTRIES) {
    entry = name;
    fxkcc = await open();
    assert.strictEqual(typeof fxkcc.load, 'function', `${name}: no load()`);
    runs.push(await checkEntry(runs.length === 0));
  }
  // The two entries are one implementation over two builds of the module: the same checksums.
  assert.deepStrictEqual(runs[1], runs[0], 'fxkcc.mjs computed other checksums than fxkcc.js');
  console.log(`fxkcc.js and fxkcc.mjs: the same ${runs[0].length} checksums`);
}

/** Every check through the entry in `fxkcc`; the checksums it computed (the goldens' ticks and the
 *  recorded session's), to compare with the other entry's. `replay`: also replay the recording. */
async function checkEntry(replay) {
  const sums = [];
  const lib = await fxkcc.load();
  const f = (t) => lib.fixed(t);
  const ONE = fxkcc.ONE;
  const mm = ONE / 1000n;
  assert.strictEqual(f('0.015'), 64424509n); // 0.015 x 2^32 = 64424509.44, rounded to nearest
  assert.strictEqual(f('-2.5e3'), -2500n * ONE);
  assert.throws(() => f('0x10'), (e) => e instanceof fxkcc.FxkccError && e.status === 'invalid argument');
  assert.strictEqual(lib.fromNumber(0.5), ONE / 2n);

  // A floor and a wall whose face is at x = 3; one body runs into it, one jumps.
  const w = lib.createWorld();
  w.addPlane(1, [0n, ONE, 0n], 0n);
  w.addBox(2, [4n * ONE, ONE, 0n], [ONE, ONE, 10n * ONE]);
  assert.throws(() => w.addCharacter(7, [0n, 0n, 0n], { radius: -ONE }), /character 7: radius/);
  assert.throws(() => w.addCharacter(7, [0n, 0n, 0n], { radiu: ONE }), /unknown setting 'radiu'/);
  const skin = f('0.015');
  w.addCharacter(1, [0n, skin, 0n]);
  w.addCharacter(2, [0n, skin, 5n * ONE]);
  assert.throws(() => w.step([]), (e) => e.status === 'invalid state');
  w.build();
  assert.strictEqual(w.characterCount, 2);
  for (let t = 0; t < 100; ++t) w.step([{ stickX: ONE }, { jump: t === 20 }]);
  assert.strictEqual(w.tick, 100n);
  let c = w.character(0);
  assert.strictEqual(c.id, 1);
  assert.ok(c.grounded && c.groundShape === 1 && c.platform === null);
  assert.ok(near(c.position[0], 3n * ONE - f('0.4') - skin, mm / 10n), 'one skin from the wall');
  assert.ok(near(c.position[1], skin, mm / 10n), 'one skin above the floor');
  c = w.character(1);
  assert.ok(c.grounded && near(c.position[1], skin, mm / 10n), 'landed again');
  assert.throws(() => w.character(2), (e) => e.status === 'not found');

  // Rollback: 30 ticks, restore, the same checksums again; a damaged snapshot is refused.
  const snap = w.snapshot();
  assert.strictEqual(snap.length, 18 + 2 * (142 + 169));
  const first = [];
  for (let t = 0; t < 30; ++t) { w.step([{ stickY: -ONE }, { jump: t === 3 }]); first.push(w.checksum()); }
  w.restore(snap);
  assert.strictEqual(w.tick, 100n);
  for (let t = 0; t < 30; ++t) { w.step([{ stickY: -ONE }, { jump: t === 3 }]); assert.strictEqual(w.checksum(), first[t]); }
  assert.notStrictEqual(first[29], first[0]);
  const bad = snap.slice(); bad[0] = 88;
  assert.throws(() => w.restore(bad), /FXKS/);

  // Runtime changes: 3 joins with a 3 m/s top speed and reaches it, not 6.2; 1 is teleported
  // (there at once, at rest); 2 leaves.
  w.addCharacter(3, [-5n * ONE, skin, 0n]);
  w.setSettings(3, { maxSpeed: 3n * ONE });
  assert.throws(() => w.setSettings(4, {}), (e) => e.status === 'not found');
  for (let t = 0; t < 60; ++t) w.step([undefined, undefined, { stickX: -ONE }]);
  c = w.character(2);
  assert.ok(c.id === 3 && near(c.velocity[0], -3n * ONE, 1n), 'top speed 3 m/s after the settings change');
  w.teleport(1, [0n, skin, -8n * ONE]);
  c = w.character(0);
  assert.deepStrictEqual(c.position, [0n, skin, -8n * ONE]);
  assert.deepStrictEqual(c.velocity, [0n, 0n, 0n]);
  assert.deepStrictEqual(w.renderPosition(0, 0n), [0n, skin, -8n * ONE]);
  w.removeCharacter(2);
  assert.strictEqual(w.characterCount, 2);
  assert.strictEqual(w.character(1).id, 3);
  w.destroy();
  assert.throws(() => w.build(), /destroyed/);
  sums.push(...first);
  console.log(`${entry}: all checks passed (behaviour ${lib.behaviourVersion})`);

  for (const golden of goldens) sums.push(...matchGolden(lib, golden));
  sums.push(...recordAndReplay(lib, replay));
  validation(lib);
  return sums;
}

// Issue 51, items 12 and 13: what the module cannot hold is refused before it acts, never coerced
// (4294967297 was id 1, -1 a reserved id, NaN, strings and objects 0, 1.9 was 1, strings and
// booleans raw values, a BigInt above 2^64 wrapped), a step that throws half-way leaves nothing
// for another world's step, and an allocation failure is an FxkccError.
function validation(lib) {
  const ONE = fxkcc.ONE;
  const skin = lib.fixed('0.015');
  const invalid = (e) => e instanceof fxkcc.FxkccError && e.status === 'invalid argument';
  const w = lib.createWorld();
  w.addPlane(1, [0n, ONE, 0n], 0n);
  for (const id of [4294967297, -1, 0xfffffffe, 0xffffffff, NaN, 1.9, '3', {}, 3n, null, undefined, true]) {
    assert.throws(() => w.addBox(id, [0n, 0n, 0n], [ONE, ONE, ONE]), invalid, `box id ${String(id)}`);
    assert.throws(() => w.addCharacter(id, [0n, skin, 0n]), invalid, `character id ${String(id)}`);
  }
  for (const v of [1, 0.5, '4294967296', true, null, undefined, 1n << 63n, -(1n << 63n) - 1n, 1n << 64n, {}]) {
    assert.throws(() => w.addSphere(2, [v, ONE, 0n], ONE), invalid, `centre ${String(v)}`);
    assert.throws(() => w.addCharacter(5, [0n, skin, 0n], { radius: v }), invalid, `radius ${String(v)}`);
  }
  assert.throws(() => w.addBox(2, [0n, 0n], [ONE, ONE, ONE]), invalid);
  assert.throws(() => w.addCharacter(5, [0n, skin, 0n], { probeMaxHits: 1.5 }), invalid);
  assert.throws(() => w.addCharacter(5, [0n, skin, 0n], { tickRateHz: '60' }), invalid);
  assert.throws(() => w.addCharacter(5, [0n, skin, 0n], { tickRateHz: 1n << 40n }), invalid);
  assert.throws(() => w.addCharacter(5, [0n, skin, 0n], 'fast'), invalid);
  assert.throws(() => w.addMesh(6, [[0n, 0n, 0n], [ONE, 0n, 0n], [0n, 0n, ONE]], [0, 1, -2]), invalid);
  assert.throws(() => w.addMesh(6, [[0n, 0n, 0n], [ONE, 0n, 0n], [0n, 0n, ONE]], [0, 1, 2.5]), invalid);
  assert.throws(() => w.addPlatform(7, [ONE, ONE, ONE], [{ center: [0n, 0n, 0n], tick: 1.5 }]), invalid);
  assert.throws(() => lib.fixed(0.015), invalid);
  assert.throws(() => lib.fromNumber(NaN), invalid);
  assert.throws(() => lib.fromNumber('1'), invalid);
  assert.throws(() => lib.toNumber(1), invalid);
  // None of the refused calls added anything: the two characters added now are the only ones.
  w.addCharacter(1, [0n, skin, 0n]);
  w.addCharacter(2, [5n * ONE, skin, 0n], { collideCharacters: false, probeMaxHits: 8, tickRateHz: 60n });
  w.build();
  assert.strictEqual(w.characterCount, 2);
  for (const index of [-1, 1.5, '0', 2n, NaN]) assert.throws(() => w.character(index), invalid, `index ${String(index)}`);
  assert.throws(() => w.renderPosition(0, 1), invalid);
  assert.throws(() => w.restore([1, 2, 3]), invalid);
  assert.throws(() => w.recording(7), invalid);

  // A step refused at its second input moves nobody, in this world or in the next one stepped
  // with holes (its missing inputs idle), and the world steps on afterwards.
  const other = lib.createWorld();
  other.addPlane(1, [0n, ONE, 0n], 0n);
  other.addCharacter(9, [0n, skin, 0n]);
  other.build();
  for (const bad of [{ stickX: 1 }, { stickX: 'fast' }, { jump: 1 }, { impulse: [0n, 0n] }, 5]) {
    assert.throws(() => w.step([{ stickX: ONE, stickY: ONE }, bad]), invalid, JSON.stringify(String(bad)));
    assert.strictEqual(w.tick, 0n);
    other.step(new Array(1)); // a hole: idle
    other.step([]);
  }
  assert.strictEqual(other.tick, 10n);
  assert.deepStrictEqual(other.character(0).velocity, [0n, 0n, 0n], 'the other world ran idle');
  assert.deepStrictEqual(other.character(0).position, [0n, skin, 0n]);
  w.step([{ stickX: ONE }]);
  assert.strictEqual(w.tick, 1n);
  assert.ok(w.character(0).velocity[0] > 0n);

  // An allocation that fails is an FxkccError with status 'out of memory', not a bare number.
  const malloc = lib.module._malloc;
  lib.module._malloc = () => 0;
  try {
    assert.throws(() => w.snapshot(), (e) => e instanceof fxkcc.FxkccError && e.status === 'out of memory');
    assert.throws(() => w.step([{ stickX: ONE }]), (e) => e instanceof fxkcc.FxkccError && e.status === 'out of memory');
  } finally {
    lib.module._malloc = malloc;
  }
  assert.strictEqual(w.tick, 1n);
  w.destroy();
  other.destroy();
  assert.throws(() => w.step([]), (e) => e instanceof fxkcc.FxkccError && e.status === 'invalid state');
  console.log(`${entry}: ids, indices and values refused before the module acts; a failed step leaves nothing behind`);
}

// A session recorded through JavaScript (a join, a settings change, a teleport, a leave and a
// rollback): the recording's checksum file is the checksums the session had, and, given the
// wasm32 fxkcc (FXKCC_CLI, run under node), its replay gives every one of them (with `replay`).
function recordAndReplay(lib, replay) {
  const f = (t) => lib.fixed(t);
  const ONE = fxkcc.ONE;
  const w = lib.createWorld();
  w.addBox(1, [0n, f('-0.5'), 0n], [f('20'), f('0.5'), f('20')]);
  w.addCharacter(1, [0n, f('0.015'), 0n]);
  w.build();
  assert.throws(() => w.recording('early'), (e) => e.status === 'invalid state');
  w.record();
  const sums = [];
  let saved = null;
  for (let t = 0; t < 90; ++t) {
    if (t === 20) w.addCharacter(2, [f('3'), f('0.015'), 0n], { maxSpeed: f('4') });
    if (t === 30) w.setSettings(1, { maxSpeed: f('3') });
    if (t === 40) saved = w.snapshot();
    if (t === 50) w.teleport(2, [f('-4'), f('0.015'), f('2')]);
    if (t === 60) w.removeCharacter(2);
    const inputs = [{ stickY: ONE, jump: t === 35 }, { stickX: -ONE }];
    w.step(inputs.slice(0, w.characterCount));
    sums[t] = w.checksum();
    if (t === 70) { // a rollback to tick 40, and a different future from there
      w.restore(saved);
      for (let u = 40; u <= 70; ++u) {
        if (u === 55) w.teleport(2, [f('5'), f('0.015'), f('-5')]);
        w.step([{ stickX: ONE }, { stickY: -ONE }].slice(0, w.characterCount));
        sums[u] = w.checksum();
      }
    }
  }
  const files = w.recording('js-session');
  w.destroy();
  assert.deepStrictEqual(files.map((x) => x.path), ['js-session.yaml', 'js-session.c1.csv', 'js-session.c2.csv',
    'js-session.checksums']);
  const yaml = files[0].text;
  assert.ok(yaml.includes('\n    join: 20\n'), yaml);
  assert.ok(yaml.includes('{tick: 55, character: 2, teleport: [5, 0.015, -5]}'), yaml);
  assert.ok(!yaml.includes('tick: 50'), yaml); // the teleport of a timeline the rollback dropped
  const expected = ['fxkcc-checksums 1', 'hash xxh3-64', 'ticks 90',
    ...sums.map((v, t) => `${t} ${v.toString(16).padStart(16, '0')}`), 'end 90', ''].join('\n');
  assert.strictEqual(files[3].text, expected);
  console.log(`${entry}: a session with a join, settings, teleports, a leave and a rollback recorded (${files.length} files)`);
  const cli = process.env.FXKCC_CLI;
  if (!cli || !replay) return sums;
  const os = require('os');
  const { spawnSync } = require('child_process');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fxkcc-js-recording-'));
  try {
    for (const file of files) fs.writeFileSync(path.join(dir, file.path), file.text);
    const replay = (sumsFile) => spawnSync(process.execPath, [cli, 'run', path.join(dir, 'js-session.yaml'),
      '--checksums', path.join(dir, sumsFile)], { encoding: 'utf8' });
    const r = replay('js-session.checksums');
    assert.strictEqual(r.status, 0, r.stdout + r.stderr);
    assert.ok(r.stdout.includes('checksums: 90 ticks, every one equal to'), r.stdout);
    // And it can fail: one checksum changed.
    fs.writeFileSync(path.join(dir, 'bad.checksums'), expected.replace(/\n45 (.)/, (m, c) => `\n45 ${c === '0' ? '1' : '0'}`));
    const bad = replay('bad.checksums');
    assert.strictEqual(bad.status, 1, bad.stdout + bad.stderr);
    assert.ok(bad.stdout.includes('checksums: differ: tick 45: '), bad.stdout);
    console.log(`${entry}: the recording replayed by ${path.basename(cli)}: every checksum equal; one changed is found at tick 45`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return sums;
}

// scenarios/conformance/stop-time-62.yaml from its own numbers: a floor box, four bodies with
// default settings, stick segments; every tick's checksum must be the golden's world hash.
function matchGolden(lib, hashesPath) {
  const f = (t) => lib.fixed(t);
  const spawnX = ['0', '5', '-5', '-10'];
  const run = [['0', '1'], ['0.6', '0.8'], ['0', '0.575'], ['0', '1']];
  const after = [['0', '0'], ['0', '0'], ['0', '0'], ['0.1', '0.05']];
  const w = lib.createWorld();
  w.addBox(1, [0n, f('-0.5'), f('10')], [f('30'), f('0.5'), f('30')]);
  spawnX.forEach((x, k) => w.addCharacter(k + 1, [f(x), f('0.015'), 0n]));
  w.build();
  let ticks = 0;
  const sums = [];
  for (const line of fs.readFileSync(hashesPath, 'utf8').split('\n')) {
    const m = /^(\d+) ([0-9a-f]{16})/.exec(line);
    if (!m) continue;
    const tick = Number(m[1]);
    const inputs = [0, 1, 2, 3].map((k) => {
      const s = tick < 40 ? run[k] : after[k];
      return { stickX: f(s[0]), stickY: f(s[1]) };
    });
    w.step(inputs);
    const sum = w.checksum().toString(16).padStart(16, '0');
    assert.strictEqual(sum, m[2], `${entry}: tick ${tick}: checksum ${sum}, the golden records ${m[2]}`);
    sums.push(sum);
    ++ticks;
  }
  assert.strictEqual(ticks, 70);
  w.destroy();
  console.log(`${entry}: stop-time-62 through JavaScript: ${ticks} ticks, every checksum the golden's (${hashesPath})`);
  return sums;
}

main().catch((e) => { console.error(`fxkcc_node_test: ${e.stack || e}`); process.exit(1); });
