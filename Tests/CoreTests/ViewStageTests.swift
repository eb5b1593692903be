import Testing

@testable import Browser
@testable import Core

/// A view's stages go one way: a view closed before it attached (its load ended by a crash loop delivered as it
/// attached) stays closed.
@Suite struct ViewStages {
    @Test func aClosedViewNeverAttaches() {
        let load = Load(index: 0, client: EditorClient(), startedAt: 0)
        let view = View(id: 1, load: load, visible: true, at: 0)
        view.close()
        #expect(!view.enterWindow() && view.closed && !view.attached)
        let other = View(id: 2, load: load, visible: true, at: 0)
        #expect(other.enterWindow() && other.attached)
        other.close()
        #expect(other.closed)
    }
}
