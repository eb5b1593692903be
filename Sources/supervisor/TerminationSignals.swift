import Glibc

/// SIGINT and SIGTERM while a run's event loop owns them: blocked so that its signalfd takes them, and
/// deliverable again (their default action ends the process) everywhere else, so that nothing before or after a
/// run can leave the process deaf to Ctrl-C.
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
