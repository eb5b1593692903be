/// Whether an iOS app could adopt a policy today with WebKit's public API, or WebKit itself would have to change.
/// A verdict that recommends a policy says which: a developer can ship a reload or a rebuild tomorrow, not a
/// private setting.
///
/// Checked against WebKit's headers (WebKit/WebKit, Source/WebKit/UIProcess/API/Cocoa): the termination callback
/// `webViewWebContentProcessDidTerminate:` is public (WKNavigationDelegate.h, iOS 9), as are `reload` and creating
/// a WKWebView; a title watchdog is an app's own timer and `evaluateJavaScript`. Foreground priority for a web
/// view's process is only the private `_clientNavigationsRunAtForegroundPriority` (iOS 13.4), formerly
/// `_alwaysRunsAtForegroundPriority` (WKWebViewConfigurationPrivate.h). No public API watches the process from its
/// launch, boosts it, or keeps spare processes for an app. WebKit suspends a hidden view's process by itself
/// (ProcessThrottler), short of the private foreground setting, and has a background CPU limit only on the Mac
/// (`WebProcess::updateCPULimit`, WebProcessCocoa.mm). A policy's choice on a hang is not weighed: WebKit tells
/// only the private `_webViewWebProcessDidBecomeUnresponsive:` and kills no process that has pages
/// (`WebProcessProxy::didBecomeUnresponsive`), so an app acts on a hang only through its own watchdog.
extension Policy {
    /// What in the policy no public API gives an app, in words; empty when an app can adopt it as it is.
    public var needsWebKitChanges: [String] {
        var needs: [String] = []
        if observe == .spawn { needs.append("observing the process from its launch") }
        let bands = [launchBand, hiddenBand]
        if bands.contains(.foreground) { needs.append("the private foreground-priority setting") }
        if bands.contains(.boosted) { needs.append("a boosted band") }
        // An app sets no band at all: any other that differs from WebKit's is WebKit's to change.
        let webKit = Policy.webkitDefault
        let other = [(launchBand, webKit.launchBand, "at launch"), (hiddenBand, webKit.hiddenBand, "when hidden")]
            .filter { band, webKits, _ in band != webKits && band != .foreground && band != .boosted }
        if !other.isEmpty {
            needs.append("a " + other.map { "\($0.0.rawValue) band \($0.2)" }.joined(separator: " and a "))
        }
        if spareWorkers > 0 || reuseWorkers { needs.append("spare processes") }
        if !suspends && hiddenBand != .foreground { needs.append("keeping hidden views' processes from suspension") }
        if cpuLimitPercent > 0 { needs.append("a background CPU limit on iOS") }
        return needs
    }

    /// One sentence: which of `policies` an app can adopt with public API, and which need WebKit changes and why.
    public static func adoption(_ policies: [Policy]) -> String {
        let adoptable = policies.filter { $0.needsWebKitChanges.isEmpty }.map(\.name)
        let webKit = policies.filter { !$0.needsWebKitChanges.isEmpty }
            .map { "\($0.name) (\($0.needsWebKitChanges.joined(separator: ", ")))" }
        var parts: [String] = []
        if !adoptable.isEmpty {
            parts.append("An app can adopt \(adoptable.joined(separator: ", ")) with public API (the termination "
                + "callback, reload(), a new WKWebView, a title watchdog)")
        }
        if !webKit.isEmpty {
            parts.append("\(webKit.joined(separator: ", ")) \(webKit.count == 1 ? "needs" : "need") WebKit changes")
        }
        return parts.isEmpty ? "" : parts.joined(separator: "; ") + "."
    }
}
