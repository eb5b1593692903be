import Foundation
import Testing

@testable import CommandLineOptions
@testable import Core
@testable import SupervisorTesting

/// The policy's data form: one field table, from which the inline parser, the JSON reader, the printer and help
/// are generated. Each test reads or writes through that table as a user does, so a field the printer drops, the
/// parser ignores or help omits fails here.
@Suite struct PolicyData {
    /// `--policy TEXT` of run, read through run's own option table.
    static func policy(_ text: String) throws -> Policy {
        let options = Commands.run
        return try options.table.parse(["--policy", text])[options.policy]
    }

    /// The one-line error `--policy TEXT` gives, or nil if it reads.
    static func error(_ text: String, option: String = "--policy") -> String? {
        let table = option == "--policy" ? Commands.run.table : Commands.compare.table
        return parseError(table, [option, text])
    }

    /// `text` written to a file in `folder`, returned as its path.
    static func file(_ text: String, in folder: TemporaryFolder, named name: String = "policy.json") throws -> String {
        let path = folder.path + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A policy that sets every field away from its default, written as `supervisor policies` writes one.
    static let everyField =
        "name=every-field,observe=spawn,launch=boosted,hidden=background,detect=watchdog,delegate=no,watchdog=250,"
        + "recover=reload,"
        + "hidden-recover=when-shown,cooldown=1500,max-recoveries=7,crash-restarts=5,crash-window=8000,backoff=20,"
        + "backoff-growth=1.5,spares=3,reuse=yes"

    @Test(arguments: Policy.all)
    func everyBuiltInPrintsAndReadsBackEqual(builtIn: Policy) throws {
        #expect(try Self.policy(builtIn.inlineForm) == builtIn, "\(builtIn.inlineForm)")
        let folder = try TemporaryFolder([:])
        let path = try Self.file(builtIn.jsonForm.text, in: folder)
        #expect(try Self.policy("@" + path) == builtIn)
        #expect(try Self.policy(path) == builtIn)
        // By name, and as a base with nothing changed: the same policy, under its own name.
        #expect(try Self.policy(builtIn.name) == builtIn)
        #expect(try Self.policy("base=\(builtIn.name)") == builtIn)
    }

    /// The table is the struct: every stored property of `Policy` is a field, so none can be left out of the
    /// data form, and every field is set, printed and read back.
    @Test func everyPropertyIsAFieldAndEveryFieldReadsAndPrints() throws {
        #expect(Mirror(reflecting: Policy.none).children.count == PolicyField.all.count)
        #expect(Set(PolicyField.all.map(\.key)).count == PolicyField.all.count)
        let policy = try Self.policy(Self.everyField)
        #expect(policy.name == "every-field" && policy.observe == .spawn)
        #expect(policy.launchBand == .boosted && policy.hiddenBand == .background)
        #expect(policy.detect == .watchdog && policy.watchdogNanoseconds == 250_000_000 && policy.recover == .reload)
        #expect(policy.recoverWhenVisible && policy.recoveryCooldownNanoseconds == 1_500_000_000)
        #expect(policy.maxRecoveries == 7 && policy.crashRestarts == 5 && policy.crashWindowNanoseconds == 8_000_000_000)
        #expect(policy.crashBackoffNanoseconds == 20_000_000 && policy.crashBackoffGrowth == 1.5)
        #expect(policy.spareWorkers == 3 && policy.reuseWorkers)
        #expect(policy.inlineForm == Self.everyField)
        let folder = try TemporaryFolder([:])
        #expect(try Self.policy(Self.file(policy.jsonForm.text, in: folder)) == policy)
    }

    /// A JSON file and the same fields inline are one policy; numbers are JSON numbers, `reuse` a boolean (or the
    /// inline word), and `base` stands wherever it is written.
    @Test func jsonAndInlineAgree() throws {
        let folder = try TemporaryFolder([:])
        let json = #"{"spares": 0, "name": "lean", "reuse": false, "backoff-growth": 1.5, "base": "guarded", "cooldown": 250}"#
        let fromFile = try Self.policy("@" + Self.file(json, in: folder))
        let inline = try Self.policy("spares=0,name=lean,reuse=no,backoff-growth=1.5,base=guarded,cooldown=250")
        #expect(fromFile == inline)
        var expected = Policy.guarded
        (expected.name, expected.spareWorkers, expected.reuseWorkers) = ("lean", 0, false)
        (expected.crashBackoffGrowth, expected.recoveryCooldownNanoseconds) = (1.5, 250_000_000)
        #expect(inline == expected)
        #expect(try Self.policy("@" + Self.file(#"{"base": "guarded", "reuse": "no"}"#, in: folder)).reuseWorkers == false)
    }

    // MARK: - Three user policies

    /// The issue's example: no base, no name: the defaults with five fields set, called `custom`.
    @Test func aUserPolicyInline() throws {
        let policy = try Self.policy("observe=spawn,launch=boosted,detect=callback,recover=rebuild,spares=1")
        var expected = Policy(name: "custom")
        (expected.observe, expected.launchBand, expected.detect) = (.spawn, .boosted, .callback)
        (expected.recover, expected.spareWorkers) = (.rebuild, 1)
        #expect(policy == expected)
        #expect(try Self.policy(policy.inlineForm) == policy)
    }

    /// A policy named after its base and the fields it changes is printed as that base and those fields (its name
    /// holds a space, which `name=` does not take), and reads back to itself, however many fields it changes.
    @Test(arguments: ["base=guarded,spares=0", "base=reload,observe=spawn,launch=boosted,detect=callback+watchdog,spares=3,reuse=no"])
    func aDerivedNameReadsBack(fields: String) throws {
        let policy = try Self.policy(fields)
        #expect(policy.name.contains(" "))
        #expect(policy.inlineForm.hasPrefix("base="))
        #expect(try Self.policy(policy.inlineForm) == policy)
    }

    /// A file starting from WebKit's default, named after its base and the fields it changes.
    @Test func aUserPolicyFromAJSONFile() throws {
        let folder = try TemporaryFolder([:])
        let path = try Self.file(#"{"base": "webkit-default", "observe": "spawn", "cooldown": 0}"#, in: folder, named: "w.json")
        let policy = try Self.policy(path)
        var expected = Policy.webkitDefault
        (expected.name, expected.observe, expected.recoveryCooldownNanoseconds) = ("webkit-default observe=spawn cooldown=0", .spawn, 0)
        #expect(policy == expected)
    }

    /// A misspelt value: one line naming the field and every value it takes.
    @Test func anInvalidUserPolicyIsOneLineNamingTheField() {
        #expect(Self.error("base=guarded,recover=rebiuld") == "'--policy': 'recover' takes reload, rebuild or none, not 'rebiuld'")
    }

    @Test(arguments: [
        ("spares=1,spares=2", "'--policy': 'spares' is given twice; give it once, as a whole number from 0 to 64"),
        ("spare=1", "'--policy': no field 'spare'; did you mean 'spares'?"),
        ("spares", "'--policy': 'spares' needs a value: spares=, taking a whole number from 0 to 64"),
        ("base=gaurded", "'--policy': 'base' takes none, reload, rebuild, always-foreground, webkit-default or guarded, not 'gaurded'"),
        ("observe=spawn,guarded", "'--policy': 'guarded' is a policy, not a field: start from it with base=guarded"),
        ("max-recoveries=lots", "'--policy': 'max-recoveries' takes a whole number from 0 to 1000000 or unlimited, not 'lots'"),
        ("backoff-growth=0.5", "'--policy': 'backoff-growth' takes a factor from 1 to 4, not '0.5'"),
        ("watchdog=0", "'--policy': 'watchdog' takes milliseconds from 1 to 3600000, not '0'"),
        ("name=a,b=c", "'--policy': no field 'b'; the fields are name, base, observe, launch, hidden, detect, delegate, "
            + "watchdog, "
            + "recover, recover-on, hidden-recover, cooldown, suspend, suspend-after, unresponsive, memory-limit, "
            + "memory-warning, cpu-limit, cpu-window, max-recoveries, "
            + "crash-restarts, crash-window, backoff, backoff-growth, spares, reuse, cache, cache-lifetime and max-workers"),
        ("recover-on=crash+oom", "'--policy': 'recover-on' takes all, or reasons joined by '+' from exceeded-memory-limit, "
            + "exceeded-cpu-limit, requested-by-client, crash or exceeded-shared-process-crash-limit, not 'crash+oom'"),
        ("memory-warning=0", "'--policy': 'memory-warning' takes a percentage from 1 to 100, not '0'"),
        ("unresponsive=wait:0", "'--policy': 'unresponsive' takes kill, wait:<ms> (1 to 3600000), reload or ignore, not 'wait:0'"),
        ("unresponsive=stop", "'--policy': 'unresponsive' takes kill, wait:<ms> (1 to 3600000), reload or ignore, not 'stop'"),
        ("name=guarded,spares=0", "'--policy': 'name' guarded is a built-in's, and these fields are not it: start from "
            + "it with base=guarded and give the result another name"),
        ("pray", "'--policy': unknown policy 'pray'; the built-in policies are none, reload, rebuild, always-foreground, "
            + "webkit-default and guarded"),
    ])
    func everyMistakeIsOneLineNamingTheField(text: String, message: String) {
        #expect(Self.error(text) == message)
    }

    @Test func aFileThatIsNotAPolicyIsNamed() throws {
        let folder = try TemporaryFolder([:])
        let list = try Self.file("[1]", in: folder)
        #expect(Self.error("@" + list) == "'--policy': '\(list)' is not one JSON object with a policy's fields")
        let spares = try Self.file(#"{"spares": [2]}"#, in: folder, named: "s.json")
        #expect(Self.error(spares) == "'--policy': 'spares' takes a whole number from 0 to 64, not '[2]'")
        #expect(Self.error("@" + folder.path + "/none.json") == "'--policy': cannot read '\(folder.path)/none.json': No such file or directory")
    }

    // MARK: - compare

    /// Policies are separated by `;` (an inline one holds commas), built-in names also by `,`; a derived name is
    /// numbered to stay unique, a given one may not be given twice.
    @Test func compareTakesBuiltInsAndUserPoliciesApart() throws {
        let options = Commands.compare
        let list = "none,guarded;base=guarded,spares=0;observe=spawn;@"
        let folder = try TemporaryFolder([:])
        let file = try Self.file(#"{"observe": "spawn"}"#, in: folder)
        let policies = try options.table.parse(["--policies", list + file])[options.policies]
        #expect(policies.map(\.name) == ["none", "guarded", "guarded spares=0", "custom", "custom-2"])
        #expect(policies[1] == .guarded && policies[2].spareWorkers == 0 && policies[3].observe == .spawn)
        #expect(try options.table.parse([])[options.policies] == Policy.all)
        #expect(Self.error("name=lean,spares=0;guarded;name=lean,spares=1", option: "--policies")
            == "'--policies': two policies are named 'lean'; name them apart with name=")
        #expect(Self.error("guarded,observe=spawn", option: "--policies")
            == "'--policies': 'guarded' is a policy, not a field: start from it with base=guarded; separate policies with ';'")
        #expect(Self.error("guarded;", option: "--policies")
            == "'--policies' takes policies separated by ';' (built-in names also by ','), not 'guarded;'")
        #expect(Self.error("none,", option: "--policies") == "'--policies' takes policy names separated by commas, not 'none,'")
    }

    // MARK: - help

    /// `supervisor help policies` lists every field, and `base`, once; each default it shows reads back to the
    /// default, and each placeholder of choices lists exactly the values the field takes.
    @Test func policiesHelpListsEveryFieldWithItsDefault() throws {
        let help = Commands.policies.help.text
        let rows = help.split(separator: "\n").drop { $0 != "FIELDS:" }.dropFirst()
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.map { $0.dropFirst(2).prefix { $0 != "=" } }
        #expect(rows.map(String.init) == PolicyReader.keys)
        for field in PolicyField.all {
            let label = "  \(field.key)=\(field.placeholder)"
            let start = try #require(help.range(of: label), "\(field.key) missing")
            let text = help[start.upperBound...].split(separator: "\n").prefix { !$0.hasPrefix("  ") || $0.hasPrefix("   ") }
            let row = text.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            guard field.key != "name" else { continue }
            let shown = try #require(shownDefault(row), "\(field.key): no default in '\(row)'")
            #expect(try Self.policy("\(field.key)=\(shown)") == Policy(name: "custom"), "\(field.key)=\(shown)")
            if !field.placeholder.hasPrefix("<") {
                for value in field.placeholder.split(separator: "|") where !value.contains("<") {
                    #expect(Self.error("\(field.key)=\(value)") == nil, "\(field.key)=\(value)")
                }
            }
        }
    }
}
