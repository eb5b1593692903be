import Glibc
import Testing
import Vocabulary
import WireProtocol
@testable import SupervisorTesting

extension Processes {
    /// Every number the worker reads from a page is range-checked: an out-of-range one leaves its setting at the
    /// default (no memory, no CPU, exit code 1) instead of trapping the worker or wrapping around.
    @Suite struct PageNumbers {
        /// Loads `html` into a fresh worker and returns what it says after committing.
        func render(_ html: String) throws -> (driver: WorkerDriver, reply: FromWorker) {
            let driver = try WorkerDriver()
            _ = try driver.receive()
            try driver.send(.load(url: "app://local/numbers.html", replace: false))
            #expect(try driver.receive() == .fetch(url: "app://local/numbers.html", kind: .document))
            try driver.send(.wholeReply(status: 200, mime: "text/html", body: Array(html.utf8)))
            #expect(try driver.receive() == .didCommit(url: "app://local/numbers.html"))
            return (driver, try driver.receive())
        }

        @Test(arguments: [
            "memory=999999999999999999gb", "memory=999999999999999999kb; cpu=999999999999999999s",
            "cpu=9999999999999999us", "memory=1099511627777b", "memory=-5mb; cpu=-3s", "memory=99999999999999999999999gb",
        ])
        func anOutOfRangeRenderSettingIsIgnored(setting: String) throws {
            let (_, reply) = try render(page("Numbers", render: setting))
            #expect(reply == .didFinish(title: "Numbers"))
        }

        @Test(arguments: ["exit=4294967299", "exit=256", "exit=-1", "exit=999999999999999999"])
        func anOutOfRangeExitCodeIsTheDefault(fault: String) throws {
            let (driver, reply) = try render(page("Exit", fault: fault + "; when=rendered"))
            #expect(reply == .didFinish(title: "Exit"))
            #expect(try driver.exit() == .code(1))
        }
    }
}
