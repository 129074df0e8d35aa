/* The C test program of the C API (fxkcc.h): a level, two characters, a hundred ticks, and the
 * error paths; with a golden hash file of stop-time-62 as its argument, that conformance
 * scenario built through the C API, every tick's checksum against the golden. Every expected value
 * is derived from the spec (docs/controller.md): a body rests one skin (0.015 m) above the floor
 * and one skin from a wall; a body at full stick reaches max_speed (6.2 m/s). Exit 0 when every
 * check holds, 1 naming the first that fails. */
#include <fxkcc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "capi_test: %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);    \
            ++failures;                                                                            \
        }                                                                                          \
    } while (0)

/* |a - b| <= tol, all in raw units */
static int near(fxkcc_fixed a, fxkcc_fixed b, fxkcc_fixed tol) {
    return a - b <= tol && b - a <= tol;
}

static fxkcc_fixed dec(const char* text) {
    fxkcc_fixed v = 0;
    if (fxkcc_fixed_from_decimal(text, &v) != FXKCC_OK) {
        fprintf(stderr, "capi_test: cannot read %s\n", text);
        ++failures;
    }
    return v;
}

/* scenarios/conformance/stop-time-62.yaml built through the C API from its own numbers (a floor
 * box, four bodies with default settings, stick segments), stepped for its 70 ticks; every
 * tick's checksum must be the world hash its golden hash file (argument) records. */
static void match_golden(const char* hashes_path) {
    static const char* const spawn_x[4] = {"0", "5", "-5", "-10"};
    static const char* const run[4][2] = {{"0", "1"}, {"0.6", "0.8"}, {"0", "0.575"}, {"0", "1"}};
    static const char* const after[4][2] = {{"0", "0"}, {"0", "0"}, {"0", "0"}, {"0.1", "0.05"}};
    fxkcc_world* w = NULL;
    fxkcc_vec3 centre, half, feet;
    fxkcc_input in[4];
    FILE* f = fopen(hashes_path, "r");
    char line[512];
    int k, ticks = 0;
    if (f == NULL) {
        fprintf(stderr, "capi_test: cannot open %s\n", hashes_path);
        ++failures;
        return;
    }
    CHECK(fxkcc_world_create(&w) == FXKCC_OK);
    centre.x = 0;
    centre.y = dec("-0.5");
    centre.z = dec("10");
    half.x = dec("30");
    half.y = dec("0.5");
    half.z = dec("30");
    CHECK(fxkcc_world_add_box(w, 1, centre, half, 0, 0, 0) == FXKCC_OK);
    for (k = 0; k < 4; ++k) {
        feet.x = dec(spawn_x[k]);
        feet.y = dec("0.015");
        feet.z = 0;
        CHECK(fxkcc_world_add_character(w, (uint32_t)k + 1, feet, NULL) == FXKCC_OK);
    }
    CHECK(fxkcc_world_build(w) == FXKCC_OK);
    memset(in, 0, sizeof in);
    while (fgets(line, sizeof line, f) != NULL) {
        unsigned long long tick = 0, golden = 0;
        uint64_t sum = 0;
        if (line[0] < '0' || line[0] > '9') continue; /* the header */
        if (sscanf(line, "%llu %16llx", &tick, &golden) != 2) continue;
        for (k = 0; k < 4; ++k) {
            const char* const* st = tick < 40 ? run[k] : after[k];
            in[k].stick_x = dec(st[0]);
            in[k].stick_y = dec(st[1]);
        }
        CHECK(fxkcc_world_step(w, in, 4) == FXKCC_OK);
        CHECK(fxkcc_world_checksum(w, &sum) == FXKCC_OK);
        if (sum != (uint64_t)golden) {
            fprintf(stderr, "capi_test: tick %llu: checksum %016llx, the golden records %016llx\n",
                    tick, (unsigned long long)sum, golden);
            ++failures;
            break;
        }
        ++ticks;
    }
    fclose(f);
    CHECK(ticks == 70);
    fxkcc_world_destroy(w);
    if (failures == 0)
        printf(
            "capi_test: stop-time-62 through the C API: %d ticks, every checksum the golden's (%s)\n",
            ticks, hashes_path);
}

int main(int argc, char** argv) {
    const fxkcc_fixed mm = FXKCC_ONE / 1000;
    fxkcc_world* w = NULL;
    fxkcc_settings s;
    fxkcc_vec3 up = {0, FXKCC_ONE, 0}, feet = {0, 0, 0}, centre, half;
    fxkcc_input inputs[2];
    fxkcc_character_state st;
    int t;

    CHECK(fxkcc_version() ==
          (FXKCC_VERSION_MAJOR << 16 | FXKCC_VERSION_MINOR << 8 | FXKCC_VERSION_PATCH));
    CHECK(fxkcc_behaviour_version() >= 8);
    CHECK(strcmp(fxkcc_status_name(FXKCC_INVALID_STATE), "invalid state") == 0);
    CHECK(fxkcc_fixed_from_double(1.5) == FXKCC_ONE + FXKCC_ONE / 2);
    CHECK(fxkcc_fixed_from_double(-0.25) == -FXKCC_ONE / 4);
    CHECK(fxkcc_fixed_to_double(3 * FXKCC_ONE) == 3.0);
    CHECK(dec("0.015") == 64424509); /* round(0.015 * 2^32) */
    CHECK(dec("-2.5e1") == -25 * FXKCC_ONE);
    {
        fxkcc_fixed untouched = 7;
        CHECK(fxkcc_fixed_from_decimal("0.5x", &untouched) == FXKCC_INVALID_ARGUMENT &&
              untouched == 7);
        CHECK(fxkcc_fixed_from_decimal("nan", &untouched) == FXKCC_INVALID_ARGUMENT);
    }

    CHECK(fxkcc_world_create(&w) == FXKCC_OK);
    /* A floor at y = 0 and a wall whose face is at x = 3. */
    CHECK(fxkcc_world_add_plane(w, 1, up, 0) == FXKCC_OK);
    centre.x = FXKCC_FIXED(4);
    centre.y = FXKCC_FIXED(1);
    centre.z = 0;
    half.x = FXKCC_FIXED(1);
    half.y = FXKCC_FIXED(1);
    half.z = FXKCC_FIXED(10);
    CHECK(fxkcc_world_add_box(w, 2, centre, half, 0, 0, 0) == FXKCC_OK);

    /* Invalid settings are refused with a reason. */
    fxkcc_settings_default(&s);
    s.radius = -FXKCC_ONE;
    CHECK(fxkcc_world_add_character(w, 7, feet, &s) == FXKCC_INVALID_ARGUMENT);
    CHECK(strstr(fxkcc_world_error(w), "character 7") != NULL);
    CHECK(fxkcc_world_step(w, NULL, 0) == FXKCC_INVALID_STATE); /* not built */

    fxkcc_settings_default(&s);
    feet.y = s.skin;
    CHECK(fxkcc_world_add_character(w, 1, feet, &s) == FXKCC_OK); /* runs into the wall */
    feet.z = FXKCC_FIXED(5);
    CHECK(fxkcc_world_add_character(w, 2, feet, NULL) == FXKCC_OK); /* stands, then jumps */
    CHECK(fxkcc_world_build(w) == FXKCC_OK);
    CHECK(strcmp(fxkcc_world_error(w), "") == 0);
    CHECK(fxkcc_world_character_count(w) == 2);
    CHECK(fxkcc_world_add_sphere(w, 9, centre, FXKCC_ONE) == FXKCC_INVALID_STATE);
    CHECK(strstr(fxkcc_world_error(w), "already built") != NULL);

    memset(inputs, 0, sizeof inputs);
    inputs[0].stick_x = FXKCC_ONE; /* +x: toward the wall */
    for (t = 0; t < 100; ++t) {
        inputs[1].jump = t == 20;
        CHECK(fxkcc_world_step(w, inputs, 2) == FXKCC_OK);
        if (t == 10) {
            /* Character 1 at full speed by now (6.2 m/s, reached in 7 ticks at 45 m/s^2), not
             * yet at the wall (3 - 0.4 - 0.015 m away at the start, 1.2 m covered). */
            CHECK(fxkcc_world_character(w, 0, &st) == FXKCC_OK);
            CHECK(near(st.velocity.x, s.max_speed, 1));
            CHECK(st.position.x < FXKCC_FIXED(2));
        }
        if (t == 22) {
            CHECK(fxkcc_world_character(w, 1, &st) == FXKCC_OK);
            CHECK(!st.grounded);
            CHECK(st.position.y > s.skin + 10 * mm);
        }
    }
    CHECK(fxkcc_world_tick(w) == 100);
    CHECK(fxkcc_world_character(w, 0, &st) == FXKCC_OK);
    CHECK(st.id == 1);
    CHECK(st.grounded && !st.halted);
    CHECK(st.ground_shape == 1);
    /* One skin from the wall's face: x = 3 - radius - skin, within 0.1 mm. */
    CHECK(near(st.position.x, FXKCC_FIXED(3) - s.radius - s.skin, mm / 10));
    CHECK(near(st.position.y, s.skin, mm / 10));
    CHECK(fxkcc_world_character(w, 1, &st) == FXKCC_OK);
    CHECK(st.id == 2 && st.grounded); /* landed again: a 5 m/s jump lasts 1.02 s, 51 ticks */
    CHECK(near(st.position.y, s.skin, mm / 10));
    CHECK(fxkcc_world_character(w, 2, &st) == FXKCC_NOT_FOUND);
    /* Getters say why they failed, and a success clears it (issue 51). */
    CHECK(strstr(fxkcc_world_error(w), "no character at index 2") != NULL);
    CHECK(fxkcc_world_character(w, 0, &st) == FXKCC_OK);
    CHECK(strcmp(fxkcc_world_error(w), "") == 0);
    {
        fxkcc_vec3 pose;
        CHECK(fxkcc_world_render_position(w, 0, FXKCC_ONE, &pose) == FXKCC_OK);
        CHECK(fxkcc_world_character(w, 0, &st) == FXKCC_OK);
        CHECK(pose.x == st.position.x && pose.y == st.position.y && pose.z == st.position.z);
        CHECK(fxkcc_world_render_position(w, 0, 2 * FXKCC_ONE, &pose) == FXKCC_INVALID_ARGUMENT);
        CHECK(strstr(fxkcc_world_error(w), "alpha outside [0, FXKCC_ONE]") != NULL);
    }
    {
        /* Roll back 30 ticks and step again with the same inputs: the same checksums. */
        static uint8_t snap[4096];
        uint64_t first[30], again;
        size_t size = fxkcc_world_snapshot_size(w);
        CHECK(size ==
              18 + 2 * (142 + 169)); /* header, then each character: state bytes, settings */
        CHECK(fxkcc_world_snapshot(w, snap, 10) == FXKCC_INVALID_ARGUMENT);
        CHECK(fxkcc_world_snapshot(w, snap, sizeof snap) == FXKCC_OK);
        inputs[0].stick_x = 0;
        inputs[0].stick_y = -FXKCC_ONE; /* away along -z */
        for (t = 0; t < 30; ++t) {
            inputs[1].jump = t == 3;
            CHECK(fxkcc_world_step(w, inputs, 2) == FXKCC_OK);
            CHECK(fxkcc_world_checksum(w, &first[t]) == FXKCC_OK);
        }
        CHECK(fxkcc_world_restore(w, snap, size) == FXKCC_OK);
        CHECK(fxkcc_world_tick(w) == 100);
        for (t = 0; t < 30; ++t) {
            inputs[1].jump = t == 3;
            CHECK(fxkcc_world_step(w, inputs, 2) == FXKCC_OK);
            CHECK(fxkcc_world_checksum(w, &again) == FXKCC_OK);
            CHECK(again == first[t]);
        }
        CHECK(first[29] != first[0]); /* they moved */
        snap[0] = 'X';
        CHECK(fxkcc_world_restore(w, snap, size) == FXKCC_INVALID_ARGUMENT);
        CHECK(strstr(fxkcc_world_error(w), "FXKS") != NULL);
        CHECK(fxkcc_world_tick(w) == 130);
    }
    {
        /* Runtime changes between ticks. Character 3 joins at x = -5 (between 2 and nothing:
         * index 2), gets a top speed of 3 m/s and runs along -x for 60 ticks: it reaches 3 m/s,
         * not 6.2. Character 1 is teleported to (0, skin, -8): there at once, at rest, its render
         * pose not interpolated across the jump. Character 2 leaves: 1 and 3 remain, at
         * indices 0 and 1. */
        fxkcc_settings slow;
        fxkcc_vec3 pose;
        fxkcc_input run[3];
        fxkcc_settings_default(&slow);
        slow.max_speed = FXKCC_FIXED(3);
        feet.x = FXKCC_FIXED(-5);
        feet.y = slow.skin;
        feet.z = 0;
        CHECK(fxkcc_world_add_character(w, 3, feet, NULL) == FXKCC_OK);
        CHECK(fxkcc_world_add_character(w, 3, feet, NULL) ==
              FXKCC_INVALID_ARGUMENT); /* duplicate id */
        CHECK(fxkcc_world_character_count(w) == 3);
        CHECK(fxkcc_world_set_settings(w, 3, &slow) == FXKCC_OK);
        slow.radius = 0;
        CHECK(fxkcc_world_set_settings(w, 3, &slow) == FXKCC_INVALID_ARGUMENT);
        CHECK(strstr(fxkcc_world_error(w), "character 3: radius") != NULL);
        CHECK(fxkcc_world_set_settings(w, 4, NULL) == FXKCC_NOT_FOUND);
        CHECK(strcmp(fxkcc_world_error(w), "set_settings: no character 4") == 0);
        memset(run, 0, sizeof run);
        run[2].stick_x = -FXKCC_ONE;
        for (t = 0; t < 60; ++t)
            CHECK(fxkcc_world_step(w, run, 3) == FXKCC_OK);
        CHECK(fxkcc_world_character(w, 2, &st) == FXKCC_OK);
        CHECK(st.id == 3 && st.grounded);
        CHECK(near(st.velocity.x, -FXKCC_FIXED(3), 1));

        feet.x = 0;
        feet.z = FXKCC_FIXED(-8);
        CHECK(fxkcc_world_teleport(w, 1, feet) == FXKCC_OK);
        CHECK(fxkcc_world_character(w, 0, &st) == FXKCC_OK);
        CHECK(st.position.x == feet.x && st.position.y == feet.y && st.position.z == feet.z);
        CHECK(st.velocity.x == 0 && st.velocity.y == 0 && st.velocity.z == 0 && st.grounded);
        CHECK(fxkcc_world_render_position(w, 0, 0, &pose) == FXKCC_OK);
        CHECK(pose.x == feet.x && pose.z == feet.z);
        feet.x = FXKCC_FIXED(2000000);
        CHECK(fxkcc_world_teleport(w, 1, feet) == FXKCC_INVALID_ARGUMENT);
        CHECK(strstr(fxkcc_world_error(w), "working volume") != NULL);

        CHECK(fxkcc_world_remove_character(w, 2) == FXKCC_OK);
        CHECK(fxkcc_world_remove_character(w, 2) == FXKCC_NOT_FOUND);
        CHECK(fxkcc_world_character_count(w) == 2);
        CHECK(fxkcc_world_character(w, 1, &st) == FXKCC_OK && st.id == 3);
        run[0] = run[2];
        memset(&run[1], 0, sizeof run[1]);
        /* 1 runs now from rest: 0.9 m/s more a tick (45 m/s^2) for six ticks, then 6.2 m/s:
         * (0.9 + 1.8 + ... + 5.4 + 9 x 6.2) x 0.02 s = 1.494 m in 15 ticks. 3 stops. */
        for (t = 0; t < 15; ++t)
            CHECK(fxkcc_world_step(w, run, 2) == FXKCC_OK);
        CHECK(fxkcc_world_character(w, 0, &st) == FXKCC_OK);
        CHECK(near(st.position.x, -dec("1.494"), mm / 10));
    }
    fxkcc_world_destroy(w);
    fxkcc_world_destroy(NULL);
    {
        /* Recording: refused before build, after tick 0 and without recording; a session of 20
         * ticks with a rollback of 5 written as a scenario of 20 ticks (its files read back). */
        const char* tmp = getenv("TMPDIR");
        char path[1024];
        char text[4096];
        size_t n;
        FILE* f;
        static uint8_t snap[4096];
        fxkcc_input in;
        fxkcc_world* r = NULL;
        memset(&in, 0, sizeof in);
        if (tmp == NULL || tmp[0] == 0) tmp = "/tmp";
        CHECK(fxkcc_world_create(&r) == FXKCC_OK);
        CHECK(fxkcc_world_add_plane(r, 1, up, 0) == FXKCC_OK);
        feet.x = 0;
        feet.y = FXKCC_ONE / 1000 * 15;
        feet.z = 0;
        CHECK(fxkcc_world_add_character(r, 4, feet, NULL) == FXKCC_OK);
        CHECK(fxkcc_world_record(r) == FXKCC_INVALID_STATE);
        CHECK(strcmp(fxkcc_world_error(r), "record: build the world first") == 0);
        CHECK(fxkcc_world_build(r) == FXKCC_OK);
        CHECK(fxkcc_world_write_recording(r, tmp, "capi-recording") == FXKCC_INVALID_STATE);
        CHECK(fxkcc_world_record(r) == FXKCC_OK);
        in.stick_y = FXKCC_ONE;
        for (t = 0; t < 15; ++t) {
            if (t == 10) CHECK(fxkcc_world_snapshot(r, snap, sizeof snap) == FXKCC_OK);
            in.jump = t == 12;
            CHECK(fxkcc_world_step(r, &in, 1) == FXKCC_OK);
        }
        CHECK(fxkcc_world_restore(r, snap, fxkcc_world_snapshot_size(r)) == FXKCC_OK);
        in.stick_y = -FXKCC_ONE;
        for (t = 10; t < 20; ++t)
            CHECK(fxkcc_world_step(r, &in, 1) == FXKCC_OK);
        CHECK(fxkcc_world_write_recording(r, tmp, "Bad Name") == FXKCC_INVALID_ARGUMENT);
        CHECK(strstr(fxkcc_world_error(r), "not a scenario name") != NULL);
        CHECK(fxkcc_world_write_recording(r, "/nonexistent-fxkcc-folder", "capi-recording") ==
              FXKCC_INVALID_ARGUMENT);
        CHECK(fxkcc_world_write_recording(r, tmp, "capi-recording") == FXKCC_OK);
        snprintf(path, sizeof path, "%s/capi-recording.yaml", tmp);
        f = fopen(path, "rb");
        CHECK(f != NULL);
        if (f != NULL) {
            n = fread(text, 1, sizeof text - 1, f);
            text[n] = 0;
            fclose(f);
            CHECK(strstr(text, "\nticks: 20\n") != NULL);
            CHECK(strstr(text, "input: {csv: capi-recording.c4.csv}") != NULL);
            remove(path);
        }
        snprintf(path, sizeof path, "%s/capi-recording.c4.csv", tmp);
        f = fopen(path, "rb");
        CHECK(f != NULL);
        if (f != NULL) {
            n = fread(text, 1, sizeof text - 1, f);
            text[n] = 0;
            fclose(f);
            /* ticks 0..9 forward, 10..19 back: the rolled-back ticks 10..14 forward are gone */
            CHECK(strstr(text, "\n9,0,1,0\n10,0,-1,0\n") != NULL);
            CHECK(strstr(text, "\n19,0,-1,0\n") != NULL);
            CHECK(strstr(text, ",1\n") == NULL); /* the jump at 12 was rolled back */
            remove(path);
        }
        snprintf(path, sizeof path, "%s/capi-recording.checksums", tmp);
        CHECK(remove(path) == 0); /* written too: the checksum of each of the 20 ticks */
        {
            /* The same files in memory: the scenario first, the checksums last. */
            size_t count = 0;
            const char* name = NULL;
            const char* body = NULL;
            CHECK(fxkcc_world_recording_files(r, "capi-recording", &count) == FXKCC_OK);
            CHECK(count == 3);
            CHECK(fxkcc_world_recording_file(r, 0, &name, &body) == FXKCC_OK);
            CHECK(strcmp(name, "capi-recording.yaml") == 0 &&
                  strstr(body, "\nticks: 20\n") != NULL);
            CHECK(fxkcc_world_recording_file(r, 2, &name, &body) == FXKCC_OK);
            CHECK(strcmp(name, "capi-recording.checksums") == 0);
            CHECK(strncmp(body, "fxkcc-checksums 1\nhash xxh3-64\nticks 20\n0 ", 42) == 0);
            CHECK(fxkcc_world_recording_file(r, 3, &name, &body) == FXKCC_INVALID_ARGUMENT);
            CHECK(strcmp(fxkcc_world_error(r), "recording_file: no file 3 (the recording has 3)") ==
                  0);
            CHECK(fxkcc_world_recording_files(r, "Bad Name", &count) == FXKCC_INVALID_ARGUMENT);
        }
        CHECK(fxkcc_world_record(r) == FXKCC_INVALID_STATE); /* at tick 20 */
        fxkcc_world_destroy(r);
    }

    if (argc > 1) match_golden(argv[1]);
    if (failures == 0)
        printf("capi_test: all checks passed (behaviour %d)\n", (int)fxkcc_behaviour_version());
    return failures == 0 ? 0 : 1;
}
