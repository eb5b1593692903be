import Glibc
import Testing

@testable import ProcFS
@testable import Text

/// /proc read in one place: the fields everyone uses, from lines the kernel writes.
@Suite struct ProcFSParsing {
    /// A command may hold spaces and parentheses: the fields after it are counted from its last `)`.
    @Test func aCommandWithParenthesesDoesNotShiftTheFields() throws {
        let line = "4242 (Web (Co) ntent) S 17 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 5 1 0 987654 123456 321 "
            + "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"
        let stat = try #require(ProcFS.Stat(Array(line.utf8)))
        #expect(stat.pid == 4242 && stat.command == "Web (Co) ntent" && stat.state == "S" && stat.parent == 17)
        #expect(stat.nice == 5 && stat.startTime == 987654 && stat.residentPages == 321)
        #expect(stat.isLive && !stat.isZombie)
    }

    /// A line cut short is not a process with zeros in it.
    @Test func aTruncatedLineIsNoStat() {
        #expect(ProcFS.Stat(Array("4242 (WebContent) S 17 4242".utf8)) == nil)
        #expect(ProcFS.Stat(Array("4242 WebContent S".utf8)) == nil)
    }

    @Test func thisProcessReadsAsItself() throws {
        let stat = try #require(ProcFS.stat(.current))
        #expect(stat.pid == getpid() && stat.parent == getppid() && stat.isLive)
        #expect(try #require(ProcFS.residentPages(.current)) > 0)
        #expect(try #require(ProcFS.status(.current)?.kilobytes("VmHWM")) > 0)
        #expect(ProcFS.threads(of: .current).contains(getpid()))
        #expect(ProcFS.oomScoreAdjust(getpid()) != nil)
        #expect(ProcFS.stat(.pid(Int32.max)) == nil)
    }

    /// Jetsam's guard against a recycled pid: a stat whose start time is not the running process's names
    /// another process, one that had this pid before.
    @Test func aPidWithAnotherStartTimeIsAnotherProcess() throws {
        let line = try #require(ProcFS.read("/proc/self/stat"))
        let current = try #require(ProcFS.Stat(line))
        #expect(current.isStillRunning)
        let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        let startField = try #require(fields.firstIndex { $0.elementsEqual(String(current.startTime).utf8) })
        var older = fields
        older[startField] = Array(String(current.startTime - 1).utf8)[...]
        let recycled = try #require(ProcFS.Stat(Array(older.joined(separator: [UInt8(ascii: " ")]))))
        #expect(recycled.pid == current.pid && recycled.startTime == current.startTime - 1)
        #expect(!recycled.isStillRunning)
    }
}
