import WireProtocol

/// Fetches: the scheme handler's side of the channel. The conversation has counted each against what the worker may
/// ask; the load's client answers it, and the answer goes in frame-sized pieces.
extension Supervisor {
    func fetch(_ url: String, _ kind: ResourceKind, for worker: Worker) {
        guard let client = worker.client else { return step(worker, .unwanted(.fetch(url: url, kind: kind))) }
        let latency = kind == .document ? worker.view.map(fetchLatency) ?? 0 : 0
        guard latency > 0 else { return answer(url, kind, for: worker, from: client) }
        worker.answersHeld += 1
        clock.schedule(afterNanoseconds: latency) { [weak self, weak worker] in
            worker?.answersHeld -= 1
            guard let self, let worker, !worker.reaped, worker.channelOpen, let client = worker.client else { return }
            answer(url, kind, for: worker, from: client)
        }
    }

    /// The client's answer to a fetch, sent in frame-sized pieces.
    private func answer(_ url: String, _ kind: ResourceKind, for worker: Worker, from client: any LoadClient) {
        let response = client.serve(url, kind, for: worker)
        let body = response.body
        let first = min(body.count, Self.replyChunk)
        send(.fetchReply(status: response.status, mime: response.mime, length: UInt32(body.count), body: Array(body[..<first])), to: worker)
        var offset = first
        while offset < body.count, worker.channelOpen {
            let end = min(offset + Self.replyChunk, body.count)
            send(.fetchData(body: Array(body[offset..<end])), to: worker)
            offset = end
        }
        if kind == .document {
            worker.lastDocument = (url, response.status, response.status == 200 ? nil : String(decoding: body, as: UTF8.self))
        }
        log.emit(
            .fetch(url: url, kind: kind, status: Int(response.status), bytes: body.count), view: worker.view?.id,
            pid: worker.pid)
    }

    /// The most of a reply one frame carries.
    static let replyChunk = 256 << 10
}
