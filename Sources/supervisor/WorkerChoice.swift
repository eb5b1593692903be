/// The worker executable `--worker` names: `embedded` (the default) is WebContent, Embedded Swift on its own bare
/// runtime, beside this binary; `portable` is WebContentPortable beside it, the same sources built as ordinary
/// static Swift; anything else is a path.
func workerExecutable(_ argument: String?) -> String {
    switch argument {
    case nil, "embedded": RunCommand.siblingExecutable("WebContent")
    case "portable": RunCommand.siblingExecutable("WebContentPortable")
    case let path?: path
    }
}
