import Vocabulary

/// Reads the messages WebKit (in the host app), RunningBoard, the kernel and forwarded WebContent lines write, in
/// every wording IOSLogFormats.md lists, and says what each means as observations. Lenient by design: markers are
/// looked for anywhere in the message, so relay prefixes, pointers and reworded tails do not matter.
package enum WebKitMessage {
    package static func observe(_ m: Span<UInt8>, into out: inout [Observation]) {
        if m.contains(M.webProcessProxy) {
            webProcessProxy(m, &out)
        } else if m.contains(M.processCache) {
            let pid = bracketPID(m)
            // A process leaving the cache is shut down: its end is no incident.
            if m.contains(M.evictingFromCache) {
                out.append(Observation(.teardown, pid: pid, process: .webContent))
            } else if m.contains(M.addedToCache) || m.contains(M.checkingBeforeCaching) {
                out.append(Observation(.cached, pid: pid, process: .webContent))
            } else if m.contains(M.takenFromCache) {
                out.append(Observation(.reused, pid: pid, process: .webContent))
            }
        } else if m.contains(M.gpuProcessProxy) {
            if m.contains(M.gpuProcessExited) || m.contains(M.didClose) {
                out.append(Observation(.gpuExited, pid: bracketPID(m), process: .gpu))
            }
        } else if m.contains(M.pageProxy) {
            pageProxy(m, &out)
        } else if m.contains(M.processThrottler) {
            let pid = bracketPID(m) ?? m.number(after: M.didConnectToProcessOpen)
            if m.contains(M.didConnectToProcess) {
                out.append(Observation(.launch, pid: pid))
            } else if m.contains(M.didDisconnectFromProcess) {
                out.append(Observation(.teardown, pid: pid))
            } else if m.contains(M.sendPrepareToSuspendIPC) {
                out.append(Observation(.preparingToSuspend, pid: pid, process: .webContent))
            } else if m.contains(M.processReadyToSuspend) || m.contains(M.prepareToSuspendTimeoutTimerFired) {
                out.append(Observation(.suspended, pid: pid, process: .webContent))
            }
        } else if m.contains(M.processAssertion) {
            assertion(m, &out)
        } else if m.contains(M.acquiringAssertion) {
            var observation = Observation(.assertionError, pid: m.number(after: M.targetProcess))
            observation.error = error(in: m)
            if observation.error != nil { out.append(observation) }
        } else if let at = m.index(of: M.webKitService) {
            runningBoard(m, at: at, &out)
        } else {
            other(m, &out)
        }
    }

    private static func webProcessProxy(_ m: Span<UInt8>, _ out: inout [Observation]) {
        let pid = bracketPID(m) ?? m.number(after: M.withPid)
        func add(_ kind: Observation.Kind, _ cause: TerminationCause? = nil, number: Int? = nil) {
            var observation = Observation(kind, pid: pid, process: .webContent)
            observation.cause = cause
            observation.number = number
            out.append(observation)
        }
        if m.contains(M.didFinishLaunching) {
            add(m.contains(M.failedToLaunch) || m.contains(M.invalidConnection) ? .launchFailed : .launch)
        } else if m.contains(M.gpuProcessExited) {
            var observation = Observation(.gpuExited, pid: nil, process: .gpu)
            observation.cause = reason(in: m).cause
            out.append(observation)
        } else if m.contains(M.didExceedMemoryFootprintThreshold) {
            add(.memoryWarning)
        } else if m.contains(M.didExceed) {
            // Over the CPU limit with a visible page, audio or capture, WebKit only logs; on the Mac it may suspend.
            if m.contains(M.notTerminating) {
                add(.identity)
            } else if m.contains(M.suspending) {
                add(.suspended)
            } else {
                add(.terminated, .named(m.contains(M.cpu) ? .exceededCPULimit : .exceededMemoryLimit))
            }
        } else if m.contains(M.didClose) {
            add(.terminated, .crash)
        } else if m.contains(M.processDidTerminateOrFailed) || m.contains(M.processTerminated) {
            let (cause, number) = reason(in: m)
            add(.terminated, cause, number: number)
        } else if m.contains(M.didBecomeUnresponsive) {
            add(.unresponsive)
        } else if m.contains(M.didBecomeResponsive) {
            add(.responsive)
        } else if m.contains(M.requestTermination) || m.contains(M.shutDown) || m.contains(M.invalidMessage) {
            add(.teardown)
        } else {
            add(.identity)
        }
    }

    private static func pageProxy(_ m: Span<UInt8>, _ out: inout [Observation]) {
        let before = out.count
        defer {
            if let page = m.number(after: M.pageProxyID) { for i in before..<out.count { out[i].page = page } }
        }
        let pid = bracketPID(m) ?? m.number(after: M.pidParen) ?? m.number(after: M.webPID)
        if m.contains(M.processDidTerminate) {
            var terminated = Observation(.terminated, pid: pid, process: .webContent)
            (terminated.cause, terminated.number) = reason(in: m)
            out.append(terminated)
            out.append(Observation(.callback, pid: pid, process: .webContent))
        } else if m.contains(M.tryReload) {
            out.append(Observation(m.contains(M.notReloading) ? .reloadGaveUp : .callback, pid: pid, process: .webContent))
        } else if M.render.contains(where: { m.contains($0) }) {
            out.append(Observation(.render, pid: pid, process: .webContent))
        } else if m.contains(M.enterBackground) {
            out.append(Observation(.appBackground, pid: nil))
        } else if m.contains(M.enterForeground) || m.contains(M.becomeActive) {
            out.append(Observation(.appForeground, pid: nil))
        } else {
            out.append(Observation(.pageBound, pid: pid, process: .webContent))
        }
    }

    /// ProcessAssertion in all its wordings: `Failed to acquire RBS assertion '<name>' for process with PID=<pid>,
    /// error: ...`, `acquireSync Successfully took ...`, iOS 14's `PID <pid>` without `=`, iOS 11–13's
    /// `ProcessAssertion() PID <host> acquiring assertion for process with PID <target>, name '<name>'` and
    /// `Unable to acquire assertion`, and the watchdog's `for process because PID is invalid`.
    private static func assertion(_ m: Span<UInt8>, _ out: inout [Observation]) {
        let kind: Observation.Kind
        if m.contains(M.failedToAcquire) || m.contains(M.unableToAcquire) {
            kind = .assertionFailed
        } else if m.contains(M.successfullyTook) {
            kind = .assertionTaken
        } else if m.contains(M.cquiring) {
            kind = .assertionAttempt
        } else {
            return
        }
        var pid: Int?
        if let at = m.index(of: M.processWithPID) {
            var i = at + M.processWithPID.count
            if m.byte(i) == 61 { i += 1 }
            pid = m.number(at: m.skipping(32, from: i))?.value
        }
        let name = assertionName(m)
        var observation = Observation(kind, pid: pid, process: name?.process ?? .unknown)
        observation.assertion = name
        if kind == .assertionFailed { observation.error = error(in: m) }
        out.append(observation)
    }

    /// The kernel's memorystatus, forwarded WebContent lines, the app's own lifecycle, the app's termination.
    private static func other(_ m: Span<UInt8>, _ out: inout [Observation]) {
        if m.contains(M.wkErrorDomain) && m.number(after: M.codeEquals) == 2 || m.contains(M.webContentProcessTerminated) {
            // WebKit's error for a navigation whose process ended (`WKErrorWebContentProcessTerminated`, 2), as the
            // app logs it, or as a plugin names it (webview_flutter's `webContentProcessTerminated`).
            out.append(Observation(.navigationTerminated, pid: nil))
        } else if m.contains(M.terminationSnapshot) {
            // iOS 9–10's kernel, `jetsam: kernel termination snapshot being created`: Jetsam killed now, naming no one.
            out.append(Observation(.jetsamSnapshot, pid: nil))
        } else if m.contains(M.nowTerminated), m.contains(Marker.webContent) || m.contains(M.webProcessOpen) {
            // iOS 9–10, `process com.apple.WebKit.WebContent[4107] is now terminated`: an end, its cause unsaid.
            let pid = m.number(after: M.webContentOpen) ?? m.number(after: M.webProcessOpen)
            out.append(Observation(.terminated, pid: pid, process: .webContent))
        } else if m.contains(M.terminationDelegate) {
            // The app's own line from its WKNavigationDelegate method; it says what the app did there: a call of
            // reload, not the letters anywhere ("not reloading").
            out.append(Observation(.appCallback, pid: nil))
            if M.reloadCalls.contains(where: { m.contains($0) }) { out.append(Observation(.appReload, pid: nil)) }
        } else if m.contains(M.memorystatus) || m.contains(M.jetsam), let pid = m.number(after: M.pidSpace) {
            out.append(Observation(.killed, pid: pid))
        } else if let at = m.index(of: M.forwardedWebContent), m.byte(at - 1) != 46 {
            var i = at + M.forwardedWebContent.count
            if m.matches(M.forwardedPIDEquals, at: i) || m.matches(M.pidEquals, at: i) { i += M.pidEquals.count }
            out.append(Observation(.alive, pid: m.number(at: i)?.value, process: .webContent))
        } else if let at = m.index(of: M.forwardedWP) {
            out.append(Observation(.alive, pid: m.number(at: at + M.forwardedWP.count)?.value, process: .webContent))
        } else if m.contains(M.appIdentity) || m.contains(M.applicationIdentity) {
            if m.contains(M.reportedByLaunchd) || m.contains(M.removingAssertionsForTerminated) {
                out.append(Observation(.hostQuit, pid: m.number(after: M.identityEnd)))
            }
        } else if M.hostQuits.contains(where: { m.contains($0) }) {
            out.append(Observation(.hostQuit, pid: nil))
        } else if m.contains(M.enterBackground) {
            out.append(Observation(.appBackground, pid: nil))
        } else if m.contains(M.enterForeground) || m.contains(M.becomeActive) {
            out.append(Observation(.appForeground, pid: nil))
        }
    }

    // MARK: - Fields

    /// `[PID=4107]`, `[pageProxyID=7, webPageID=8, PID=4107]`, `[PID=61579, throttler=0x...]`.
    package static func bracketPID(_ m: Span<UInt8>) -> Int? {
        m.number(after: M.pidEquals)
    }

    /// `'WebProcess Foreground Assertion'`: spaces are ignored, because hard wraps eat them (`'Web` / `content ...`).
    private static func assertionName(_ m: Span<UInt8>) -> AssertionName? {
        guard let open = m.index(of: 39, from: 0), let close = m.index(of: 39, from: open + 1) else { return nil }
        let name = m.extracting(open + 1..<close)
        let role: AssertionName.Role =
            name.contains(M.watchdog) ? .watchdog
            : name.contains(M.foreground) || name.contains(M.visibility) ? .foreground
            : name.contains(M.suspended) ? .suspended : name.contains(M.background) ? .background : .other
        let process: ProcessKind =
            name.contains(M.webProcessName) || name.contains(M.webContentName) || name.contains(M.webContentWrapped)
            ? .webContent
            : name.contains(M.networking) ? .network : name.contains(M.gpu) ? .gpu : .unknown
        return AssertionName(role: role, process: role == .watchdog ? .unknown : process)
    }

    /// `Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist"` or the NSError dump's
    /// `domain: RBSAssertionErrorDomain; code: 2; reason: "..."`; nil for `error: (null)`.
    package static func error(in m: Span<UInt8>) -> AssertionError? {
        guard let name = m.index(of: M.domainEquals).map({ $0 + M.domainEquals.count })
            ?? m.index(of: M.domainColon).map({ $0 + M.domainColon.count })
        else {
            return m.contains(M.doesNotExist) ? AssertionError(domain: .other, code: nil, reason: .doesNotExist) : nil
        }
        let domain: AssertionError.Domain =
            m.matches(M.rbsAssertionDomain, at: name) ? .assertion : m.matches(M.rbsServiceDomain, at: name) ? .service
            : m.matches(M.rbsRequestDomain, at: name) ? .request : .other
        let code = m.number(after: M.codeEquals, from: name) ?? m.number(after: M.codeColon, from: name)
        let rest = m.extracting(name..<m.count)
        let reason: AssertionError.Reason =
            rest.contains(M.doesNotExist) || rest.contains(M.noSuchProcess) ? .doesNotExist
            : rest.contains(M.inThePast) ? .invalidationInPast
            : rest.contains(M.notRunning) ? .notRunning : rest.contains(M.entitle) ? .entitlement : .other
        return AssertionError(domain: domain, code: code, reason: reason)
    }

    /// `reason=Crash`, `reason=3`, `reason 4`.
    private static func reason(in m: Span<UInt8>) -> (cause: TerminationCause, number: Int?) {
        guard let at = m.index(of: M.reason) else { return (.unknown, nil) }
        var i = at + M.reason.count
        if m.byte(i) == 61 || m.byte(i) == 32 { i += 1 }
        if let (value, _) = m.number(at: i) { return (.numeric, value) }
        for (name, cause) in M.causes where m.matches(name, at: i) { return (cause, nil) }
        return (.unknown, nil)
    }

    private typealias M = Words
}

/// The words `WebKitMessage` looks for: WebKit's own, where the iOS log writer prints them too, from their one home.
enum Words {
    private typealias W = WebKitWording
    package static let webProcessProxy = bytes(W.webProcessProxy)
    package static let processCache = bytes(W.processCache)
    package static let checkingBeforeCaching = bytes(W.checkingBeforeCaching)
    package static let addedToCache = bytes(W.addedToCache)
    package static let takenFromCache = bytes(W.takenFromCache)
    package static let evictingFromCache = bytes(W.evictingFromCache)
    package static let gpuProcessProxy = bytes("GPUProcessProxy")
    package static let pageProxy = bytes("PageProxy")
    package static let processThrottler = bytes(W.processThrottler)
    package static let processAssertion = bytes(W.processAssertion)
    package static let acquiringAssertion = bytes("acquiring assertion")
    package static let webKitService = bytes("xpcservice<com.apple.WebKit.")
    package static let didFinishLaunching = bytes(W.didFinishLaunching)
    package static let failedToLaunch = bytes(W.failedToLaunch)
    package static let invalidConnection = bytes(W.invalidConnection)
    package static let gpuProcessExited = bytes("gpuProcessExited")
    package static let didExceed = bytes("didExceed")
    package static let didExceedMemoryFootprintThreshold = bytes(W.didExceedMemoryFootprintThreshold)
    package static let notTerminating = bytes("not terminating")
    package static let suspending = bytes("Suspending")
    package static let cpu = bytes("CPU")
    package static let didClose = bytes(W.didClose)
    package static let processDidTerminateOrFailed = bytes(W.processDidTerminateOrFailedToLaunch)
    package static let processTerminated = bytes("processTerminated")
    package static let didBecomeUnresponsive = bytes(W.didBecomeUnresponsive)
    package static let didBecomeResponsive = bytes(W.didBecomeResponsive)
    package static let requestTermination = bytes(W.requestTermination)
    package static let shutDown = bytes(W.shutDown)
    package static let invalidMessage = bytes("InvalidMessage")
    /// Both `processDidTerminate` and `dispatchProcessDidTerminate`.
    package static let processDidTerminate = Array(bytes(W.processDidTerminate).dropFirst())
    package static let tryReload = bytes(W.tryReloadAfterProcessTermination)
    package static let notReloading = bytes("not reloading")
    package static let render: [[UInt8]] = [
        W.didFinishDocumentLoad, W.didFinishLoadForFrame, "didFirstVisuallyNonEmptyLayout", "didFirstLayout",
        "didReachLayoutMilestone", "didFirstMeaningfulPaint",
    ].map(bytes)
    package static let didConnectToProcess = bytes(W.didConnectToProcess)
    package static let didConnectToProcessOpen = bytes(W.didConnectToProcess) + bytes("(")
    package static let didDisconnectFromProcess = bytes(W.didDisconnectFromProcess)
    package static let sendPrepareToSuspendIPC = bytes(W.sendPrepareToSuspendIPC)
    package static let processReadyToSuspend = bytes(W.processReadyToSuspend)
    package static let prepareToSuspendTimeoutTimerFired = bytes(W.prepareToSuspendTimeoutTimerFired)
    package static let failedToAcquire = bytes(W.failedToAcquire)
    package static let unableToAcquire = bytes("Unable to acquire")
    package static let successfullyTook = bytes(W.successfullyTook)
    package static let cquiring = bytes("cquiring")
    package static let processWithPID = bytes("with PID")
    package static let targetProcess = bytes("target process ")
    package static let withPid = bytes("with pid ")
    package static let pidEquals = bytes(W.pidEquals)
    package static let pidParen = bytes("(pid ")
    package static let webPID = bytes("webPID =")
    package static let pidSpace = bytes("pid ")
    package static let identityEnd = bytes(">:")
    package static let reportedByLaunchd = bytes(W.reportedByLaunchd)
    package static let trackingProcess = bytes("tracking process")
    package static let calculatedStateFor = bytes(W.calculatedStateFor)
    package static let setJetsamPriority = bytes(W.setJetsamPriority)
    package static let role = bytes(W.role)
    package static let pageProxyID = bytes(W.pageProxyID)
    package static let terminationDelegate = bytes("webViewWebContentProcessDidTerminate")
    package static let wkErrorDomain = bytes("WKErrorDomain")
    package static let terminationSnapshot = bytes("termination snapshot")
    package static let nowTerminated = bytes("is now terminated")
    package static let webContentOpen = bytes("WebContent[")
    /// WebKit2's name for its content process on OS X 10.8 and before (`Identifier: com.apple.WebProcess`).
    package static let webProcessOpen = bytes("WebProcess[")
    package static let webContentProcessTerminated = bytes("webContentProcessTerminated")
    package static let reloadCalls = [bytes("reload()"), bytes("reload]")]
    package static let terminatingWith = bytes("Terminating with description")
    package static let explanation = bytes("explanation:")
    package static let contextCode = bytes(" code:")
    package static let contextKeys = [" reportType:", " maxTerminationResistance:", " domain:", " code:"].map { Array($0.utf8) }
    package static let removingAssertionsForTerminated = bytes("Removing assertions for terminated process")
    package static let appIdentity = bytes("[app<")
    package static let applicationIdentity = bytes("[application<")
    package static let gpu = bytes("GPU")
    package static let networking = bytes("Network")
    package static let memorystatus = bytes("memorystatus")
    package static let jetsam = bytes("jetsam")
    package static let forwardedWebContent = bytes("WebContent[")
    package static let forwardedWP = bytes("WP[")
    /// `WebContent[pid=4107, processIdentifier=12]`: lower case, where WebKit's own lines write `[PID=4107]`.
    package static let forwardedPIDEquals = bytes("pid=")
    package static let enterBackground = bytes("nterBackground")
    package static let enterForeground = bytes("nterForeground")
    package static let becomeActive = bytes("BecomeActive")
    package static let hostQuits = ["WillTerminate", "Terminating app", "Terminated due to signal", "Message from debugger: Terminated"]
        .map { Array($0.utf8) }
    package static let watchdog = bytes("Watchdog")
    package static let foreground = bytes("Foreground")
    package static let visibility = bytes("visibility")
    package static let suspended = bytes("Suspended")
    package static let background = bytes("Background")
    package static let webProcessName = bytes("WebProcess")
    package static let webContentName = bytes("Web content")
    package static let webContentWrapped = bytes("Webcontent")
    package static let domainEquals = bytes("Domain=")
    package static let domainColon = bytes("domain: ")
    package static let rbsAssertionDomain = bytes("RBSAssertionErrorDomain")
    package static let rbsServiceDomain = bytes("RBSServiceErrorDomain")
    package static let rbsRequestDomain = bytes("RBSRequestErrorDomain")
    package static let codeEquals = bytes("Code=")
    package static let codeColon = bytes("code: ")
    package static let doesNotExist = bytes("does not exist")
    package static let noSuchProcess = bytes("No such process")
    package static let inThePast = bytes("in the past")
    package static let notRunning = bytes("not running")
    package static let entitle = bytes("entitle")
    package static let reason = bytes("reason")
    /// WebKit's names for its reasons (the writer prints them), and older WebKits' names for the memory limit.
    package static let causes: [([UInt8], TerminationCause)] =
        TerminationReason.allCases.filter { $0.webKitName != W.crash.description }.map { (Array($0.webKitName.utf8), .named($0)) }
        + [(bytes(W.crash), .crash)]
        + ["ExceededInactiveMemoryLimit", "ExceededActiveMemoryLimit"].map { (bytes($0), .named(.exceededMemoryLimit)) }
}
