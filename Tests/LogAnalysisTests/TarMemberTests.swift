import Foundation
import Testing

@testable import LogAnalysis
@testable import SupervisorTesting

/// What a tar archive's members say about themselves is believed only within bounds: a name is cut at a length no
/// real path reaches, and every member not read is said, once a reason.
@Suite struct TarMembers {
    /// Member names of 200 KB, in GNU's long-name record or in pax's `path`: kept whole, such names cost a 0.5 MB
    /// `.tar.gz` 526 MB. Now each member is read under its name's first 1,024 bytes, and that is said once.
    @Test(arguments: ["gnu", "pax"])
    func aNameLongerThanAnyPathIsCutAndSaidOnce(format: String) throws {
        let name = { (file: String) in Array(("sysdiagnose/" + String(repeating: "a", count: 200_000) + "/" + file).utf8) }
        var archive: [UInt8] = []
        for file in ["console.log", "other.log"] {
            archive += format == "gnu" ? TarFixture.longName(name(file)) : TarFixture.pax([("path", name(file))])
            archive += TarFixture.member("short-name", data: Array(Fixture.xcode.utf8))
        }
        let (report, notes) = try readInputs([("x.tar", archive + TarFixture.end)])
        let kept = "x.tar:" + String(decoding: name("").prefix(TarName.limit), as: UTF8.self)
        #expect(report.files == [kept, kept])
        #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"])
        let note = try #require(notes.only)
        #expect(note.hasPrefix("2 member names longer than any real path (over 1,024 bytes) were cut there: x.tar:sysdiagnose/aaa"))
        #expect(note.count < 400, "a name in a note is cut to a line's length")
    }

    /// A name of bytes that are not UTF-8 is held to the limit as decoded too, where each such byte becomes U+FFFD's
    /// three: 1,024 of them made a name of 3,072 (found by the tar-headers fuzz target).
    @Test func aNameThatIsNotUTF8IsHeldToTheLimitDecoded() throws {
        let archive = TarFixture.longName([UInt8](repeating: 0xFF, count: TarName.limit))
            + TarFixture.member("short-name", data: [10]) + TarFixture.end
        let entry = try #require(try TarReader(MemorySource(archive)).next())
        #expect(entry.path.utf8.count <= TarName.limit && entry.path.unicodeScalars.allSatisfy { $0 == "\u{FFFD}" })
        #expect(entry.cut && entry.size == 1)
    }

    /// GNU's long link record names no member's data: 200 KB of it is skipped, and the link it belongs to is said.
    @Test func aLongLinkTargetIsSkippedAndItsLinkSaid() throws {
        let target = [UInt8](repeating: UInt8(ascii: "b"), count: 200_000)
        let archive = TarFixture.member("././@LongLink", type: UInt8(ascii: "K"), data: target + [0])
            + TarFixture.member("sd/latest.log", type: UInt8(ascii: "2"))
            + TarFixture.member("sd/console.log", data: Array(Fixture.xcode.utf8)) + TarFixture.end
        let (report, notes) = try readInputs([("x.tar", archive)])
        #expect(report.files == ["x.tar:sd/console.log"])
        #expect(notes == ["not read: 1 link inside an archive (a link holds no data; what it names is read where it "
            + "is stored): x.tar:sd/latest.log"])
    }

    /// A pax record that lies about its length ends the records, not the archive: the member after it is read
    /// under its own header's name.
    @Test func paxRecordsThatLieEndThereAndTheMemberIsRead() throws {
        var record = TarFixture.pax([("path", Array("sd/renamed.log".utf8))])
        record.replaceSubrange(512..<514, with: Array("99".utf8))
        let archive = record + TarFixture.member("sd/console.log", data: Array(Fixture.xcode.utf8)) + TarFixture.end
        let (report, notes) = try readInputs([("x.tar", archive)])
        #expect(report.files == ["x.tar:sd/console.log"] && notes.isEmpty)
    }

    /// Past 20,000 files an archive's members are counted, not read: each read costs its name in the report, and
    /// 3 MB of gzip can hold millions of empty members.
    @Test func anArchiveIsReadUpToItsMemberLimit() throws {
        let empty = TarFixture.member("sd/e.log")
        var archive: [UInt8] = []
        archive.reserveCapacity((InputReader.memberLimit + 2) * 512 + 2048)
        for _ in 0..<InputReader.memberLimit { archive += empty }
        archive += TarFixture.member("sd/last.log") + TarFixture.member("sd/later.log") + TarFixture.end
        let (report, notes) = try readInputs([("x.tar", archive)])
        #expect(report.files.count == InputReader.memberLimit)
        #expect(notes == ["not read: 2 files past the first 20,000 of an archive (x.tar:sd/last.log, x.tar:sd/later.log); "
            + "unpack it and analyze its folder to read them"])
    }
}

extension Processes {
    /// Members a tar program writes that are not read, each kind said once with its names.
    @Suite struct TarMembersNotRead {
        /// A hidden file, a hard link and a symbolic link, a sparse file and a FIFO, archived by GNU tar in its own
        /// format (sparse as type `S`) and in pax's (sparse as `GNU.sparse.*` records): the log beside them is read,
        /// and each of the others is said, where they were all passed over without a word.
        @Test(arguments: ["gnu", "pax"])
        func hiddenLinkSparseAndOtherMembersAreEachSaid(format: String) throws {
            let folder = try TemporaryFolder([:])
            let sd = folder.path + "/sd"
            try FileManager.default.createDirectory(atPath: sd, withIntermediateDirectories: true)
            for name in ["a.log", ".hidden.log"] { try Fixture.xcode.write(toFile: sd + "/" + name, atomically: false, encoding: .utf8) }
            try #require(link(sd + "/a.log", sd + "/hard.log") == 0 && symlink("a.log", sd + "/soft.log") == 0)
            try #require(mkfifo(sd + "/fifo", 0o600) == 0)
            let sparse = try runCommand("/bin/sh", ["-c", "truncate -s 1M '\(sd)/sparse.log' && printf 'x\\n' | "
                + "dd of='\(sd)/sparse.log' bs=1 seek=600000 conv=notrunc 2>/dev/null"])
            try #require(sparse.status == 0, "\(sparse.stderr)")
            let tarred = try runCommand("/usr/bin/tar", ["--format=\(format)", "-S", "-C", folder.path, "-cf", folder.path + "/x.tar", "sd"])
            try #require(tarred.status == 0, "\(tarred.stderr)")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path + "/x.tar")))
            let (report, notes) = try readInputs([("x.tar", bytes)])
            // GNU tar stores the file once, under the first name it met, and the other name as a link to it.
            #expect(report.files.count == 1 && ["x.tar:sd/a.log", "x.tar:sd/hard.log"].contains(report.files[0]))
            #expect(report.summaryOfIncidents == ["4107 killed-before-render confirmed"])
            let linked = ["x.tar:sd/a.log", "x.tar:sd/hard.log"].first { $0 != report.files[0] } ?? ""
            #expect(notes.count == 4, "\(notes)")
            for said in [
                "not read: 1 hidden member of an archive (a name starting with '.'): x.tar:sd/.hidden.log",
                "not read: 1 sparse file inside an archive (stored as a map of its data): x.tar:sd/sparse.log",
                "not read: 1 member of an archive that is neither a file nor a folder (a device, a FIFO, or a type "
                    + "unknown here): x.tar:sd/fifo",
            ] {
                #expect(notes.contains(said), "\(notes)")
            }
            let links = try #require(notes.first { $0.hasPrefix("not read: 2 links inside an archive (a link holds no data; "
                + "what it names is read where it is stored): ") })
            #expect(links.contains("x.tar:sd/soft.log") && links.contains(linked))
        }
    }
}

extension Array {
    /// The one element, or nil.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
