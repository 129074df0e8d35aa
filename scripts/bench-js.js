// The JavaScript package's step, timed: ns per character-tick of `World.step` through the API
// (the inputs checked and copied in, the tick, nothing read back), for comparing builds of the
// module (docs/embedding.md, "Memory of the module"). A floor, a ring of pillars and N characters
// running in circles; the stick turns every tick, so every tick has work.
//
//   node scripts/bench-js.js PACKAGE_DIR [CHARACTERS] [TICKS] [ROUNDS]   # default 64, 600, 9
//
// Prints each round's ns per character-tick (after a warm-up round), then their median. Outside
// the test command; nothing here is a pass or a fail.
'use strict';
const path = require('path');

async function main() {
  const [dir, chars = '64', ticks = '600', rounds = '9'] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node scripts/bench-js.js PACKAGE_DIR [CHARACTERS] [TICKS] [ROUNDS]');
    process.exit(2);
  }
  const fxkcc = require(path.resolve(dir, 'fxkcc.js'));
  const lib = await fxkcc.load();
  const ONE = fxkcc.ONE;
  const n = Number(chars), t = Number(ticks);
  const build = () => {
    const w = lib.createWorld();
    w.addPlane(1, [0n, ONE, 0n], 0n);
    for (let i = 0; i < 8; ++i) {
      const x = BigInt([6, 4, 0, -4, -6, -4, 0, 4][i]) * ONE, z = BigInt([0, 4, 6, 4, 0, -4, -6, -4][i]) * ONE;
      w.addBox(2 + i, [x, ONE, z], [ONE / 2n, ONE, ONE / 2n]);
    }
    for (let c = 0; c < n; ++c) {
      w.addCharacter(c + 1, [BigInt(3 * ((c % 8) - 4)) * ONE, lib.fixed('0.015'), BigInt(3 * ((c >> 3) - 4)) * ONE]);
    }
    w.build();
    return w;
  };
  // The stick of character c at tick k: a unit vector turning by 1/64 of a circle a tick, from a
  // table of 64 directions (raw Q31.32, rounded), each character a phase of its own.
  const dirs = [];
  for (let i = 0; i < 64; ++i) {
    const a = (2 * Math.PI * i) / 64;
    dirs.push([BigInt(Math.round(Math.cos(a) * 2 ** 32)), BigInt(Math.round(Math.sin(a) * 2 ** 32))]);
  }
  const inputs = [];
  for (let k = 0; k < 64; ++k) {
    inputs.push(Array.from({ length: n }, (_, c) => ({ stickX: dirs[(k + c) % 64][0], stickY: dirs[(k + c) % 64][1] })));
  }
  const round = () => {
    const w = build();
    const start = process.hrtime.bigint();
    for (let k = 0; k < t; ++k) w.step(inputs[k % 64]);
    const ns = Number(process.hrtime.bigint() - start) / (n * t);
    w.destroy();
    return ns;
  };
  for (let r = 0; r < 3; ++r) round(); // warm-up: node optimises the hot functions meanwhile
  const all = [];
  for (let r = 0; r < Number(rounds); ++r) all.push(round());
  all.forEach((ns, r) => console.log(`round ${r + 1}: ${ns.toFixed(1)} ns per character-tick`));
  const sorted = [...all].sort((a, b) => a - b);
  console.log(`median ${sorted[sorted.length >> 1].toFixed(1)} ns per character-tick (${n} characters, ${t} ticks)`);
}
main().catch((e) => { console.error(e); process.exit(1); });
