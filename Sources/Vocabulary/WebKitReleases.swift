/// Which WebKit an iOS release carries, and how that WebKit numbered its `ProcessTerminationReason`s: logs before
/// WebKit 614 (iOS 16) print `reason=3` where later ones print `reason=Crash`, and `requestTermination: reason=%d`
/// stayed a number until 2026. The enum grew by insertion, so a number means different reasons in different releases.
public enum WebKitRelease {
    /// The WebKit major version (the `6xx` of `Version.xcconfig`) of an iOS release, from the versions Safari's
    /// release notes give for each (Safari N ships with iOS N): iOS 12 to 26. Nil before iOS 12 and past what is known.
    public static func major(iOS major: Int, minor: Int) -> Int? {
        // Each row: the iOS major, then the minor from which each WebKit major ships.
        let table: [Int: [(minor: Int, webKit: Int)]] = [
            12: [(0, 606), (2, 607)], 13: [(0, 608), (4, 609)], 14: [(0, 610), (5, 611)], 15: [(0, 612), (4, 613)],
            16: [(0, 614), (4, 615)], 17: [(0, 616), (2, 617), (4, 618)], 18: [(0, 619), (2, 620), (4, 621)],
            26: [(0, 622), (2, 623), (4, 624)],
        ]
        return table[major]?.last { $0.minor <= minor }?.webKit
    }

    /// The iOS version an Apple build names (`19E258` is 15.4): its number counts majors from iOS 15's 19 (iOS 26
    /// follows 18 as 23), its letter the minor (A is .0). Nil for a build not of that form.
    public static func iOSVersion(build: String) -> (major: Int, minor: Int)? {
        let digits = build.prefix { $0.isASCII && $0.isNumber }
        guard let number = Int(digits), let letter = build.dropFirst(digits.count).first, letter.isASCII,
            letter.isUppercase, let ascii = letter.asciiValue
        else { return nil }
        let major = number < 23 ? number - 4 : number + 3
        return major >= 12 ? (major, Int(ascii) - 65) : nil
    }

    /// The iOS version an OS description names: `iPhone OS 15.4.1 (19E258)`, `iPadOS 16.1 (20B82)`, `iOS 17.4`,
    /// by its build where it gives one. Nil for another system's (`macOS 14.3 (23D56)`), whose builds count otherwise.
    public static func iOSVersion(os: String) -> (major: Int, minor: Int)? {
        guard ["iPhone OS", "iOS", "iPadOS"].contains(where: { os.hasPrefix($0 + " ") }) else { return nil }
        if let open = os.lastIndex(of: "("), let version = iOSVersion(build: String(os[os.index(after: open)...])) {
            return version
        }
        let numbers = os.drop { !$0.isNumber }.prefix { $0.isNumber || $0 == "." }.split(separator: ".").compactMap { Int($0) }
        guard let major = numbers.first else { return nil }
        return (major, numbers.count > 1 ? numbers[1] : 0)
    }

    /// The reasons in the order `major` declared them, so a number indexes them: WebKit's header as read in its
    /// history. Up to 612, seven (Crash is 3; an iOS 15.0 log shows `reason=3` for a crash); from 614, IdleExit and
    /// Unresponsive come before Crash (5) and ExceededProcessCountLimit after it; 620 adds the model process's
    /// reasons (WebKit PRs 31630 and 32278, August 2024), 621 the iframe crash (PR 37744, December 2024). 613's order
    /// is in no source read: nil, as for a version not known.
    public static func reasonNumbering(webKit major: Int?) -> [TerminationReason]? {
        guard let major, major >= 606 else { return nil }
        if major <= 612 {
            return [.exceededMemoryLimit, .exceededCPULimit, .requestedByClient, .crash, .navigationSwap,
                    .requestedByNetworkProcess, .requestedByGPUProcess]
        }
        guard major >= 614 else { return nil }
        let since614: [TerminationReason] = [
            .exceededMemoryLimit, .exceededCPULimit, .requestedByClient, .idleExit, .unresponsive, .crash,
            .exceededProcessCountLimit, .navigationSwap, .requestedByNetworkProcess, .requestedByGPUProcess,
        ]
        guard major >= 620 else { return since614 }
        let since620 = since614 + [.requestedByModelProcess, .gpuProcessCrashedTooManyTimes, .modelProcessCrashedTooManyTimes]
        return major >= 621 ? since620 + [.nonMainFrameWebContentProcessCrash] : since620
    }

    /// What `reason=<number>` means in WebKit `major`; with no version known, only the first three, which no
    /// release has moved.
    public static func reason(number: Int, webKit major: Int?) -> TerminationReason? {
        let order = reasonNumbering(webKit: major) ?? Array(reasonNumbering(webKit: 614)!.prefix(3))
        return order.indices.contains(number) ? order[number] : nil
    }
}
