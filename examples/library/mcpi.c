/* Monte Carlo pi through librngvet: the fraction of points (u, v) of the unit square inside the
 * quarter circle estimates pi/4; each replication's hits are Binomial(N, pi/4), so the error of
 * the mean over R replications is printed in units of its standard deviation.
 *
 *   mcpi [CONFIGURATION] [--points N] [--reps R] [--backend B] [--direct] [--print K]
 *        [--db FILE]
 *
 * CONFIGURATION: a canonical name or rngvet run's options in one argument (default: CERNLIB's
 * ranmar48 with its default seed). --print K writes the first K numbers (%.17g) and stops, for
 * comparison with `rngvet generate --format text-double`. --db FILE prints what an rngvet
 * database holds for the configuration. */
#include <math.h>
#include <rngvet/rngvet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char* what)
{
    fprintf(stderr, "mcpi: %s: %s\n", what, rngvet_last_error());
    return 1;
}

int main(int argc, char** argv)
{
    const char* configuration = "ranmar48/1/single/increment/1802,9373;zero=smallest";
    const char* db = NULL;
    long long points = 1000000, reps = 10, print = -1;
    rngvet_options options;
    rngvet_options_init(&options);
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--direct"))
            options.interface = RNGVET_DIRECT;
        else if (v && !strcmp(a, "--points"))
            points = atoll(argv[++i]);
        else if (v && !strcmp(a, "--reps"))
            reps = atoll(argv[++i]);
        else if (v && !strcmp(a, "--print"))
            print = atoll(argv[++i]);
        else if (v && !strcmp(a, "--backend"))
            options.backend = argv[++i];
        else if (v && !strcmp(a, "--db"))
            db = argv[++i];
        else if (a[0] != '-' || a[1] == '-')
            configuration = a;
        else {
            fprintf(stderr, "mcpi: unknown argument '%s'\n", a);
            return 2;
        }
    }
    if (points < 1 || reps < 2) {
        fprintf(stderr, "mcpi: --points must be at least 1 and --reps at least 2\n");
        return 2;
    }
    rngvet_stream* s = NULL;
    if (rngvet_open(&s, configuration, &options) != RNGVET_OK) return fail("open");
    if (print >= 0) {
        double x[100];
        for (long long done = 0; done < print;) {
            const size_t n = (size_t)(print - done < 100 ? print - done : 100);
            if (rngvet_u01(s, x, n) != RNGVET_OK) return fail("u01");
            for (size_t i = 0; i < n; ++i)
                printf("%.17g\n", x[i]);
            done += (long long)n;
        }
        rngvet_close(s);
        return 0;
    }
    printf("stream %s on %s (librngvet %s)\n", rngvet_stream_name(s), rngvet_stream_backend(s),
        rngvet_version());
    /* Points drawn 5 at a time: 10 numbers a call, as CORSIKA asks for them. */
    double sum = 0, sum2 = 0;
    for (long long r = 0; r < reps; ++r) {
        long long hits = 0;
        double u[10];
        for (long long p = 0; p < points; p += 5) {
            const int k = points - p < 5 ? (int)(points - p) : 5;
            if (rngvet_u01(s, u, (size_t)(2 * k)) != RNGVET_OK) return fail("u01");
            for (int j = 0; j < k; ++j)
                hits += u[2 * j] * u[2 * j] + u[2 * j + 1] * u[2 * j + 1] < 1.0;
        }
        const double estimate = 4.0 * (double)hits / (double)points;
        sum += estimate;
        sum2 += estimate * estimate;
    }
    const double pi = 3.14159265358979323846;
    const double mean = sum / (double)reps;
    const double sample_sd = sqrt((sum2 - sum * sum / (double)reps) / (double)(reps - 1));
    /* The known law: 4 * Binomial(N, pi/4) / N has variance 16 p (1 - p) / N. */
    const double sd = 4.0 * sqrt(pi / 4 * (1 - pi / 4) / (double)points) / sqrt((double)reps);
    printf("pi ~ %.9f over %lld x %lld points: error %+.3e = %+.2f sigma "
           "(sample sd %.3e, expected %.3e per replication)\n",
        mean, reps, points, mean - pi, (mean - pi) / sd, sample_sd, sd * sqrt((double)reps));
    if (db) {
        rngvet_battery_verdict v[16];
        size_t count = 0;
        if (rngvet_stored_verdicts(db, rngvet_stream_name(s), v, 16, &count) != RNGVET_OK)
            return fail("stored verdicts");
        if (count == 0) printf("%s holds no complete run of this configuration\n", db);
        for (size_t i = 0; i < count && i < 16; ++i)
            printf("%s: %d seeds, %d failed, %d suspect; this seed: %s (runs %s)\n", v[i].battery,
                v[i].seeds, v[i].seeds_failed, v[i].seeds_suspect, v[i].this_seed, v[i].run_ids);
    }
    rngvet_close(s);
    return 0;
}
