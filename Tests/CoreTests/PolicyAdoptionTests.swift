import Testing

@testable import Core
@testable import Process
import Vocabulary

/// What a verdict says an app can adopt: only what WebKit's public API gives (the termination callback, reload(), a
/// new WKWebView, an app's own timer); any band other than WebKit's, spare processes and observing from launch need
/// WebKit changes.
@Suite struct PolicyAdoption {
    @Test func theBuiltInsAppsCanAdoptAreThoseThatKeepWebKitsBands() {
        let adoptable = Policy.all.filter { $0.needsWebKitChanges.isEmpty }.map(\.name)
        #expect(adoptable == ["none", "reload", "rebuild", "webkit-default"])
        #expect(Policy.alwaysForeground.needsWebKitChanges.contains("the private foreground-priority setting"))
    }

    /// A band an app cannot set is WebKit's change whichever band it is, not only foreground or boosted.
    @Test(arguments: PriorityBand.allCases)
    func anyBandOtherThanWebKitsNeedsWebKit(band: PriorityBand) {
        var policy = Policy.webkitDefault
        policy.name = "x"
        policy.launchBand = band
        #expect(policy.needsWebKitChanges.isEmpty == (band == Policy.webkitDefault.launchBand), "\(band)")
        policy.launchBand = Policy.webkitDefault.launchBand
        policy.hiddenBand = band
        #expect(policy.needsWebKitChanges.isEmpty == (band == Policy.webkitDefault.hiddenBand), "\(band)")
    }

    @Test func theSentenceNamesWhatEachNeeds() {
        var hiddenAtLaunch = Policy.reload
        hiddenAtLaunch.name = "early-hidden"
        hiddenAtLaunch.launchBand = .hidden
        #expect(Policy.adoption([.reload, hiddenAtLaunch]) == "An app can adopt reload with public API (the termination "
            + "callback, reload(), a new WKWebView, a title watchdog); early-hidden (a hidden band at launch) needs "
            + "WebKit changes.")
    }
}
