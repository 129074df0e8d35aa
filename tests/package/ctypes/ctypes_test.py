#!/usr/bin/env python3
"""The shared C library (libfxkcc, FX_SHARED_C) from another language: Python's ctypes declares the
C API's structs and functions as fxkcc.h does, builds scenarios/conformance/stop-time-62 from its
own numbers (a floor box, four bodies with default settings, stick segments) and requires every
tick's checksum to be the world hash its golden records; then the error paths (a refused setting
with the library's text, a character index that does not exist). What the C test does through the
static library, through the ABI alone: a struct laid out or passed differently fails it.

    ctypes_test.py LIBRARY GOLDEN_HASHES"""
import ctypes as C
import re
import sys

fixed = C.c_int64


class Vec3(C.Structure):
    _fields_ = [("x", fixed), ("y", fixed), ("z", fixed)]


class Settings(C.Structure):
    _fields_ = [(n, fixed) for n in ("radius", "height", "skin", "max_slope_enter_deg", "max_slope_stay_deg",
                                      "probe_distance", "probe_skin")] + [
        ("probe_max_hits", C.c_int32), ("snap_distance", fixed), ("depenetration_cap", fixed),
        ("max_slide_iterations", C.c_int32)] + [
        (n, fixed) for n in ("step_height", "step_min_forward", "max_speed", "ground_accel", "ground_brake",
                             "air_accel", "jump_speed", "gravity", "dead_zone", "turn_rate_deg")] + [
        ("collide_characters", C.c_int32), ("tick_rate_hz", C.c_int32)]


class Input(C.Structure):
    _fields_ = [("stick_x", fixed), ("stick_y", fixed), ("jump", C.c_int32), ("impulse", Vec3)]


class CharacterState(C.Structure):
    _fields_ = [("id", C.c_uint32), ("position", Vec3), ("velocity", Vec3), ("facing", fixed),
                ("grounded", C.c_int32), ("halted", C.c_int32), ("ground_normal", Vec3),
                ("ground_shape", C.c_uint32), ("platform", C.c_uint32)]


def main():
    lib = C.CDLL(sys.argv[1])
    golden = sys.argv[2]
    W = C.c_void_p
    sig = {
        "fxkcc_version": (C.c_uint32, []),
        "fxkcc_behaviour_version": (C.c_int32, []),
        "fxkcc_fixed_from_decimal": (C.c_int, [C.c_char_p, C.POINTER(fixed)]),
        "fxkcc_settings_default": (None, [C.POINTER(Settings)]),
        "fxkcc_world_create": (C.c_int, [C.POINTER(W)]),
        "fxkcc_world_destroy": (None, [W]),
        "fxkcc_world_error": (C.c_char_p, [W]),
        "fxkcc_world_add_box": (C.c_int, [W, C.c_uint32, Vec3, Vec3, fixed, fixed, fixed]),
        "fxkcc_world_add_character": (C.c_int, [W, C.c_uint32, Vec3, C.POINTER(Settings)]),
        "fxkcc_world_build": (C.c_int, [W]),
        "fxkcc_world_step": (C.c_int, [W, C.POINTER(Input), C.c_size_t]),
        "fxkcc_world_checksum": (C.c_int, [W, C.POINTER(C.c_uint64)]),
        "fxkcc_world_character": (C.c_int, [W, C.c_size_t, C.POINTER(CharacterState)]),
    }
    for name, (res, args) in sig.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args

    def dec(text):
        v = fixed()
        assert lib.fxkcc_fixed_from_decimal(text.encode(), C.byref(v)) == 0, text
        return v.value

    assert lib.fxkcc_behaviour_version() >= 1
    w = W()
    assert lib.fxkcc_world_create(C.byref(w)) == 0
    assert lib.fxkcc_world_add_box(w, 1, Vec3(0, dec("-0.5"), dec("10")), Vec3(dec("30"), dec("0.5"), dec("30")), 0, 0, 0) == 0
    # A setting the library refuses, with its text (FXKCC_INVALID_ARGUMENT = 1).
    bad = Settings()
    lib.fxkcc_settings_default(C.byref(bad))
    assert bad.radius == dec("0.4") and bad.tick_rate_hz == 50, (bad.radius, bad.tick_rate_hz)
    bad.radius = -1
    assert lib.fxkcc_world_add_character(w, 9, Vec3(0, 0, 0), C.byref(bad)) == 1
    assert b"radius" in lib.fxkcc_world_error(w), lib.fxkcc_world_error(w)
    for k, x in enumerate(["0", "5", "-5", "-10"]):
        assert lib.fxkcc_world_add_character(w, k + 1, Vec3(dec(x), dec("0.015"), 0), None) == 0
    assert lib.fxkcc_world_build(w) == 0
    run = [("0", "1"), ("0.6", "0.8"), ("0", "0.575"), ("0", "1")]
    after = [("0", "0"), ("0", "0"), ("0", "0"), ("0.1", "0.05")]
    inputs = (Input * 4)()
    ticks = 0
    for line in open(golden):
        m = re.match(r"^(\d+) ([0-9a-f]{16})", line)
        if not m:
            continue
        tick = int(m.group(1))
        for k in range(4):
            s = run[k] if tick < 40 else after[k]
            inputs[k].stick_x, inputs[k].stick_y = dec(s[0]), dec(s[1])
        assert lib.fxkcc_world_step(w, inputs, 4) == 0
        sum_ = C.c_uint64()
        assert lib.fxkcc_world_checksum(w, C.byref(sum_)) == 0
        assert f"{sum_.value:016x}" == m.group(2), f"tick {tick}: checksum {sum_.value:016x}, the golden records {m.group(2)}"
        ticks += 1
    assert ticks == 70, ticks
    st = CharacterState()
    assert lib.fxkcc_world_character(w, 0, C.byref(st)) == 0 and st.id == 1 and st.grounded == 1
    assert abs(st.position.y - dec("0.015")) <= 2, st.position.y  # one skin above the floor
    assert lib.fxkcc_world_character(w, 4, C.byref(st)) == 3  # FXKCC_NOT_FOUND
    assert b"no character at index 4" in lib.fxkcc_world_error(w)
    lib.fxkcc_world_destroy(w)
    print(f"ctypes_test: stop-time-62 through {sys.argv[1].split('/')[-1]} from Python: {ticks} ticks, "
          f"every checksum the golden's (behaviour {lib.fxkcc_behaviour_version()})")


if __name__ == "__main__":
    main()
