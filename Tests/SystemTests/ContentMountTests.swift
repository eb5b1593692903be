import Foundation
import Glibc
import Testing

@testable import System
@testable import SupervisorTesting

/// The content root is one file system: a mount point inside it is never crossed.
@Suite struct ContentMount {
    /// A proc file system mounted inside the root would serve the supervisor's own environment. The mount needs
    /// root, which this project's tests have here and in CI: a mount that fails fails the test, loudly, rather
    /// than let it pass without checking anything.
    @Test func aProcMountedInsideTheRootIsNotServed() throws {
        let folder = try TemporaryFolder(["index.html": page("Index")])
        try withExtendedLifetime(folder) {
            let target = folder.path + "/proc"
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
            let mounted = mount("proc", target, "proc", 0, nil)
            let reason = mounted == 0 ? "" : String(cString: strerror(errno))
            try #require(mounted == 0, "cannot mount proc at \(target) (\(reason)): this test must run as root")
            // Unmounted before the folder is removed, which must not walk into /proc.
            defer { umount2(target, Int32(MNT_DETACH)) }
            let content = try folder.provider
            let environ = content.fetch("app://local/proc/self/environ")
            // What a failure prints must not be the environment itself.
            let refused = String(decoding: environ.body, as: UTF8.self).contains("leads out of the content root")
            #expect(environ.status == 403)
            #expect(refused)
            #expect(content.fetch("app://local/proc/version").status == 403)
            #expect(content.fetch("app://local/index.html").status == 200)
            // The walk that stands in for openat2 on kernels before 5.6 does not cross the mount either.
            let root = try Sys.openDirectoryPath(folder.path)
            #expect(throws: SystemError("openat", errno: EXDEV)) {
                _ = try Sys.walkBeneath(root.rawValue, Array("proc/version".utf8)).rawValue
            }
            _ = try Sys.walkBeneath(root.rawValue, Array("index.html".utf8))
        }
    }
}
