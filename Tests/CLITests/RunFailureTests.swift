import Foundation
import Glibc
import Testing
import WireProtocol
@testable import SupervisorTesting

extension Processes {
    /// A run that cannot deliver what it promised ends non-zero, saying what failed.
    @Suite struct RunFailures {
        /// A worker that renders every page but never applies typed input: the run ends with every input typed
        /// lost, says so, and exits 1 instead of 0.
        @Test func aRunThatLosesTypedInputSaysSoAndExits1() throws {
            let folder = try TemporaryFolder([:])
            let script = """
                #!/usr/bin/env python3
                import os, struct, sys
                def frame(tag, payload=b""):
                    return struct.pack("<IB", len(payload) + 1, tag) + payload
                def text(s):
                    return struct.pack("<I", len(s)) + s
                def out(b):
                    os.write(4, b)
                buffer = b""
                def receive():
                    global buffer
                    while len(buffer) < 4 or len(buffer) < 4 + struct.unpack("<I", buffer[:4])[0]:
                        chunk = os.read(3, 65536)
                        if not chunk:
                            sys.exit(0)
                        buffer += chunk
                    length = struct.unpack("<I", buffer[:4])[0]
                    body, buffer = buffer[4:4 + length], buffer[4 + length:]
                    return body[0], body[1:]
                out(frame(1, struct.pack("<iHB", os.getpid(), \(protocolVersion), 1)))
                while True:
                    tag, payload = receive()
                    if tag == 2:
                        url = payload[4:4 + struct.unpack("<I", payload[:4])[0]]
                        out(frame(5, text(url) + b"\\x00"))
                        tag, reply = receive()
                        status, = struct.unpack("<H", reply[:2])
                        mime = struct.unpack("<I", reply[2:6])[0]
                        total, = struct.unpack("<I", reply[6 + mime:10 + mime])
                        got = struct.unpack("<I", reply[10 + mime:14 + mime])[0]
                        while got < total:
                            tag, piece = receive()
                            got += struct.unpack("<I", piece[:4])[0]
                        out(frame(7, text(url)))
                        out(frame(8, text(b"Page")))
                    elif tag == 13:
                        out(frame(14, payload))
                    elif tag == 11:
                        out(frame(12, payload + text(b"Page")))
                    elif tag == 4:
                        sys.exit(0)
                """
            let worker = folder.path + "/forgetful.py"
            try script.write(toFile: worker, atomically: true, encoding: .utf8)
            chmod(worker, 0o755)
            let result = try runSupervisorBounded(
                ["run", "--worker", worker, "--loads", "3", "--dwell", "200", "--typing", "50", "--hang-timeout", "300"])
            #expect(result.status == 1, "\(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("supervisor: error: ") && lines[0].hasSuffix("typed inputs were lost"))
            #expect(result.stdout.contains(" lost"))
        }

        /// Descriptors running out during a run (here: the limit lowered under a running supervisor) are reported
        /// as the limit they are, not blamed on the worker binary.
        @Test func runningOutOfDescriptorsMidRunIsReportedAsTheLimit() throws {
            let folder = try TemporaryFolder([:])
            let log = folder.path + "/run.jsonl"
            let supervisor = try BackgroundSupervisor(
                ["run", "--views", "8", "--loads", "1000000", "--dwell", "20", "--log", log], folder: folder)
            #expect(eventually(within: 20) { logEvents(log).filter { $0["event"] as? String == "render" }.count >= 8 })
            let lowered = try runCommand("/usr/bin/prlimit", ["--pid", "\(supervisor.pid)", "--nofile=24:24"])
            try #require(lowered.status == 0, "\(lowered.stderr)")
            #expect(supervisor.wait() == 1)
            #expect(supervisor.stderr == "supervisor: error: cannot start a worker: this process may open no more descriptors (ulimit -n: 24)\n")
        }
    }
}
