// The node test of the JavaScript module (capi/js/fxkcc.js): a level, runtime changes, a
// rollback and the error paths through the JavaScript API, and, given a golden hash file of
// scenarios/conformance/stop-time-62.yaml, that scenario built from its own numbers and every
// tick's checksum matched against the golden's world hash. Expected values are derived from the
// spec (docs/controller.md), as in the C test. Usage: node fxkcc_node_test.js MODULE_DIR [HASHES...]
'use strict';
const fs = require('fs');
const path = require('path');
const assert = require('assert');

const [moduleDir, ...goldens] = process.argv.slice(2);
const fxkcc = require(path.resolve(moduleDir, 'fxkcc.js'));

function near(a, b, tol) { const d = a - b; return d <= tol && -d <= tol; }

async function main() {
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
  console.log(`fxkcc.js: all checks passed (behaviour ${lib.behaviourVersion})`);

  for (const golden of goldens) matchGolden(lib, golden);
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
    assert.strictEqual(sum, m[2], `tick ${tick}: checksum ${sum}, the golden records ${m[2]}`);
    ++ticks;
  }
  assert.strictEqual(ticks, 70);
  w.destroy();
  console.log(`fxkcc.js: stop-time-62 through JavaScript: ${ticks} ticks, every checksum the golden's (${hashesPath})`);
}

main().catch((e) => { console.error(`fxkcc_node_test: ${e.stack || e}`); process.exit(1); });
