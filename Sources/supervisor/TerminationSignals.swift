import Glibc

/// SIGINT and SIGTERM while a run's event loop owns them: blocked so that its signalfd takes them, and
/// deliverable again everywhere else (where they end the process, removing the outputs not written first: see
/// `UnwrittenOutputs`), so that nothing before or after a run can leave the process deaf to Ctrl-C.
enum TerminationSignals {
    static func block() { mask(SIG_BLOCK) }
    static func unblock() { mask(SIG_UNBLOCK) }

    private static func mask(_ how: Int32) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(how, &signals, nil)
    }
}
