// The TypeScript declarations (capi/js/fxkcc.d.ts) checked against a use of the whole API:
// compiled with tsc --strict (a declaration that does not match this use fails to compile),
// then run under node against the module (a declared member the module lacks fails at run time).
declare const process: { exit(code: number): never }; // no @types/node needed

import * as fxkcc from './fxkcc';
import { Fixed, Vec3, World, CharacterState, RecordedFile } from './fxkcc';

async function main(): Promise<void> {
  const lib: fxkcc.Fxkcc = await fxkcc.load();
  const one: bigint = fxkcc.ONE;
  const f = (t: string): Fixed => lib.fixed(t);
  const half: Fixed = lib.fromNumber(0.5);
  if (lib.toNumber(half) !== 0.5 || lib.ONE !== one) throw new Error('conversions');
  if (typeof lib.version !== 'number' || typeof lib.behaviourVersion !== 'number') throw new Error('versions');
  const w: World = lib.createWorld();
  const up: Vec3 = [0n, one, 0n];
  w.addPlane(1, up, 0n);
  w.addBox(2, [4n * one, one, 0n], [one, one, 10n * one], 0n, 0n, 0n);
  w.addSphere(3, [-6n * one, 0n, 0n], one);
  w.addCapsule(4, [-9n * one, 0n, 0n], [-9n * one, one, 0n], f('0.5'));
  w.addMesh(5, [[10n * one, 0n, 0n], [12n * one, 0n, 0n], [10n * one, 0n, 2n * one]], [0, 1, 2]);
  w.addPlatform(50, [one, f('0.25'), one], [{ center: [0n, f('0.25'), 9n * one], tick: 0 },
    { center: [2n * one, f('0.25'), 9n * one], tick: 100n }]);
  w.addCharacter(1, [0n, f('0.015'), 0n], { maxSpeed: f('6.2'), collideCharacters: true, tickRateHz: 50 });
  w.build();
  w.addCharacter(2, [0n, f('0.015'), 3n * one]);
  w.step([{ stickX: one, jump: false }, undefined]);
  w.setSettings(2, { jumpSpeed: 4n * one });
  w.teleport(2, [one, f('0.015'), 3n * one]);
  const s: CharacterState = w.character(0);
  const t: bigint = w.tick;
  const n: number = w.characterCount;
  const pose: Vec3 = w.renderPosition(0, one / 2n);
  const sum: bigint = w.checksum();
  const snap: Uint8Array = w.snapshot();
  w.restore(snap);
  w.removeCharacter(2);
  if (s.id !== 1 || t !== 1n || n !== 2 || pose.length !== 3 || sum === 0n || fxkcc.SETTINGS.length !== 23)
    throw new Error('unexpected values');
  try {
    w.teleport(9, up);
    throw new Error('no error');
  } catch (e) {
    if (!(e instanceof fxkcc.FxkccError) || e.status !== 'not found') throw e;
  }
  w.destroy();
  const r: World = lib.createWorld();
  r.addPlane(1, up, 0n);
  r.addCharacter(1, [0n, f('0.015'), 0n]);
  r.build();
  r.record();
  r.step([{ stickY: one }]);
  const files: RecordedFile[] = r.recording('typed');
  if (files.length !== 3 || files[0].path !== 'typed.yaml' || !files[2].text.startsWith('fxkcc-checksums 1'))
    throw new Error('unexpected recording');
  r.destroy();
  console.log('fxkcc.d.ts: every declared member used, compiled with --strict and run');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
