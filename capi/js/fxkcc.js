// fxkcc for JavaScript: the fixed-point character controller as a WebAssembly module, for a
// browser game or a node server (docs/embedding.md, "JavaScript"). Numbers that reach the
// simulation are Q31.32 raw values as BigInt (ONE = 2^32 is 1.0): fixed('0.015') reads decimal
// text exactly, the deterministic way in; fromNumber/toNumber convert at the boundary only.
'use strict';

const createModule = require('./fxkcc_wasm.js');

const STATUS = ['ok', 'invalid argument', 'invalid state', 'not found', 'out of memory', 'internal'];
const SETTINGS = [
  'radius', 'height', 'skin', 'maxSlopeEnterDeg', 'maxSlopeStayDeg', 'probeDistance', 'probeSkin',
  'probeMaxHits', 'snapDistance', 'depenetrationCap', 'maxSlideIterations', 'stepHeight',
  'stepMinForward', 'maxSpeed', 'groundAccel', 'groundBrake', 'airAccel', 'jumpSpeed', 'gravity',
  'deadZone', 'turnRateDeg', 'collideCharacters', 'tickRateHz',
];
const INTEGER_SETTINGS = new Set(['probeMaxHits', 'maxSlideIterations', 'collideCharacters', 'tickRateHz']);
const ONE = 1n << 32n;

class FxkccError extends Error {
  constructor(status, message) {
    super(message);
    this.name = 'FxkccError';
    this.status = STATUS[status] || 'unknown status';
  }
}

// ---- what the module is given: checked before anything is passed on (issue 51) ----
// Ids are uint32 with 0xFFFFFFFE and 0xFFFFFFFF reserved; indices are non-negative integers; raw
// values are BigInts within int64. Nothing is coerced: a Number, a string, a boolean or a BigInt
// out of range where a raw value is expected, 1.9 or -1 where an id is, is an FxkccError.
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const ID_MAX = 0xfffffffd;

function describe(v) {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return `the string '${v}'`;
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}
function invalid(what, expected, v) {
  throw new FxkccError(1, `${what}: expected ${expected}, got ${describe(v)}`);
}
function idArg(v, what = 'id') {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > ID_MAX)
    invalid(what, `an integer id from 0 to ${ID_MAX}`, v);
  return v;
}
function indexArg(v, what = 'index') {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) invalid(what, 'a non-negative integer', v);
  return v;
}
function rawArg(v, what) {
  if (typeof v !== 'bigint' || v < INT64_MIN || v > INT64_MAX)
    invalid(what, 'a raw fixed-point BigInt within int64 (ONE = 2^32n is 1.0)', v);
  return v;
}
function vec3Arg(v, what) {
  if (!Array.isArray(v) || v.length !== 3) invalid(what, 'an array of three raw fixed-point BigInts', v);
  return [rawArg(v[0], `${what}[0]`), rawArg(v[1], `${what}[1]`), rawArg(v[2], `${what}[2]`)];
}
/** An integer given as a Number or a BigInt, within [lo, hi]; a BigInt back. */
function integerArg(v, what, lo, hi) {
  const ok = (typeof v === 'number' && Number.isSafeInteger(v)) || typeof v === 'bigint';
  if (!ok || BigInt(v) < lo || BigInt(v) > hi) invalid(what, `an integer from ${lo} to ${hi}`, v);
  return BigInt(v);
}
/** Runs a call into the module: what it throws that is not an FxkccError (an abort, a C++
 *  exception that reached JavaScript as a bare number) becomes one. */
function native(f) {
  try {
    return f();
  } catch (e) {
    if (e instanceof FxkccError) throw e;
    if (typeof e === 'number') throw new FxkccError(4, 'out of memory (the module threw an allocation failure)');
    const text = e && e.message ? e.message : String(e);
    throw new FxkccError(/memory|OOM|alloc/i.test(text) ? 4 : 5, `the module failed: ${text}`);
  }
}
/** n bytes of the module's memory, or an FxkccError when it has none left. */
function alloc(m, n) {
  const p = native(() => m._malloc(n));
  if (!p) throw new FxkccError(4, `out of memory (${n} bytes)`);
  return p;
}

function load(options) {
  return createModule(options || {}).then((m) => new Fxkcc(m));
}

class Fxkcc {
  constructor(m) {
    this.module = m;
    this.ONE = ONE;
    this.version = m._fxkcc_version();
    this.behaviourVersion = m._fxkcc_behaviour_version();
  }

  /** Exact decimal text ('0.015', '-2.5e3') to a raw value; throws on anything else. */
  fixed(text) {
    if (typeof text !== 'string') invalid('fixed', "decimal text such as '0.015' (fromNumber converts a Number)", text);
    const m = this.module;
    const bytes = m.lengthBytesUTF8(text) + 1;
    const p = alloc(m, bytes);
    try {
      m.stringToUTF8(text, p, bytes);
      const st = m._fxjs_fixed_from_decimal(p);
      if (st !== 0) throw new FxkccError(st, `not a decimal number: '${text}'`);
      return BigInt.asIntN(64, m._fxjs_u64());
    } finally {
      m._free(p);
    }
  }

  /** The boundary conversions (a double is exact, so the same double gives the same raw value). */
  fromNumber(value) {
    if (typeof value !== 'number' || !Number.isFinite(value)) invalid('fromNumber', 'a finite Number', value);
    return this.module._fxkcc_fixed_from_double(value);
  }
  toNumber(raw) { return this.module._fxkcc_fixed_to_double(rawArg(raw, 'toNumber')); }

  createWorld() { return new World(this); }
}

class World {
  constructor(lib) {
    this.lib = lib;
    this.m = lib.module;
    this.w = native(() => this.m._fxjs_world_create());
    if (this.w === 0) throw new FxkccError(4, 'cannot create a world');
  }

  /** Frees the world; it cannot be used afterwards. */
  destroy() {
    if (this.w !== 0) this.m._fxkcc_world_destroy(this.w);
    this.w = 0;
  }

  check(status) {
    if (status !== 0) throw new FxkccError(status, this.m.UTF8ToString(this.m._fxkcc_world_error(this.w)));
  }
  /** The world's handle for a call, after its arguments were checked. */
  live() {
    if (this.w === 0) throw new FxkccError(2, 'the world was destroyed');
    return this.w;
  }
  call(f) { this.check(native(() => f(this.live()))); }

  addBox(id, center, half, yawDeg = 0n, pitchDeg = 0n, rollDeg = 0n) {
    idArg(id); const c = vec3Arg(center, 'center'); const h = vec3Arg(half, 'half');
    rawArg(yawDeg, 'yawDeg'); rawArg(pitchDeg, 'pitchDeg'); rawArg(rollDeg, 'rollDeg');
    this.call((w) => this.m._fxjs_add_box(w, id, c[0], c[1], c[2], h[0], h[1], h[2], yawDeg, pitchDeg, rollDeg));
  }
  addSphere(id, center, radius) {
    idArg(id); const c = vec3Arg(center, 'center'); rawArg(radius, 'radius');
    this.call((w) => this.m._fxjs_add_sphere(w, id, c[0], c[1], c[2], radius));
  }
  addCapsule(id, a, b, radius) {
    idArg(id); const p = vec3Arg(a, 'a'); const q = vec3Arg(b, 'b'); rawArg(radius, 'radius');
    this.call((w) => this.m._fxjs_add_capsule(w, id, p[0], p[1], p[2], q[0], q[1], q[2], radius));
  }
  addPlane(id, normal, offset) {
    idArg(id); const n = vec3Arg(normal, 'normal'); rawArg(offset, 'offset');
    this.call((w) => this.m._fxjs_add_plane(w, id, n[0], n[1], n[2], offset));
  }
  addMesh(id, vertices, indices) {
    idArg(id);
    if (!Array.isArray(vertices)) invalid('vertices', 'an array of [x, y, z] raw fixed-point BigInts', vertices);
    const vs = vertices.map((p, k) => vec3Arg(p, `vertices[${k}]`));
    if (!Array.isArray(indices) && !(indices instanceof Uint32Array))
      invalid('indices', 'an array or Uint32Array of vertex indices', indices);
    for (let k = 0; k < indices.length; ++k) {
      const x = indices[k];
      if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > 0xffffffff)
        invalid(`indices[${k}]`, 'an integer from 0 to 4294967295', x);
    }
    const m = this.m;
    this.live();
    const v = alloc(m, Math.max(8, vs.length * 24));
    let ix = 0;
    try {
      ix = alloc(m, Math.max(4, indices.length * 4));
      const vv = new BigInt64Array(m.HEAPU8.buffer, v, vs.length * 3);
      vs.forEach((p, k) => { vv[3 * k] = p[0]; vv[3 * k + 1] = p[1]; vv[3 * k + 2] = p[2]; });
      new Uint32Array(m.HEAPU8.buffer, ix, indices.length).set(indices);
      this.call((w) => m._fxjs_add_mesh(w, id, v, vs.length, ix, indices.length));
    } finally {
      m._free(v);
      if (ix) m._free(ix);
    }
  }
  /** waypoints: [{center: [x, y, z], tick: BigInt}], ticks strictly increasing. */
  addPlatform(id, half, waypoints, yawDeg = 0n, pitchDeg = 0n, rollDeg = 0n) {
    idArg(id); const h = vec3Arg(half, 'half');
    rawArg(yawDeg, 'yawDeg'); rawArg(pitchDeg, 'pitchDeg'); rawArg(rollDeg, 'rollDeg');
    if (!Array.isArray(waypoints)) invalid('waypoints', 'an array of {center, tick}', waypoints);
    const ws = waypoints.map((w, k) => {
      if (w === null || typeof w !== 'object') invalid(`waypoints[${k}]`, 'an object {center, tick}', w);
      return { center: vec3Arg(w.center, `waypoints[${k}].center`), tick: integerArg(w.tick, `waypoints[${k}].tick`, INT64_MIN, INT64_MAX) };
    });
    const m = this.m;
    this.live();
    const p = alloc(m, Math.max(8, ws.length * 32));
    try {
      const a = new BigInt64Array(m.HEAPU8.buffer, p, ws.length * 4);
      ws.forEach((w, k) => {
        a[4 * k] = w.center[0]; a[4 * k + 1] = w.center[1]; a[4 * k + 2] = w.center[2]; a[4 * k + 3] = w.tick;
      });
      this.call((w) => m._fxjs_add_platform(w, id, h[0], h[1], h[2], yawDeg, pitchDeg, rollDeg, p, ws.length));
    } finally {
      m._free(p);
    }
  }

  withSettings(settings, f) {
    if (settings === undefined || settings === null) return f(0);
    if (typeof settings !== 'object' || Array.isArray(settings)) invalid('settings', 'an object of overrides', settings);
    // Every value checked before the module is asked for anything.
    const values = Object.entries(settings).map(([name, value]) => {
      const index = SETTINGS.indexOf(name);
      if (index < 0) throw new FxkccError(1, `unknown setting '${name}'`);
      if (name === 'collideCharacters' && typeof value === 'boolean') return [index, value ? 1n : 0n];
      if (INTEGER_SETTINGS.has(name)) return [index, integerArg(value, `setting '${name}'`, -(1n << 31n), (1n << 31n) - 1n)];
      return [index, rawArg(value, `setting '${name}'`)];
    });
    const m = this.m;
    this.live();
    const s = native(() => m._fxjs_settings_new());
    if (!s) throw new FxkccError(4, 'out of memory (settings)');
    try {
      for (const [index, v] of values)
        if (m._fxjs_settings_set(s, index, v) !== 1) throw new FxkccError(1, `setting '${SETTINGS[index]}': out of range`);
      return f(s);
    } finally {
      m._fxjs_settings_free(s);
    }
  }

  /** Before build, or between ticks after it (a character joining). settings: overrides of the defaults. */
  addCharacter(id, feet, settings) {
    idArg(id); const p = vec3Arg(feet, 'feet');
    this.withSettings(settings, (s) => this.call((w) => this.m._fxjs_add_character(w, id, p[0], p[1], p[2], s)));
  }
  build() { this.call((w) => this.m._fxkcc_world_build(w)); }
  removeCharacter(id) { idArg(id); this.call((w) => this.m._fxkcc_world_remove_character(w, id)); }
  /** New settings (overrides of the defaults) from the next tick on. */
  setSettings(id, settings) {
    idArg(id);
    this.withSettings(settings || {}, (s) => this.call((w) => this.m._fxkcc_world_set_settings(w, id, s)));
  }
  teleport(id, feet) {
    idArg(id); const p = vec3Arg(feet, 'feet');
    this.call((w) => this.m._fxjs_teleport(w, id, p[0], p[1], p[2]));
  }

  /** inputs[i] for the i-th character (ascending id): {stickX, stickY, jump, impulse: [x, y, z]};
   *  missing (a hole, undefined or null): idle. Every input is checked before the tick; the
   *  inputs are passed for this tick alone. */
  step(inputs = []) {
    if (!Array.isArray(inputs)) invalid('inputs', 'an array of inputs', inputs);
    const packed = new BigInt64Array(Math.max(1, inputs.length * 6));
    for (let k = 0; k < inputs.length; ++k) {
      const i = inputs[k];
      if (i === undefined || i === null) continue;
      if (typeof i !== 'object') invalid(`inputs[${k}]`, 'an object {stickX, stickY, jump, impulse}', i);
      const at = `inputs[${k}]`;
      packed[6 * k] = i.stickX === undefined ? 0n : rawArg(i.stickX, `${at}.stickX`);
      packed[6 * k + 1] = i.stickY === undefined ? 0n : rawArg(i.stickY, `${at}.stickY`);
      if (i.jump !== undefined && typeof i.jump !== 'boolean') invalid(`${at}.jump`, 'a boolean', i.jump);
      packed[6 * k + 2] = i.jump ? 1n : 0n;
      if (i.impulse !== undefined) {
        const imp = vec3Arg(i.impulse, `${at}.impulse`);
        packed[6 * k + 3] = imp[0]; packed[6 * k + 4] = imp[1]; packed[6 * k + 5] = imp[2];
      }
    }
    const m = this.m;
    this.live();
    const p = alloc(m, packed.byteLength);
    try {
      new BigInt64Array(m.HEAPU8.buffer, p, packed.length).set(packed);
      this.call((w) => m._fxjs_step(w, p, inputs.length));
    } finally {
      m._free(p);
    }
  }

  get tick() { return this.m._fxkcc_world_tick(this.live()); }
  get characterCount() { return this.m._fxkcc_world_character_count(this.live()); }

  character(index) {
    indexArg(index);
    const p = this.m._fxjs_character(this.live(), index);
    if (p === 0) throw new FxkccError(3, `no character at index ${index}`);
    const v = new BigInt64Array(this.m.HEAPU8.buffer, p, 15);
    const NONE = 0xffffffffn;
    return {
      id: Number(v[0]), position: [v[1], v[2], v[3]], velocity: [v[4], v[5], v[6]], facing: v[7],
      grounded: v[8] !== 0n, halted: v[9] !== 0n, groundNormal: [v[10], v[11], v[12]],
      groundShape: v[13] === NONE ? null : Number(v[13]), platform: v[14] === NONE ? null : Number(v[14]),
    };
  }
  renderPosition(index, alpha) {
    indexArg(index); rawArg(alpha, 'alpha');
    const p = this.m._fxjs_render_position(this.live(), index, alpha);
    if (p === 0) throw new FxkccError(1, `render position: index ${index}, alpha ${alpha}`);
    const v = new BigInt64Array(this.m.HEAPU8.buffer, p, 3);
    return [v[0], v[1], v[2]];
  }
  /** The checksum of the tick just stepped: the world hash the goldens record (unsigned BigInt). */
  checksum() {
    this.call((w) => this.m._fxjs_checksum(w));
    return BigInt.asUintN(64, this.m._fxjs_u64());
  }
  /** Everything that decides the next tick, as bytes that are the same on every machine. */
  snapshot() {
    const m = this.m;
    const n = m._fxkcc_world_snapshot_size(this.live());
    const p = alloc(m, Math.max(1, n));
    try {
      this.call((w) => m._fxkcc_world_snapshot(w, p, n));
      return new Uint8Array(m.HEAPU8.buffer, p, n).slice();
    } finally {
      m._free(p);
    }
  }
  restore(bytes) {
    if (!(bytes instanceof Uint8Array)) invalid('restore', 'a Uint8Array (a snapshot)', bytes);
    const m = this.m;
    this.live();
    const p = alloc(m, Math.max(1, bytes.length));
    try {
      m.HEAPU8.set(bytes, p);
      this.call((w) => m._fxkcc_world_restore(w, p, bytes.length));
    } finally {
      m._free(p);
    }
  }

  /** Starts recording, at tick 0 after build: the level, the characters, every input, runtime
   *  change, snapshot and restore (docs/embedding.md, "Recording a session"). */
  record() { this.call((w) => this.m._fxkcc_world_record(w)); }
  /** The recording as files, [{path, text}]: `name`.yaml first, its input CSVs, and
   *  `name`.checksums last; `fxkcc run name.yaml --checksums name.checksums` replays it. */
  recording(name) {
    if (typeof name !== 'string') invalid('recording', 'a scenario name (a string)', name);
    const m = this.m;
    this.live();
    const bytes = m.lengthBytesUTF8(name) + 1;
    const pName = alloc(m, bytes);
    let pOut = 0;
    try {
      pOut = alloc(m, 12); // a size_t count, then two pointers (4 bytes each in wasm32)
      m.stringToUTF8(name, pName, bytes);
      this.call((w) => m._fxkcc_world_recording_files(w, pName, pOut));
      const count = new Uint32Array(m.HEAPU8.buffer, pOut, 1)[0];
      const files = [];
      for (let i = 0; i < count; ++i) {
        this.call((w) => m._fxkcc_world_recording_file(w, i, pOut + 4, pOut + 8));
        const ptrs = new Uint32Array(m.HEAPU8.buffer, pOut + 4, 2);
        files.push({ path: m.UTF8ToString(ptrs[0]), text: m.UTF8ToString(ptrs[1]) });
      }
      return files;
    } finally {
      m._free(pName);
      if (pOut) m._free(pOut);
    }
  }
}

module.exports = { load, ONE, FxkccError, SETTINGS };
