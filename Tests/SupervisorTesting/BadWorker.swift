import Glibc
import WireProtocol

/// A Python worker that misbehaves the first time it is launched in `folder` and execs the real worker
/// every later time.
func badWorker(_ behaviour: String, in folder: TemporaryFolder) throws -> String {
    let script = """
        #!/usr/bin/env python3
        import os, random, struct, sys, time
        try:
            os.mkdir("\(folder.path)/launched")
        except FileExistsError:
            os.execv("\(workerPath)", ["WebContent"])
        def frame(tag, payload=b""):
            return struct.pack("<IB", len(payload) + 1, tag) + payload
        def text(s):
            return struct.pack("<I", len(s)) + s
        hello = frame(1, struct.pack("<iHB", os.getpid(), \(protocolVersion), 1))
        out = lambda b: os.write(4, b)
        \(behaviour)
        time.sleep(30)
        """
    let path = folder.path + "/worker.py"
    try script.write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o755)
    return path
}
