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
    const m = this.module;
    const bytes = m.lengthBytesUTF8(String(text)) + 1;
    const p = m._malloc(bytes);
    try {
      m.stringToUTF8(String(text), p, bytes);
      const st = m._fxjs_fixed_from_decimal(p);
      if (st !== 0) throw new FxkccError(st, `not a decimal number: '${text}'`);
      return BigInt.asIntN(64, m._fxjs_u64());
    } finally {
      m._free(p);
    }
  }

  /** The boundary conversions (a double is exact, so the same double gives the same raw value). */
  fromNumber(value) { return this.module._fxkcc_fixed_from_double(value); }
  toNumber(raw) { return this.module._fxkcc_fixed_to_double(raw); }

  createWorld() { return new World(this); }
}

class World {
  constructor(lib) {
    this.lib = lib;
    this.m = lib.module;
    this.w = this.m._fxjs_world_create();
    if (this.w === 0) throw new FxkccError(4, 'cannot create a world');
  }

  /** Frees the world; it cannot be used afterwards. */
  destroy() {
    if (this.w !== 0) this.m._fxkcc_world_destroy(this.w);
    this.w = 0;
  }

  check(status) {
    if (this.w === 0) throw new FxkccError(2, 'the world was destroyed');
    if (status !== 0) throw new FxkccError(status, this.m.UTF8ToString(this.m._fxkcc_world_error(this.w)));
  }

  addBox(id, center, half, yawDeg = 0n, pitchDeg = 0n, rollDeg = 0n) {
    this.check(this.m._fxjs_add_box(this.w, id, center[0], center[1], center[2], half[0], half[1], half[2],
      yawDeg, pitchDeg, rollDeg));
  }
  addSphere(id, center, radius) {
    this.check(this.m._fxjs_add_sphere(this.w, id, center[0], center[1], center[2], radius));
  }
  addCapsule(id, a, b, radius) {
    this.check(this.m._fxjs_add_capsule(this.w, id, a[0], a[1], a[2], b[0], b[1], b[2], radius));
  }
  addPlane(id, normal, offset) {
    this.check(this.m._fxjs_add_plane(this.w, id, normal[0], normal[1], normal[2], offset));
  }
  addMesh(id, vertices, indices) {
    const m = this.m;
    const v = m._malloc(Math.max(8, vertices.length * 24));
    const ix = m._malloc(Math.max(4, indices.length * 4));
    try {
      const vv = new BigInt64Array(m.HEAPU8.buffer, v, vertices.length * 3);
      vertices.forEach((p, k) => { vv[3 * k] = p[0]; vv[3 * k + 1] = p[1]; vv[3 * k + 2] = p[2]; });
      new Uint32Array(m.HEAPU8.buffer, ix, indices.length).set(indices);
      this.check(m._fxjs_add_mesh(this.w, id, v, vertices.length, ix, indices.length));
    } finally {
      m._free(v);
      m._free(ix);
    }
  }
  /** waypoints: [{center: [x, y, z], tick: BigInt}], ticks strictly increasing. */
  addPlatform(id, half, waypoints, yawDeg = 0n, pitchDeg = 0n, rollDeg = 0n) {
    const m = this.m;
    const p = m._malloc(Math.max(8, waypoints.length * 32));
    try {
      const a = new BigInt64Array(m.HEAPU8.buffer, p, waypoints.length * 4);
      waypoints.forEach((w, k) => {
        a[4 * k] = w.center[0]; a[4 * k + 1] = w.center[1]; a[4 * k + 2] = w.center[2]; a[4 * k + 3] = BigInt(w.tick);
      });
      this.check(m._fxjs_add_platform(this.w, id, half[0], half[1], half[2], yawDeg, pitchDeg, rollDeg, p,
        waypoints.length));
    } finally {
      m._free(p);
    }
  }

  withSettings(settings, f) {
    if (settings === undefined || settings === null) return f(0);
    const m = this.m;
    const s = m._fxjs_settings_new();
    try {
      for (const [name, value] of Object.entries(settings)) {
        const index = SETTINGS.indexOf(name);
        if (index < 0) throw new FxkccError(1, `unknown setting '${name}'`);
        const v = INTEGER_SETTINGS.has(name) ? BigInt(typeof value === 'boolean' ? Number(value) : value) : value;
        if (typeof v !== 'bigint' || m._fxjs_settings_set(s, index, v) !== 1)
          throw new FxkccError(1, `setting '${name}': expected ${INTEGER_SETTINGS.has(name) ? 'an integer' : 'a raw fixed-point BigInt'}`);
      }
      return f(s);
    } finally {
      m._fxjs_settings_free(s);
    }
  }

  /** Before build, or between ticks after it (a character joining). settings: overrides of the defaults. */
  addCharacter(id, feet, settings) {
    this.withSettings(settings, (s) => this.check(this.m._fxjs_add_character(this.w, id, feet[0], feet[1], feet[2], s)));
  }
  build() { this.check(this.m._fxkcc_world_build(this.w)); }
  removeCharacter(id) { this.check(this.m._fxkcc_world_remove_character(this.w, id)); }
  /** New settings (overrides of the defaults) from the next tick on. */
  setSettings(id, settings) {
    this.withSettings(settings || {}, (s) => this.check(this.m._fxkcc_world_set_settings(this.w, id, s)));
  }
  teleport(id, feet) { this.check(this.m._fxjs_teleport(this.w, id, feet[0], feet[1], feet[2])); }

  /** inputs[i] for the i-th character (ascending id): {stickX, stickY, jump, impulse: [x, y, z]}; missing: idle. */
  step(inputs = []) {
    inputs.forEach((inp, k) => {
      const i = inp || {};
      const imp = i.impulse || [0n, 0n, 0n];
      this.m._fxjs_set_input(k, i.stickX || 0n, i.stickY || 0n, i.jump ? 1 : 0, imp[0], imp[1], imp[2]);
    });
    this.check(this.m._fxjs_step(this.w, inputs.length));
  }

  get tick() { return this.m._fxkcc_world_tick(this.w); }
  get characterCount() { return this.m._fxkcc_world_character_count(this.w); }

  character(index) {
    const p = this.m._fxjs_character(this.w, index);
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
    const p = this.m._fxjs_render_position(this.w, index, alpha);
    if (p === 0) throw new FxkccError(1, `render position: index ${index}, alpha ${alpha}`);
    const v = new BigInt64Array(this.m.HEAPU8.buffer, p, 3);
    return [v[0], v[1], v[2]];
  }
  /** The checksum of the tick just stepped: the world hash the goldens record (unsigned BigInt). */
  checksum() {
    this.check(this.m._fxjs_checksum(this.w));
    return BigInt.asUintN(64, this.m._fxjs_u64());
  }
  /** Everything that decides the next tick, as bytes that are the same on every machine. */
  snapshot() {
    const m = this.m;
    const n = m._fxkcc_world_snapshot_size(this.w);
    const p = m._malloc(Math.max(1, n));
    try {
      this.check(m._fxkcc_world_snapshot(this.w, p, n));
      return new Uint8Array(m.HEAPU8.buffer, p, n).slice();
    } finally {
      m._free(p);
    }
  }
  restore(bytes) {
    const m = this.m;
    const p = m._malloc(Math.max(1, bytes.length));
    try {
      m.HEAPU8.set(bytes, p);
      this.check(m._fxkcc_world_restore(this.w, p, bytes.length));
    } finally {
      m._free(p);
    }
  }

  /** Starts recording, at tick 0 after build: the level, the characters, every input, runtime
   *  change, snapshot and restore (docs/embedding.md, "Recording a session"). */
  record() { this.check(this.m._fxkcc_world_record(this.w)); }
  /** The recording as files, [{path, text}]: `name`.yaml first, its input CSVs, and
   *  `name`.checksums last; `fxkcc run name.yaml --checksums name.checksums` replays it. */
  recording(name) {
    const m = this.m;
    const text = String(name);
    const bytes = m.lengthBytesUTF8(text) + 1;
    const pName = m._malloc(bytes);
    const pOut = m._malloc(12); // a size_t count, then two pointers (4 bytes each in wasm32)
    try {
      m.stringToUTF8(text, pName, bytes);
      this.check(m._fxkcc_world_recording_files(this.w, pName, pOut));
      const count = new Uint32Array(m.HEAPU8.buffer, pOut, 1)[0];
      const files = [];
      for (let i = 0; i < count; ++i) {
        this.check(m._fxkcc_world_recording_file(this.w, i, pOut + 4, pOut + 8));
        const ptrs = new Uint32Array(m.HEAPU8.buffer, pOut + 4, 2);
        files.push({ path: m.UTF8ToString(ptrs[0]), text: m.UTF8ToString(ptrs[1]) });
      }
      return files;
    } finally {
      m._free(pName);
      m._free(pOut);
    }
  }
}

module.exports = { load, ONE, FxkccError, SETTINGS };
