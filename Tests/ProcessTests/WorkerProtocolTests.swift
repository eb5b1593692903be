import Glibc
import Testing
import Vocabulary
import WireProtocol

@testable import LogAnalysis
@testable import Browser
@testable import Process
@testable import System
@testable import SupervisorTesting

extension Processes {
    /// The worker's side of the protocol, message by message.
    @Suite struct WorkerProtocol {
        let html = Array(page("Probe ✓", render: "cpu=300ms").utf8)

        @Test func loadsFetchesRendersAndAnswersProbesWhileBusyAndIdle() throws {
            let driver = try WorkerDriver()
            #expect(try driver.receive() == .hello(pid: driver.worker.pid, version: protocolVersion, sandbox: .installed))
            try driver.send(.load(url: "app://local/probe.html", replace: false))
            #expect(try driver.receive() == .fetch(url: "app://local/probe.html", kind: .document))
            try driver.send(.wholeReply(status: 200, mime: "text/html", body: html))
            #expect(try driver.receive() == .didCommit(url: "app://local/probe.html"))
            // Mid-render (300 ms of CPU) the worker still answers, with no title yet.
            try driver.send(.titleQuery(id: 1))
            #expect(try driver.receive() == .title(id: 1, title: ""))
            try driver.send(.ping(seq: 9))
            #expect(try driver.receive() == .pong(seq: 9))
            #expect(try driver.receive() == .didFinish(title: "Probe ✓"))
            try driver.send(.titleQuery(id: 2))
            #expect(try driver.receive() == .title(id: 2, title: "Probe ✓"))
            try driver.send(.reload)
            #expect(try driver.receive() == .fetch(url: "app://local/probe.html", kind: .document))
            try driver.send(.shutdown)
            #expect(try driver.exit() == .code(0))
        }

        /// A worker kept for the next view must carry nothing of the last page into it: not its memory, not its
        /// title, not what the user typed.
        @Test func unloadGivesBackThePagesMemoryAndForgetsItsTitleAndInput() throws {
            let driver = try WorkerDriver()
            _ = try driver.receive()
            try driver.send(.load(url: "app://local/big.html", replace: false))
            _ = try driver.receive()
            try driver.send(.wholeReply(status: 200, mime: "text/html", body: Array(page("Big", render: "memory=64MB").utf8)))
            #expect(try driver.receive() == .didCommit(url: "app://local/big.html"))
            #expect(try driver.receive() == .didFinish(title: "Big"))
            try driver.send(.input(seq: 1, text: "secret"))
            #expect(try driver.receive() == .inputApplied(seq: 1, digest: fnv1a("secret")))
            let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
            let loaded = try Sys.residentPages(driver.worker.pid) * pageSize
            #expect(loaded >= 64 << 20)
            try driver.send(.unload)
            // Messages are handled in order, so this answer means the unload is done.
            try driver.send(.titleQuery(id: 1))
            #expect(try driver.receive() == .title(id: 1, title: ""))
            let unloaded = try Sys.residentPages(driver.worker.pid) * pageSize
            #expect(unloaded < loaded - (60 << 20))
            try driver.send(.input(seq: 2, text: "x"))
            #expect(try driver.receive() == .inputApplied(seq: 2, digest: fnv1a("x")))
        }

        /// A reused worker serves load after load in the same memory: what each page allocates comes back when the
        /// page goes (the worker brings its own allocator).
        @Test func aReusedWorkersMemoryStaysFlatOverManyLoads() throws {
            let driver = try WorkerDriver()
            _ = try driver.receive()
            let body = Array(page("Page " + String(repeating: "text ", count: 2000), render: "cpu=0ms").utf8)
            func serve(_ loads: Int) throws {
                for _ in 0..<loads {
                    try driver.send(.load(url: "app://local/page.html", replace: false))
                    _ = try driver.receive()
                    try driver.send(.wholeReply(status: 200, mime: "text/html", body: body))
                    _ = try driver.receive()
                    _ = try driver.receive()
                    try driver.send(.input(seq: 1, text: "typed"))
                    _ = try driver.receive()
                    try driver.send(.unload)
                }
            }
            let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
            try serve(50)
            let warm = try Sys.residentPages(driver.worker.pid) * pageSize
            try serve(500)
            let later = try Sys.residentPages(driver.worker.pid) * pageSize
            #expect(later - warm < 128 << 10, "grew \(later - warm) bytes over 500 loads")
        }

        @Test func aReloadBeforeAnyLoadIsIgnored() throws {
            let driver = try WorkerDriver()
            _ = try driver.receive()
            try driver.send(.reload)
            try driver.send(.ping(seq: 1))
            #expect(try driver.receive() == .pong(seq: 1))
        }

        @Test func acknowledgesTypedInputWithADigestOfEverythingTyped() throws {
            let driver = try WorkerDriver()
            _ = try driver.receive()
            try driver.send(.input(seq: 1, text: "he"))
            try driver.send(.input(seq: 2, text: "llo"))
            #expect(try driver.receive() == .inputApplied(seq: 1, digest: fnv1a("he")))
            #expect(try driver.receive() == .inputApplied(seq: 2, digest: fnv1a("hello")))
        }

        @Test func aFailedFetchIsAProvisionalFailure() throws {
            let driver = try WorkerDriver()
            _ = try driver.receive()
            try driver.send(.load(url: "app://local/missing.html", replace: false))
            _ = try driver.receive()
            try driver.send(.wholeReply(status: 404, mime: "text/plain", body: []))
            #expect(try driver.receive() == .didFailProvisional(error: "status 404 fetching app://local/missing.html"))
        }

        @Test func exitsWhenItsChannelIsClosed() throws {
            let driver = try WorkerDriver()
            _ = try driver.receive()
            driver.worker.channel.close()
            #expect(try driver.exit() == .code(0))
        }

        /// Its supervisor died before the worker could ask the kernel to kill it along: it must not live on.
        @Test func exitsWithoutHelloWhenItsParentIsNotTheOneNamed() throws {
            let driver = try WorkerDriver(parent: getppid())
            #expect(try driver.exit() == .code(0))
            var scratch = [UInt8](repeating: 0, count: 64)
            #expect(try driver.worker.channel.fill(using: &scratch) == false, "it said something")
        }

        func fnv1a(_ text: String) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
    }
}
