import Glibc
import Testing

@testable import Scenario

/// What `run --keep-workers` checks before it starts (issue 34): a kernel that can read a held worker's end, and
/// one holder name per session file and user.
@Suite struct KeepWorkersChecks {
    @Test(arguments: ["5.10.0-28-amd64", "6.1.0", "6.14.9-arch1-1"])
    func aKernelBefore615IsNamedInOneLine(release: String) {
        #expect(KeepWorkersSettings.unsupported(kernelRelease: release)
            == "'--keep-workers' needs Linux 6.15 or later (PIDFD_INFO_EXIT); this kernel is \(release)")
    }

    @Test(arguments: ["6.15.0", "6.18.0-1-amd64", "7.0.0-rc1", "unknown"])
    func aKernelFrom615OnOrOneThatCannotBeReadIsLetThrough(release: String) {
        #expect(KeepWorkersSettings.unsupported(kernelRelease: release) == nil)
    }

    @Test func eachSessionPathHasItsOwnHolderNameForThisUser() {
        let name = KeepWorkersSettings.holderName(session: "/home/a/tabs.session")
        #expect(name.hasPrefix("supervisor-holder-\(getuid())-") && name.count == "supervisor-holder-\(getuid())-".count + 16)
        #expect(name == KeepWorkersSettings.holderName(session: "/home/a/tabs.session"))
        #expect(name != KeepWorkersSettings.holderName(session: "/home/a/tabs.session2"))
    }
}
