import Testing

@testable import LogAnalysis

/// How a page came back after its process died is followed in bounded memory and linear time, however many
/// processes render one page (a long log reuses a pageProxyID across every process of a tab).
@Suite struct PageRecoveryBounds {
    static func stamp(_ n: Int) -> Stamp { Stamp(time: n * 1_000, ordinal: n, file: 0, line: n) }

    static func render(page: Int, pid: Int32) -> Observation {
        var o = Observation(.render, pid: Int(pid), process: .webContent)
        o.page = page
        return o
    }

    @Test(.timeLimit(.minutes(1))) func aPageRenderedByMoreProcessesThanTheLimitStaysBounded() {
        var pages = PageRecovery()
        pages.note(Self.render(page: 7, pid: 1), at: Self.stamp(1))
        let processes = PageRecovery.limit + 50_000
        for n in 2...processes {
            pages.note(Self.render(page: 7, pid: Int32(n)), at: Self.stamp(n))
            pages.note(Self.render(page: 7, pid: Int32(n)), at: Self.stamp(n))
        }
        #expect(pages.rendered.count == PageRecovery.limit)
        // Pid 1 died after its render: the next process's render brought the page back.
        let recovered = pages.recovered(pid: 1, after: Self.stamp(1), told: false)
        #expect(recovered?.how == "loaded again" && recovered?.micros == 1_000)
    }
}
