import Foundation
import Glibc
import Testing

@testable import System
@testable import SupervisorTesting

extension Processes {
    /// A new output takes its name by a hard link, so that it never replaces a file made there meanwhile. File systems
    /// without hard links (vfat, exFAT, many FUSE and SMB mounts: link fails with EPERM) refused every new `--svg`,
    /// `--replay`, session and log; there a rename that refuses to replace does it, or one made once the name is free.
    /// Under `Processes`, so that no other test arms the faults' rules, which are one list for the process, meanwhile.
    @Suite struct NewOutputPlacement {
        static let kind = OutputKind(role: "the chart", name: "a chart", beginning: "<svg")

        /// Writes a new output in `folder` with `rules` armed on this thread; its name's content and the folder after.
        func place(_ rules: [SyscallFaults.Rule], in folder: TemporaryFolder) throws -> (content: String?, names: [String], failed: [Int]) {
            let path = folder.path + "/new.svg"
            let output = try OutputFile(path, kind: Self.kind)
            try output.write(Array("<svg/>".utf8))
            SyscallFaults.arm(rules)
            let committed = Result { () throws(FileError) in try output.commit() }
            let failed = SyscallFaults.disarm().map(\.failed)
            try committed.get()
            return (try? String(contentsOfFile: path, encoding: .utf8), names(folder), failed)
        }

        func rule(_ errno: Int32) -> SyscallFaults.Rule {
            var rule = SyscallFaults.Rule([.path], errno)
            rule.path = "new.svg"
            rule.times = 1
            return rule
        }

        @Test func withoutHardLinksANewOutputTakesItsNameByARenameThatReplacesNothing() throws {
            let folder = try TemporaryFolder([:])
            let placed = try place([rule(EPERM)], in: folder)
            #expect(placed.failed == [1])
            #expect(placed.content == "<svg/>" && placed.names == ["new.svg"])
        }

        @Test func whereThatRenameIsNotKeptEitherItIsMadeOnceTheNameIsFree() throws {
            let folder = try TemporaryFolder([:])
            let placed = try place([rule(EOPNOTSUPP), rule(EINVAL)], in: folder)
            #expect(placed.failed == [1, 1])
            #expect(placed.content == "<svg/>" && placed.names == ["new.svg"])
        }
    }
}
