import Bench
import CommandLineOptions
import Glibc
import System

/// A failure that is not the user's typing: reported in one line, exit status 1.
struct RuntimeError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Makes sure 0, 1 and 2 are open, so nothing we open later lands on a standard descriptor by accident.
func ensureStandardDescriptors() {
    for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 {
        _ = open("/dev/null", O_RDWR)
    }
}

/// Says why the command failed, and which of its outputs it did not write, in one message.
func fail(_ message: String, status: Int32) -> Never {
    printError("supervisor: error: \(message)\(UnwrittenOutputs.failureNote)")
    exit(status)
}

ensureStandardDescriptors()
// A mask inherited blocked (from a parent's thread that blocks them) must not leave the process deaf to Ctrl-C.
TerminationSignals.unblock()
UnwrittenOutputs.removeOnInterruption()
let words = CommandLine.arguments.dropFirst()
// Each help is made only when asked for: making them all costs a command's start more than a millisecond.
let commands: [String: (help: () -> CommandHelp, main: (ArraySlice<String>) throws -> Int32)] = [
    "run": ({ Commands.run.help }, RunCommand.main),
    "compare": ({ Commands.compare.help }, CompareCommand.main),
    "policies": ({ Commands.policies.help }, PoliciesCommand.main),
    "bench": ({ Commands.bench.help }, BenchCommand.main),
    "analyze": ({ Commands.analyze.help }, AnalyzeCommand.main),
    "session": ({ Commands.session.help }, SessionCommand.main),
    "log": ({ Commands.log.help }, LogCommand.main),
]
do {
    switch words.first {
    case nil, "-h", "--help":
        print(Commands.rootHelp)
    case "--version":
        print("supervisor \(Commands.version)")
    case "help":
        // `help help` is help about help: the overview, which says how to ask for it.
        let topic = words.dropFirst().first.flatMap { $0 == "help" ? nil : $0 }
        guard let help = topic.map({ commands[$0]?.help().text }) ?? Commands.rootHelp else {
            throw UsageError("unknown subcommand '\(topic!)'")
        }
        print(help)
    case let name?:
        guard let command = commands[name] else {
            let hint = closestName(to: name, in: Set(commands.keys)).map { "; did you mean '\($0)'?" }
            throw UsageError("unknown subcommand '\(name)'\(hint ?? " (see 'supervisor --help')")")
        }
        let rest = words.dropFirst()
        if rest.contains("--help") || rest.contains("-h") {
            print(command.help().text)
        } else if rest.prefix(while: { $0 != "--" }).contains("--version") {
            // The program's version, wherever it is asked for: a subcommand has none of its own.
            print("supervisor \(Commands.version)")
        } else {
            exit(try command.main(rest))
        }
    }
} catch let error as UsageError {
    fail(error.message, status: 64)
} catch let error as RuntimeError {
    fail(error.message, status: 1)
} catch let error as BenchFailure {
    fail(error.message, status: 1)
} catch {
    fail("\(error)", status: 1)
}
