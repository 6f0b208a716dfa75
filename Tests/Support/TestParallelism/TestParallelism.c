// How many test cases run at once in `swift test`.
//
// swift-testing runs every test case of every suite concurrently by default. The suites here
// start real servers, PostgreSQL databases, headless Chromium and child processes, so on a
// two-core machine some 350 cases at once spent their time switching threads, and their
// requests ran into 60 s timeouts. swift-testing bounds the width with the environment variable
// SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH, read when the run starts, after the test
// process's static constructors: this one sets it, unless the caller already did, to four test
// cases per online CPU (8 on two cores, the CI machine; at least 4, at most 64). So plain
// `swift test` behaves the same on a laptop and in CI, and
// `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 swift test` still runs one case at a time.
#include "TestParallelism.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const widthVariable = "SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH";

static int widthWasGiven = 0;

int sesame_test_parallelization_width_was_given(void) { return widthWasGiven; }

int sesame_test_parallelization_width(void) {
    const char *value = getenv(widthVariable);
    return value ? atoi(value) : 0;
}

__attribute__((constructor)) static void sesame_bound_test_parallelization(void) {
    if (getenv(widthVariable) != NULL) {
        widthWasGiven = 1;
        return;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    long width = 4 * (cpus > 0 ? cpus : 1);
    if (width < 4) width = 4;
    if (width > 64) width = 64;
    char text[24];
    snprintf(text, sizeof text, "%ld", width);
    setenv(widthVariable, text, 0);
}
