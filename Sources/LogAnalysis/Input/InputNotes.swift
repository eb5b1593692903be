import Text

/// What reading the inputs passed over or found wrong, each reason said once at the end with how many it was and
/// the first few names. Only those names are kept, so an archive of a million members costs no more to tell of
/// than one of three; and a name comes from outside, so it is kept made visible and cut to a line's length.
struct InputNotes {
    /// How many of something there were, and the first of their names.
    struct Tally {
        private(set) var count = 0
        private(set) var names: [String] = []
        /// The last name added, as given.
        private(set) var last: String?

        static let namesKept = 3
        /// Names longer than this many characters keep their start and end, the middle cut.
        static let nameLength = 160

        var isEmpty: Bool { count == 0 }

        mutating func add(_ name: String) {
            last = name
            count += 1
            if names.count < Self.namesKept { names.append(Self.shown(name)) }
        }

        /// `a, b, c, ...`: the names kept, and dots when there were more.
        var listed: String { names.joined(separator: ", ") + (count > names.count ? ", ..." : "") }

        /// `1,234 files`.
        func counted(_ singular: String) -> String { "\(grouped(count)) \(count == 1 ? singular : singular + "s")" }

        private static func shown(_ name: String) -> String {
            guard name.count > nameLength else { return visible(name) }
            return visible(name.prefix(nameLength * 2 / 3) + "…" + name.suffix(nameLength / 3))
        }
    }

    /// Tars read from a pipe that hold a `.logarchive`.
    var logArchives = Tally()
    var binary = Tally()
    /// gzip-compressed members of an archive not read: no gzip on PATH, or one past the size a member is held to.
    var compressedMembers = Tally()
    var hiddenMembers = Tally()
    var links = Tally()
    var sparseMembers = Tally()
    /// Devices, FIFOs and members of a type a tar reader does not know.
    var otherMembers = Tally()
    /// Members past `InputReader.memberLimit` in their archive.
    var unreadMembers = Tally()
    var cutNames = Tally()
    var damaged = Tally()

    /// One message a reason, in the order a reader meets them.
    var messages: [String] {
        var messages: [String] = []
        if let first = logArchives.names.first {
            let more = logArchives.count > 1 ? " (and \(logArchives.count - 1) more)" : ""
            messages.append("not read: the binary unified log in \(first + more), a tar read from a pipe: its "
                + "strings files need a second reading, so save it to a file and analyze that")
        }
        if !binary.isEmpty {
            messages.append("passed over \(binary.counted("binary file")): " + binary.listed)
        }
        if !compressedMembers.isEmpty {
            messages.append("not read: \(compressedMembers.counted("gzip-compressed member")) inside an archive ("
                + compressedMembers.listed + "), with no gzip on PATH or past \(LogArchive.fileLimit >> 20) MB; unpack "
                + "the archive and analyze its folder to read them")
        }
        if !hiddenMembers.isEmpty {
            messages.append("not read: \(hiddenMembers.counted("hidden member")) of an archive (a name starting "
                + "with '.'): " + hiddenMembers.listed)
        }
        if !links.isEmpty {
            messages.append("not read: \(links.counted("link")) inside an archive (a link holds no data; what it "
                + "names is read where it is stored): " + links.listed)
        }
        if !sparseMembers.isEmpty {
            messages.append("not read: \(sparseMembers.counted("sparse file")) inside an archive (stored as a "
                + "map of its data): " + sparseMembers.listed)
        }
        if !otherMembers.isEmpty {
            messages.append("not read: \(otherMembers.counted("member")) of an archive that \(otherMembers.count == 1 ? "is" : "are") "
                + "neither a file nor a folder (a device, a FIFO, or a type unknown here): " + otherMembers.listed)
        }
        if !cutNames.isEmpty {
            messages.append("\(cutNames.counted("member name")) longer than any real path (over "
                + "\(grouped(TarName.limit)) bytes) \(cutNames.count == 1 ? "was" : "were") cut there: " + cutNames.listed)
        }
        if !unreadMembers.isEmpty {
            messages.append("not read: \(unreadMembers.counted("file")) past the first "
                + "\(grouped(InputReader.memberLimit)) of an archive (\(unreadMembers.listed)); unpack it and analyze "
                + "its folder to read them")
        }
        if !damaged.isEmpty {
            messages.append("\(damaged.listed) \(damaged.count == 1 ? "is" : "are") damaged or cut short: "
                + "what came before the damage was read")
        }
        return messages
    }
}
