import TestParallelism

/// How many test cases this run executes at once: what `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH`
/// says, which Tests/Support/TestParallelism sets before the run starts unless the caller did.
public enum ParallelizationWidth {
    /// The width in effect; 0 if the variable is missing or not a number.
    public static var current: Int { Int(sesame_test_parallelization_width()) }
    /// Whether the caller chose the width (the variable was set before the run).
    public static var wasGiven: Bool { sesame_test_parallelization_width_was_given() != 0 }
    /// The width the run gets when the caller does not choose: four per CPU, 4 to 64.
    public static func defaultWidth(cpus: Int) -> Int { min(64, max(4, 4 * cpus)) }
}
