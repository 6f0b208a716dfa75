import Foundation
import Testing
import TestSupport

/// The test run itself: `swift test` runs a bounded number of test cases at once
/// (Tests/Support/TestParallelism), so the suites' servers, databases and browsers do not
/// starve one another on a small machine.
@Suite("swift test runs a bounded number of test cases at once")
struct TestRunWidthTests {
    @Test("the width is set before the run: four per online CPU (4 to 64) unless the caller chose one")
    func widthIsBounded() {
        let width = ParallelizationWidth.current
        #expect(width >= 1, "SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH is not set: the constructor did not run")
        if !ParallelizationWidth.wasGiven {
            let cpus = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
            #expect(width == ParallelizationWidth.defaultWidth(cpus: cpus))
        }
    }
}
