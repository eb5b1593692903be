import Foundation
import Testing
@testable import SupervisorTesting

/// Whether `word` stands whole among the words of `text` (a list's commas and brackets aside).
func standsWhole(_ word: String, in text: String) -> Bool {
    text.split(whereSeparator: \.isWhitespace).contains { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",()")) == word }
}

extension BesideOthers {
    /// Every text `compare` prints fits 100 columns with its words whole, over inputs wider than the defaults: a
    /// policy named with the 40 characters a name may have beside every built-in, a replay schedule whose incident
    /// is named in a long sentence with a long hyphenated word, and its mistakes.
    @Suite struct CompareWidth {
        static let longName = "a-policy-named-right-up-to-forty-chars40"
        static let policies = "name=\(longName),base=guarded;none;reload;rebuild;always-foreground;webkit-default;guarded;"
            + "base=rebuild,spares=2,reuse=yes"
        static let longWord = "hyphenated-name-of-some-length-2026-11-26"
        static let id = "an incident whose id is long, as a person may write one by hand, with a \(longWord)"
        static let schedule = """
            {"format": "supervisor-replay", "version": 1, "sources": ["a sysdiagnose of a long name"],
             "incidents": [{"id": "\(id)", "kind": "killed-before-render", "attachMs": [2, 6], "deathMs": [2, 6],
                            "band": "background", "rendered": false, "cause": "kill", "detail": "", "evidence": []},
                           {"id": "b", "kind": "killed-after-render", "attachMs": 3, "deathMs": [40, 90],
                            "band": "foreground", "rendered": true, "cause": "crash", "detail": "", "evidence": []}]}
            """

        func expectFits(_ text: String, _ what: String) {
            #expect(overlong(text).isEmpty, "\(what): \(overlong(text))")
            #expect(fitsWithWordsWhole(text), "\(what): \(text)")
        }

        @Test func theTablesFitWithEveryPolicyAndALongName() throws {
            #expect(Self.longName.count == 40)
            let result = try runSupervisorBounded(
                ["compare", "--loads", "2", "--inject-race", "1/2", "--watchdog", "100", "--blank-timeout", "300",
                 "--policies", Self.policies], seconds: 100)
            #expect(result.status == 0, "\(result.stderr)")
            expectFits(result.stdout, "compare")
            for name in [Self.longName, "always-foreground"] {
                #expect(standsWhole(name, in: result.stdout), "\(name): \(result.stdout)")
            }
            // A derived name is its base and the fields changed, on one line.
            #expect(result.stdout.contains("\nrebuild spares=2 reuse=yes "), "\(result.stdout)")
            #expect(result.stdout.contains("TTV") && result.stdout.contains("recovered") && result.stdout.contains("unknown"))
            #expect(result.stdout.contains("took cached") && result.stdout.contains("hit %"))
        }

        /// Under Jetsam's critical pressure, the killer's table says which bands it reached, and fits.
        @Test func theKillersTableFits() throws {
            let result = try runSupervisorBounded(
                ["compare", "--loads", "6", "--hidden", "2", "--views", "3", "--jetsam=pressure=critical",
                 "--attach-delay", "100", "--blank-timeout", "300", "--policies", "none;guarded"], seconds: 100)
            #expect(result.status == 0, "\(result.stderr)")
            expectFits(result.stdout, "compare --jetsam")
            #expect(result.stdout.contains("launching") && result.stdout.contains("Kills from outside (Jetsam, chaos) by the band"),
                    "\(result.stdout)")
        }

        @Test func theReplayReportFits() throws {
            let folder = try TemporaryFolder(["schedule.json": Self.schedule])
            let result = try runSupervisorBounded(
                ["compare", "--replay", folder.path + "/schedule.json", "--repeat", "1", "--watchdog", "200",
                 "--blank-timeout", "1000", "--policies", Self.policies], seconds: 100)
            #expect(result.status == 0, "\(result.stderr)")
            expectFits(result.stdout, "compare --replay")
            for word in [Self.longName, Self.longWord, "always-foreground", "killed-before-render", "killed-after-render"] {
                #expect(standsWhole(word, in: result.stdout), "\(word): \(result.stdout)")
            }
            #expect(result.stdout.contains("Replayed: 2 incidents"))
        }

        @Test func helpAndMistakesFit() throws {
            let folder = try TemporaryFolder(["bad.json": #"{"format": "supervisor-replay", "version": 1, "sources": [], "incidents": [{"id": "a"}]}"#])
            for arguments in [
                ["compare", "--help"], ["help", "compare"],
                ["compare", "--policies", "name=\(Self.longName)-and-more,base=guarded"],
                ["compare", "--policies", Self.policies + ";base=guarded,observe=sometimes-perhaps-never"],
                ["compare", "--replay", folder.path + "/bad.json"], ["compare", "--replay", folder.path + "/missing.json"],
                ["compare", "--lods", "3"],
            ] {
                let result = try runSupervisorBounded(arguments, seconds: 30)
                if arguments.contains("help") || arguments.contains("--help") {
                    #expect(result.status == 0 && result.stdout.contains("USAGE"), "\(arguments): \(result.stderr)")
                } else {
                    #expect(result.status != 0 && result.stderr.hasPrefix("supervisor: error: "), "\(arguments): \(result.stderr)")
                }
                expectFits(result.stdout, "\(arguments)")
                expectFits(result.stderr, "\(arguments)")
            }
        }
    }
}
