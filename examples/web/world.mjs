// The world the example page steps (examples/web/index.html): scenarios/conformance/stop-time-62.yaml
// from its own numbers, a floor and four bodies that run for 40 ticks and let go of the stick. The
// checksum of every tick is the world hash of the scenario's goldens (golden/<target>/stop-time-62.hashes),
// the same on every machine; tests/js/browser_test.js runs this in chromium and under node and
// compares both with the golden.

/** Steps the world for `ticks` ticks (70 in the goldens) with `lib` (what load() resolves to);
 *  returns every tick's checksum as 16 hexadecimal digits. */
export function stopTime62(lib, ticks = 70) {
  const f = (t) => lib.fixed(t); // exact decimal text: no floating point reaches the simulation
  const spawnX = ['0', '5', '-5', '-10'];
  const run = [['0', '1'], ['0.6', '0.8'], ['0', '0.575'], ['0', '1']];
  const after = [['0', '0'], ['0', '0'], ['0', '0'], ['0.1', '0.05']];
  const w = lib.createWorld();
  try {
    w.addBox(1, [0n, f('-0.5'), f('10')], [f('30'), f('0.5'), f('30')]); // the floor
    spawnX.forEach((x, k) => w.addCharacter(k + 1, [f(x), f('0.015'), 0n]));
    w.build();
    const checksums = [];
    for (let tick = 0; tick < ticks; ++tick) {
      w.step([0, 1, 2, 3].map((k) => {
        const s = tick < 40 ? run[k] : after[k];
        return { stickX: f(s[0]), stickY: f(s[1]) };
      }));
      checksums.push(w.checksum().toString(16).padStart(16, '0'));
    }
    return checksums;
  } finally {
    w.destroy();
  }
}
