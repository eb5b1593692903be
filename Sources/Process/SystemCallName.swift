import CShim

/// System call `number` as a person reads it, on this machine's architecture (the worker's, which runs here too):
/// `openat (257)` for the calls a sandbox violation is likely to be, the number alone for any other.
public func systemCallName(_ number: Int32) -> String {
    guard let name = sv_syscall_name(Int(number)) else { return "system call \(number)" }
    return "\(String(cString: name)) (\(number))"
}
