// TypeScript declarations of fxkcc.js (docs/embedding.md, "JavaScript"). Fixed-point values are
// Q31.32 raw values as bigint: ONE (2^32n) is 1.0.

export type Fixed = bigint;
export type Vec3 = [Fixed, Fixed, Fixed];

export declare const ONE: bigint;
export declare const SETTINGS: readonly string[];

/** Thrown for every failure, including arguments refused before the module is called: ids are
 * integers from 0 to 4294967293 (0xFFFFFFFE and 0xFFFFFFFF are reserved), indices non-negative
 * integers, raw values bigints within int64; nothing is coerced. */
export declare class FxkccError extends Error {
  /** 'invalid argument', 'invalid state', 'not found', 'out of memory' or 'internal'. */
  readonly status: string;
}

/** Overrides of the default settings (docs/controller.md, "Settings"): lengths in m, angles in
 * degrees, speeds in m/s, accelerations in m/s^2, all raw fixed point; the integer settings as
 * numbers or bigints. */
export interface Settings {
  radius?: Fixed; height?: Fixed; skin?: Fixed;
  maxSlopeEnterDeg?: Fixed; maxSlopeStayDeg?: Fixed;
  probeDistance?: Fixed; probeSkin?: Fixed; probeMaxHits?: number | bigint;
  snapDistance?: Fixed; depenetrationCap?: Fixed; maxSlideIterations?: number | bigint;
  stepHeight?: Fixed; stepMinForward?: Fixed;
  maxSpeed?: Fixed; groundAccel?: Fixed; groundBrake?: Fixed; airAccel?: Fixed; jumpSpeed?: Fixed;
  gravity?: Fixed; deadZone?: Fixed; turnRateDeg?: Fixed;
  collideCharacters?: boolean | number | bigint; tickRateHz?: number | bigint;
}

/** One tick's input of one character; missing fields are zero. */
export interface Input {
  stickX?: Fixed; stickY?: Fixed; jump?: boolean; impulse?: Vec3;
}

export interface CharacterState {
  id: number;
  position: Vec3; velocity: Vec3; facing: Fixed;
  grounded: boolean; halted: boolean;
  groundNormal: Vec3;
  groundShape: number | null; platform: number | null;
}

export interface Waypoint { center: Vec3; tick: bigint | number; }

export declare class World {
  destroy(): void;
  addBox(id: number, center: Vec3, half: Vec3, yawDeg?: Fixed, pitchDeg?: Fixed, rollDeg?: Fixed): void;
  addSphere(id: number, center: Vec3, radius: Fixed): void;
  addCapsule(id: number, a: Vec3, b: Vec3, radius: Fixed): void;
  addPlane(id: number, normal: Vec3, offset: Fixed): void;
  addMesh(id: number, vertices: Vec3[], indices: number[] | Uint32Array): void;
  addPlatform(id: number, half: Vec3, waypoints: Waypoint[], yawDeg?: Fixed, pitchDeg?: Fixed, rollDeg?: Fixed): void;
  /** Before build(), or between ticks after it (a character joining). */
  addCharacter(id: number, feet: Vec3, settings?: Settings): void;
  build(): void;
  removeCharacter(id: number): void;
  setSettings(id: number, settings: Settings): void;
  teleport(id: number, feet: Vec3): void;
  /** inputs[i] for the i-th character in ascending id; missing ones are idle. */
  step(inputs?: Array<Input | undefined>): void;
  readonly tick: bigint;
  readonly characterCount: number;
  character(index: number): CharacterState;
  renderPosition(index: number, alpha: Fixed): Vec3;
  /** The world hash the goldens record for the tick just stepped. */
  checksum(): bigint;
  snapshot(): Uint8Array;
  restore(bytes: Uint8Array): void;
  /** Starts recording, at tick 0 after build (docs/embedding.md, "Recording a session"). */
  record(): void;
  /** The recording: `name`.yaml first, its input CSVs, `name`.checksums last. */
  recording(name: string): RecordedFile[];
}

export interface RecordedFile {
  /** Relative to the folder the files go to, e.g. "session.yaml". */
  path: string;
  text: string;
}

export interface Fxkcc {
  readonly ONE: bigint;
  readonly version: number;
  readonly behaviourVersion: number;
  /** Exact decimal text to fixed point, the deterministic way in. */
  fixed(text: string): Fixed;
  /** Boundary conversions: the same double gives the same raw value on every machine. */
  fromNumber(value: number): Fixed;
  toNumber(raw: Fixed): number;
  createWorld(): World;
}

/** Instantiates the WebAssembly module (options are passed to Emscripten's module factory). */
export declare function load(options?: object): Promise<Fxkcc>;
