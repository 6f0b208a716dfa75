#ifndef SESAME_TEST_PARALLELISM_H
#define SESAME_TEST_PARALLELISM_H

/// The number of test cases swift-testing runs at once in this process (set before `main` by
/// TestParallelism.c; see there).
int sesame_test_parallelization_width(void);

/// 1 if the caller set the width (the environment variable existed before `main`), else 0.
int sesame_test_parallelization_width_was_given(void);

#endif
