import Glibc

/// A termination status's name, as the event log writes a death's `status`, a kill's `verdict` and a
/// termination callback's `status`.
public enum TerminationKind: String, Sendable, CaseIterable {
    case normal, abnormal, killed, crashed
    case launchFailed = "launch-failed"
    case protocolViolation = "protocol-violation"
    case unresponsive
    case sandboxViolation = "sandbox-violation"
}

/// How a process ended, as the kernel reports it: an exit with a code, or a signal.
public enum ProcessExit: Equatable, Sendable {
    case code(Int)
    case signal(Int)

    /// How it ended, after the process's name: "exited with status 1", "was killed by signal 9".
    public var wording: String {
        switch self {
        case .code(let code): "exited with status \(code)"
        case .signal(let signal): "was killed by signal \(signal)"
        }
    }
}

/// "SIGKILL" for 9, and so on; the number for signals without a common name.
public func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
        SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
        SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGSYS: "SIGSYS",
    ]
    return names[signal] ?? "signal \(signal)"
}

/// Why a worker ended, as WebKit names why it ended a WebContent process: all 14 of its `ProcessTerminationReason`s
/// (Source/WebKit/Shared/ProcessTerminationReason.h, named by `processTerminationReasonToString`), the last six
/// WebKit's alone; and Chromium's names for two kills WebKit cannot tell from a crash (`base::TerminationStatus` in
/// base/process/kill.h).
public enum TerminationReason: String, Sendable, CaseIterable {
    /// Over the policy's memory limit, which the supervisor enforces from /proc.
    case exceededMemoryLimit = "exceeded-memory-limit"
    case exceededCPULimit = "exceeded-cpu-limit"
    /// The app asked: a policy that replaces a hung worker, or a shutdown the worker did not finish.
    case requestedByClient = "requested-by-client"
    /// It had no page left to serve and was told to exit.
    case idleExit = "idle-exit"
    /// Killed for owing an answer past the hang timeout.
    case unresponsive
    /// It ended on its own, broke the protocol, failed to launch, or was killed by a signal nobody claimed.
    case crash
    case exceededProcessCountLimit = "exceeded-process-count-limit"
    /// Its page went to another process: WebKit's, read in device logs; never ours.
    case navigationSwap = "navigation-swap"
    /// WebKit's other processes asked for it to end (an invalid IPC message to the network, GPU or model process);
    /// WebKit's alone, read in device logs.
    case requestedByNetworkProcess = "requested-by-network-process"
    case requestedByGPUProcess = "requested-by-gpu-process"
    case requestedByModelProcess = "requested-by-model-process"
    /// The GPU or model process crashed too often, and WebKit ended the pages that used it.
    case gpuProcessCrashedTooManyTimes = "gpu-process-crashed-too-many-times"
    case modelProcessCrashedTooManyTimes = "model-process-crashed-too-many-times"
    /// A site-isolated iframe's process crashed: the page's main frame lives on.
    case nonMainFrameWebContentProcessCrash = "non-main-frame-web-content-process-crash"
    /// Chromium's `TERMINATION_STATUS_OOM_PROTECTED`: killed for memory while in the foreground band.
    case oomProtected = "oom-protected"
    /// Chromium's `TERMINATION_STATUS_EVICTED_FOR_MEMORY`: killed for memory (our Jetsam, an injected fault standing
    /// for iOS's) while not protected.
    case evictedForMemory = "evicted-for-memory"

    /// As WebKit's log prints it after `reason=`: WebKit sees a kill for memory from outside as a crash.
    public var webKitName: String {
        switch self {
        case .exceededMemoryLimit: "ExceededMemoryLimit"
        case .exceededCPULimit: "ExceededCPULimit"
        case .requestedByClient: WebKitWording.requestedByClient.description
        case .idleExit: "IdleExit"
        case .unresponsive: "Unresponsive"
        case .crash, .oomProtected, .evictedForMemory: WebKitWording.crash.description
        case .exceededProcessCountLimit: "ExceededProcessCountLimit"
        case .navigationSwap: "NavigationSwap"
        case .requestedByNetworkProcess: "RequestedByNetworkProcess"
        case .requestedByGPUProcess: "RequestedByGPUProcess"
        case .requestedByModelProcess: "RequestedByModelProcess"
        case .gpuProcessCrashedTooManyTimes: "GPUProcessCrashedTooManyTimes"
        case .modelProcessCrashedTooManyTimes: "ModelProcessCrashedTooManyTimes"
        case .nonMainFrameWebContentProcessCrash: "NonMainFrameWebContentProcessCrash"
        }
    }

    /// What the app is told (`_WKProcessTerminationReason`, folded by WebKit's `wkProcessTerminationReason`).
    public var told: ToldTerminationReason {
        switch self {
        case .exceededMemoryLimit: .exceededMemoryLimit
        case .exceededCPULimit: .exceededCPULimit
        case .requestedByClient, .idleExit, .navigationSwap: .requestedByClient
        case .unresponsive, .crash, .exceededProcessCountLimit, .oomProtected, .evictedForMemory, .requestedByNetworkProcess,
            .requestedByGPUProcess, .requestedByModelProcess, .nonMainFrameWebContentProcessCrash:
            .crash
        case .gpuProcessCrashedTooManyTimes, .modelProcessCrashedTooManyTimes: .exceededSharedProcessCrashLimit
        }
    }
}

/// The five reasons WebKit tells an app a WebContent process ended for.
public enum ToldTerminationReason: String, Sendable, CaseIterable {
    case exceededMemoryLimit = "exceeded-memory-limit"
    case exceededCPULimit = "exceeded-cpu-limit"
    case requestedByClient = "requested-by-client"
    case crash
    /// A shared process (GPU, model) crashed too many times: not one of ours, named so the set is WebKit's.
    case exceededSharedProcessCrashLimit = "exceeded-shared-process-crash-limit"
}
