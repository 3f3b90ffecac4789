/* A CORSIKA-style caller of the CERNLIB entries (RMMAQD/RMMARD's C side) that refuses to start
 * on a stream the rngvet database has not validated.
 *
 *   vetted [--config CONFIGURATION] [--db FILE] [--require BATTERY] [--seed IJKL]
 *          [--ntot N] [--print K]
 *
 * The configuration is --config's (rngvet_cernlib_configure), else $RNGVET_CERNLIB_CONFIG, else
 * CERNLIB's ranmar48. With --db, before any number is drawn, rngvet_stored_verdicts reads what
 * the database holds for it (every seed of the configuration): the program stops with exit 3
 * when a battery failed on any seed, or when BATTERY (default smallcrush) has no complete run.
 * Then sequence 1 is set to IJKL after N numbers (when --seed is given) and K numbers (default
 * 10) are drawn 10 a call and printed (%.17g), for comparison with `rngvet generate --format
 * text-double`. */
#include <rngvet/rngvet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char* what)
{
    fprintf(stderr, "vetted: %s: %s\n", what, rngvet_last_error());
    return 1;
}

/* 0 when the database validates the configuration for use, else 3 (or 1 when it cannot be
   read), with the reason on standard error. */
static int vet(const char* db, const char* name, const char* require)
{
    rngvet_battery_verdict v[16];
    size_t count = 0;
    if (rngvet_stored_verdicts(db, name, v, 16, &count) != RNGVET_OK)
        return fail("stored verdicts");
    int required_seen = 0;
    for (size_t i = 0; i < count && i < 16; ++i) {
        fprintf(stderr, "vetted: %s: %d seeds, %d failed, %d suspect (runs %s)\n", v[i].battery,
            v[i].seeds, v[i].seeds_failed, v[i].seeds_suspect, v[i].run_ids);
        if (v[i].seeds_failed > 0) {
            fprintf(stderr,
                "vetted: refusing %s: %s failed on %d of %d seeds in %s; choose a validated "
                "configuration (RNGVET_CERNLIB_CONFIG or --config)\n",
                name, v[i].battery, v[i].seeds_failed, v[i].seeds, db);
            return 3;
        }
        if (!strcmp(v[i].battery, require) && v[i].seeds > 0) required_seen = 1;
    }
    if (!required_seen) {
        fprintf(
            stderr, "vetted: refusing %s: %s has no complete %s run of it\n", name, db, require);
        return 3;
    }
    return 0;
}

int main(int argc, char** argv)
{
    const char *config = NULL, *db = NULL, *require = "smallcrush";
    long long seed = -1, ntot = 0, print = 10;
    for (int i = 1; i < argc; i += 2) { /* every option takes a value */
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v && !strcmp(a, "--config"))
            config = v;
        else if (v && !strcmp(a, "--db"))
            db = v;
        else if (v && !strcmp(a, "--require"))
            require = v;
        else if (v && !strcmp(a, "--seed"))
            seed = atoll(v);
        else if (v && !strcmp(a, "--ntot"))
            ntot = atoll(v);
        else if (v && !strcmp(a, "--print"))
            print = atoll(v);
        else {
            fprintf(stderr, "vetted: unknown argument '%s'\n", a);
            return 2;
        }
    }
    if (print < 0 || ntot < 0 || ntot > 2000000000000000000LL || seed > 900000000) {
        fprintf(stderr,
            "vetted: --print must be non-negative, --ntot in 0..2*10^18, --seed at most "
            "900000000\n");
        return 2;
    }
    if (config && rngvet_cernlib_configure(config) != RNGVET_OK) return fail("configure");
    const char* name = rngvet_cernlib_configuration();
    if (!name) return fail("configuration");
    fprintf(stderr, "vetted: stream %s\n", name);
    if (db) {
        const int verdict = vet(db, name, require);
        if (verdict != 0) return verdict;
    }
    if (seed >= 0
        && rngvet_cernlib_set(1, (int)seed, (int)(ntot % 1000000000), (int)(ntot / 1000000000))
            != RNGVET_OK)
        return fail("RMMAQD");
    double rvec[10];
    for (long long done = 0; done < print; done += 10) {
        const int n = print - done < 10 ? (int)(print - done) : 10;
        if (rngvet_cernlib_next(rvec, n, 1) != RNGVET_OK) return fail("RMMARD");
        for (int i = 0; i < n; ++i)
            printf("%.17g\n", rvec[i]);
    }
    return 0;
}
