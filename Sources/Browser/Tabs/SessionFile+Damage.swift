import Text

/// What a session file lost: the report that goes with a partial restore, so that lost tabs are said, not silent.
public struct SessionDamage: Equatable, Sendable, CustomStringConvertible {
    /// Why the header was refused. Nothing is restored then: the header is what counts the tabs.
    public enum Refusal: Equatable, Sendable {
        /// The magic is wrong: some other file.
        case notASessionFile
        /// A version this supervisor does not read, whose layout past the version it cannot know.
        case unsupportedVersion(UInt16)
        /// The file ends before its header does.
        case truncatedHeader
        /// The header fails its checksum or a bound.
        case corruptHeader
    }

    public let refusal: Refusal?
    public let restoredTabs: Int
    /// Tabs the header counts that were not restored; nil when the header was refused and the count is unknown.
    public let lostTabs: Int?
    /// Records that failed their checksum or a bound and were passed over.
    public let skippedTabs: Int
    /// Where the records stop short of the header's count: the file ends, or a record's length runs past it.
    public let truncatedAt: Int?
    /// Bytes after the last counted record, which a writer never leaves.
    public let trailingBytes: Int
    /// The first damaged byte.
    public let offset: Int
    /// Bytes of a last save the file holds only part of: the trace of a crash during that save. The save before
    /// it is what was restored.
    public let tornSaveBytes: Int

    init(refusal: Refusal, at offset: Int) {
        self.refusal = refusal
        restoredTabs = 0
        lostTabs = nil
        skippedTabs = 0
        truncatedAt = nil
        trailingBytes = 0
        tornSaveBytes = 0
        self.offset = offset
    }

    /// The damage after a header that checked out; nil when there is none.
    init?(
        restoredTabs: Int, lostTabs: Int, skippedTabs: Int, firstSkippedAt: Int?, truncatedAt: Int?,
        trailingBytes: Int, trailingAt: Int, tornSaveBytes: Int = 0
    ) {
        guard lostTabs > 0 || trailingBytes > 0 || tornSaveBytes > 0 else { return nil }
        self.tornSaveBytes = tornSaveBytes
        refusal = nil
        self.restoredTabs = restoredTabs
        self.lostTabs = lostTabs
        self.skippedTabs = skippedTabs
        self.truncatedAt = truncatedAt
        self.trailingBytes = trailingBytes
        offset = firstSkippedAt ?? truncatedAt ?? trailingAt
    }

    public var description: String {
        switch refusal {
        case .notASessionFile: return "not a session file"
        case .unsupportedVersion(let version) where version > SessionFile.version:
            return "session file version \(version) is newer than this supervisor (\(SessionFile.version))"
        case .unsupportedVersion(let version):
            return "session file version \(version) is not one this supervisor reads (\(SessionFile.version))"
        case .truncatedHeader where offset == 0: return "session file is empty"
        case .truncatedHeader: return "session file ends inside its header (at byte \(grouped(offset))); no tabs restored"
        case .corruptHeader: return "session file header is corrupt (bad checksum or bounds); no tabs restored"
        case nil: break
        }
        var parts: [String] = []
        if let truncatedAt {
            let total = restoredTabs + (lostTabs ?? 0)
            parts.append(
                "session file ends after \(grouped(restoredTabs + skippedTabs)) of \(grouped(total)) tabs"
                    + " (truncated at byte \(grouped(truncatedAt)))")
        }
        if skippedTabs > 0 {
            let tabs = skippedTabs == 1 ? "1 tab was" : "\(grouped(skippedTabs)) tabs were"
            parts.append("\(tabs) damaged and skipped (first at byte \(grouped(offset)))")
        }
        if trailingBytes > 0 {
            parts.append("\(grouped(trailingBytes)) damaged bytes after the last intact save were ignored (from byte \(grouped(offset)))")
        }
        if tornSaveBytes > 0 {
            parts.append("its last save was cut short (\(grouped(tornSaveBytes)) bytes), so the one before it was restored")
        }
        return parts.joined(separator: "; ")
    }
}
