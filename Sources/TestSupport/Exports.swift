// `Document.swift` is the worker's own source, compiled here too: it imports only WorkerRuntime, since in the
// worker the wire protocol is compiled into the same module. Here both come from these imports.
@_exported import WireProtocol
@_exported import WorkerRuntime
