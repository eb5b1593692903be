import Vocabulary

/// A crash report's termination reason, decoded: the kernel's namespace for who ended the process (xnu's
/// `bsd/sys/reason.h`: JETSAM 1, SIGNAL 2, SPRINGBOARD 10, RUNNINGBOARD 15 (once ASSERTIOND), WATCHDOG 20, WEBKIT
/// 31) and its code, which for RunningBoard and FrontBoard says why (Apple's "EXC_CRASH (SIGKILL)" page,
/// developer.apple.com/documentation/xcode/sigkill). Read from every shape reports have written it in:
/// `Namespace RUNNINGBOARD, Code 0xdead10cc` (iOS 13–14), `RUNNINGBOARD 0xdead10cc` and `FRONTBOARD 2343432205`
/// (iOS 15 on, the code in hex or decimal), `Namespace <0xF>, Code 0x8badf00d` (iOS 11, the namespace as its number),
/// `SIGNAL 9 Killed: 9`, and the JSON report's parts (`Namespace JETSAM, Code 7`).
package struct ReportedTermination: Equatable {
    package var namespace: String
    package var code: UInt64?

    package init?(_ text: String) {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        if words.first?.lowercased() == "namespace" { words.removeFirst() }
        guard var name = words.first, !name.isEmpty else { return nil }
        if name.hasPrefix("<0x"), name.hasSuffix(">"), let number = Int(name.dropFirst(3).dropLast(), radix: 16) {
            name = Self.names[number] ?? name
        }
        namespace = name.uppercased()
        words.removeFirst()
        if words.first?.lowercased() == "code" { words.removeFirst() }
        code = words.first.flatMap(Self.number)
    }

    /// `0xdead10cc` or `3735883980`.
    private static func number(_ word: String) -> UInt64? {
        let lower = word.lowercased()
        return lower.hasPrefix("0x") ? UInt64(lower.dropFirst(2), radix: 16) : UInt64(lower)
    }

    /// The namespaces reports print by number, by name.
    private static let names = [1: "JETSAM", 2: "SIGNAL", 10: "SPRINGBOARD", 15: "RUNNINGBOARD", 20: "WATCHDOG", 31: "WEBKIT"]

    /// What the code means, in Apple's words where it has them.
    package var meaning: String? {
        switch namespace {
        case "RUNNINGBOARD", "ASSERTIOND", "FRONTBOARD", "SPRINGBOARD", "WATCHDOG":
            switch code {
            case 0xdead10cc: "held a file or database lock while suspended"
            case 0x2182bad2: "a background task ran out of time"
            case 0x2182bad3: "a background URL session ran out of time"
            case 0x2182bad4: "a background fetch ran out of time"
            case 0x8badf00d: "the watchdog: too long without answering"
            case 0xc00010ff: "a thermal event"
            case 0xbaadca11: "no CallKit call reported for a PushKit push"
            case 0xbad22222: "a VoIP app resumed too often"
            case 0xbaddd15c: "killed to reclaim disk space"
            case 0xd00d2bad: "excessive use of system resources"
            default: nil
            }
        case "JETSAM": "killed for memory"
        case "SIGNAL": code.flatMap { Int32(exactly: $0) }.map(signalName)
        case "WEBKIT": "killed by WebKit's UI process (an invalid IPC message or an unanswered watchdog)"
        default: nil
        }
    }

    /// Ended by the system or by WebKit, never by a fault of its own: every RunningBoard, FrontBoard, watchdog and
    /// Jetsam code, a SIGKILL, and WebKit's own kills.
    package var isKill: Bool {
        switch namespace {
        case "RUNNINGBOARD", "ASSERTIOND", "FRONTBOARD", "SPRINGBOARD", "WATCHDOG", "JETSAM", "WEBKIT": true
        case "SIGNAL": code == 9
        default: false
        }
    }

    /// WebKit's UI process ended it (`OS_REASON_WEBKIT`): the supervisor's own kill, as ours of a worker that broke
    /// the protocol, not a crash and not a kill from outside.
    package var isWebKitKill: Bool { namespace == "WEBKIT" }

    /// `RUNNINGBOARD 0xdead10cc: held a file or database lock while suspended`.
    package var words: String {
        let number = code.map { namespace == "SIGNAL" ? " \($0)" : " 0x" + String($0, radix: 16) } ?? ""
        return namespace + number + (meaning.map { ": " + $0 } ?? "")
    }
}
