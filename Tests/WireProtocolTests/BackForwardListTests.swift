import Testing
import WireProtocol
@testable import SupervisorTesting

/// A tab's history behaves as a browser's: a line cut at the current entry by every navigation, bounded, and
/// valid whatever it was restored from.
@Suite struct BackForwardListTests {
    func page(_ n: Int) -> HistoryEntry { HistoryEntry(url: "app://local/\(n).html", title: "Page \(n)") }

    func list(_ pages: Int) -> BackForwardList {
        var list = BackForwardList()
        for n in 0..<pages { list.push(page(n)) }
        return list
    }

    @Test func anEmptyListHasNoCurrentEntryAndGoesNowhere() {
        var list = BackForwardList()
        #expect(list.index == -1 && list.current == nil)
        #expect(!list.canGoBack && !list.canGoForward && list.backCount == 0 && list.forwardCount == 0)
        #expect(list.goBack() == nil && list.goForward() == nil && list.go(to: 0) == nil)
        list.setTitle("nothing")
        #expect(list == BackForwardList())
    }

    @Test func backAndForwardMoveTheCurrentEntry() {
        var list = list(3)
        #expect(list.current == page(2) && list.backCount == 2 && list.forwardCount == 0)
        #expect(list.goBack() == page(1))
        #expect(list.go(to: -1) == page(0))
        #expect(!list.canGoBack && list.canGoForward && list.forwardCount == 2)
        #expect(list.go(to: 2) == page(2))
        #expect(list.entries == (0..<3).map(page))
    }

    /// WebKit's rule: a load committed after going back drops everything that was forward.
    @Test func aLoadAfterGoingBackDropsTheForwardEntries() {
        var list = list(4)
        list.go(to: -2)
        list.push(page(9))
        #expect(list.entries == [page(0), page(1), page(9)])
        #expect(list.index == 2 && !list.canGoForward && list.goForward() == nil)
    }

    @Test func aFullListDropsItsOldestEntry() {
        var list = list(BackForwardList.capacity)
        #expect(list.entries.count == BackForwardList.capacity)
        list.push(page(1000))
        #expect(list.entries.count == BackForwardList.capacity)
        #expect(list.entries.first == page(1) && list.current == page(1000))
        #expect(list.index == BackForwardList.capacity - 1)
    }

    @Test(arguments: [-2, 2, 5, -100, Int.max, Int.min])
    func goingOutOfRangeChangesNothing(offset: Int) {
        var list = list(3)
        list.goBack()
        let before = list
        #expect(list.go(to: offset) == nil)
        #expect(list == before)
    }

    @Test(arguments: [(-5, 0), (0, 0), (2, 2), (3, 2), (Int.max, 2), (Int.min, 0)])
    func aRestoredIndexIsClampedIntoTheEntries(index: Int, expected: Int) {
        let list = BackForwardList(entries: (0..<3).map(page), index: index)
        #expect(list.index == expected && list.current == page(expected))
    }

    @Test func aRestoredListIsBoundedAndNeverHasAnIndexWithoutEntries() {
        #expect(BackForwardList(entries: [], index: 7) == BackForwardList())
        let long = BackForwardList(entries: (0..<150).map(page), index: 120)
        #expect(long.entries == (50..<150).map(page))
        #expect(long.current == page(120))
        #expect(BackForwardList(entries: (0..<150).map(page), index: 10).current == page(50))
    }

    @Test func replacingAndTitlingTouchOnlyTheCurrentEntry() {
        var empty = BackForwardList()
        empty.replaceCurrent(page(1))
        #expect(empty.entries == [page(1)] && empty.index == 0)

        var list = list(3)
        list.goBack()
        list.replaceCurrent(page(7))
        list.setTitle("Seven")
        #expect(list.entries.map(\.url) == [page(0).url, page(7).url, page(2).url])
        #expect(list.current?.title == "Seven" && list.forwardCount == 1)
    }
}
