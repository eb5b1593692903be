"""The supervisor's durable files read back by chaos on its own, not through the supervisor's decoders: the input
journal (Sources/Browser/Editor/InputJournal.swift, JournalScan.swift) and the session file (SessionFile.swift,
+Codec, +Saves), with the torn-tail rules written there, and the digests the event log carries (the document's
FNV-1a 64, WireProtocol/Message.swift; the session's, Tabs/SessionDigest.swift). A restore that reads a file
wrongly is then caught by a reader that does not share its code.
"""
import struct, zlib

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
FNV_BASIS, FNV_PRIME = 0xCBF29CE484222325, 0x100000001B3

JOURNAL_MAGIC = b"\x89SVJRNL\n"
JOURNAL_HEADER = JOURNAL_MAGIC + struct.pack("<HH", 1, 0)
JOURNAL_HEADER += struct.pack("<I", zlib.crc32(JOURNAL_HEADER))
SYNCED = 0xFFFFFFFF
MAX_RECORD = 1 << 20

SESSION_MAGIC = b"\x89SVSESS\n"
SAVE_TAG = b"SVUP"
MAX_STRING = 64 * 1024
HISTORY_CAPACITY = 100


def document_digest(data, start=FNV_BASIS):
    h = start
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK
    return h


class Journal:
    """What JournalScan finds: the inputs read intact from the start (`texts`, seq i + 1 at index i), the bytes of
    a torn tail after them (nothing vouches for it), or `damage` (a later synced mark vouches for it)."""

    def __init__(self, path):
        self.texts, self.torn, self.damage = [], 0, None
        try:
            with open(path, "rb") as f:
                data = f.read()
        except (TypeError, FileNotFoundError):
            return  # no journal yet
        if not data or (len(data) < len(JOURNAL_HEADER) and JOURNAL_HEADER.startswith(data)):
            return  # new, or its creation cut short: nothing to lose
        if not data.startswith(JOURNAL_HEADER):
            self.damage = "header"
            return
        self.data = data
        end, last = len(JOURNAL_HEADER), 0
        while (item := self._item(end)) is not None:
            kind, seq, nxt = item[0], item[1], item[-1]
            if kind == "record" and seq == last + 1:
                self.texts.append(item[2])
                last = seq
            elif not (kind == "synced" and seq == last):
                break
            end = nxt
        self.end = end
        if end < len(data) and self._vouched(last, end):
            self.damage = f"damaged at byte {end}, after input {last}, which a later synced mark vouches for"
        else:
            self.torn = len(data) - end

    def _item(self, offset):
        data = self.data
        if offset + 16 > len(data):
            return None
        length, seq, checksum = struct.unpack_from("<IQI", data, offset)
        head = zlib.crc32(data[offset:offset + 12])
        if length == SYNCED:
            return ("synced", seq, offset + 16) if head == checksum else None
        if length > MAX_RECORD or length > len(data) - offset - 16:
            return None
        text = data[offset + 16:offset + 16 + length]
        if zlib.crc32(text, head) != checksum:
            return None
        return ("record", seq, text, offset + 16 + length)

    def _vouched(self, seq, offset):
        at = self.data.find(b"\xff\xff\xff\xff", offset + 1)
        while at != -1:
            item = self._item(at)
            if item and item[0] == "synced" and item[1] > seq:
                return True
            at = self.data.find(b"\xff\xff\xff\xff", at + 1)
        return False

    def prefix_digests(self):
        """digests[n]: the document digest of inputs 1…n, as `journal-synced` logs it (hex)."""
        digests, h = [format(FNV_BASIS, "x")], FNV_BASIS
        for text in self.texts:
            h = document_digest(text, h)
            digests.append(format(h, "x"))
        return digests


def session_digest(records):
    """SessionDigest.value over the tabs' records (each one's first 8 bytes: its length and CRC), by position."""
    total = 0
    for position, record in enumerate(records):
        z = (int.from_bytes(record[:8], "little") + position * GOLDEN) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        total = (total + (z ^ (z >> 31))) & MASK
    return format((total + len(records) * GOLDEN) & MASK, "x")


class Session:
    """The states a session file went through since it was last written whole: `states[0]` from its header and
    records, then one per intact save appended, each (tabs, digest, journal records or None). The file reads as
    `states[-1]`. `torn` is the bytes of a last save the file holds only part of; `damage` anything else broken."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = data = f.read()
        self.states, self.torn, self.damage = [], 0, None
        header = self._header()
        if header is None:
            self.damage = self.damage or "header refused"
            return
        count, journal, offset = header
        slots = []
        for _ in range(count):
            record = self._record(offset, len(data))
            if record is None or record[0] is None:
                self.damage = f"tab record at byte {offset} truncated or damaged"
                return
            slots.append(record[0])
            offset = record[1]
        self.states.append(self._state(slots, journal))
        end = offset
        while len(data) - end >= 8 and data[end:end + 4] == SAVE_TAG:
            (length,) = struct.unpack_from("<I", data, end + 4)
            stop = end + 8 + length
            if length < 4 or stop > len(data):
                self.torn = len(data) - end
                break
            if zlib.crc32(data[end:stop - 4]) != struct.unpack_from("<I", data, stop - 4)[0]:
                if stop == len(data):
                    self.torn = len(data) - end
                break
            save = self._save(end + 8, stop - 4)
            if save is None:
                break
            count, journal, changes = save
            del slots[count:]
            slots += [None] * (count - len(slots))
            for position, record in changes:
                slots[position] = record
            if any(record is None for record in slots):
                self.damage = f"the save at byte {end} leaves a tab without a record"
                return
            self.states.append(self._state(slots, journal))
            end = stop
        rest = data[end + self.torn:]
        if not self.torn and rest and (len(rest) < 8 and SAVE_TAG.startswith(rest[:4]) or not rest.strip(b"\0")):
            self.torn = len(rest)
        trailing = len(data) - end - self.torn
        if trailing:
            self.damage = f"{trailing} damaged bytes after the last intact save (from byte {end})"

    @staticmethod
    def _state(slots, journal):
        return (len(slots), session_digest(slots), journal)

    def _header(self):
        data = self.data
        if not data.startswith(SESSION_MAGIC) or len(data) < 8 + 2 + 4 + 13:
            return None
        version, count = struct.unpack_from("<HI", data, 8)
        if version not in (1, 2):
            self.damage = f"version {version}"
            return None
        journal, offset = self._journal(14, len(data))
        if offset is None or offset + 4 > len(data):
            return None
        if zlib.crc32(data[:offset]) != struct.unpack_from("<I", data, offset)[0]:
            return None
        return count, journal, offset + 4

    def _journal(self, offset, limit):
        """(journal records or None, offset after the field), or (None, None) out of bounds."""
        if offset + 13 > limit:
            return None, None
        present, records, length = struct.unpack_from("<BQI", self.data, offset)
        if present > 1 or length > MAX_STRING or offset + 13 + length > limit:
            return None, None
        return (records if present else None), offset + 13 + length

    def _record(self, offset, limit):
        """(the record's bytes, or None when it fails its checksum or a bound; the offset after it), or None when its
        length runs past `limit`."""
        data = self.data
        if offset + 8 > limit:
            return None
        length, checksum = struct.unpack_from("<II", data, offset)
        end = offset + 8 + length
        if end > limit:
            return None
        if zlib.crc32(data[offset + 8:end], zlib.crc32(data[offset:offset + 4])) != checksum:
            return None, end
        # Walk the payload: id, flags, index, entry count, then a bounded URL and title per entry.
        at = offset + 8 + 17
        if at > end:
            return None, end
        (entries,) = struct.unpack_from("<I", data, at - 4)
        if entries > HISTORY_CAPACITY:
            return None, end
        for _ in range(2 * entries):
            if at + 4 > end:
                return None, end
            (size,) = struct.unpack_from("<I", data, at)
            at += 4 + size
            if size > MAX_STRING or at > end:
                return None, end
        return (data[offset:end] if at == end else None), end

    def _save(self, offset, limit):
        """(tab count, journal, [(position, record)]) of a save whose checksum passed; None when it breaks a bound."""
        if offset + 4 > limit:
            return None
        (count,) = struct.unpack_from("<I", self.data, offset)
        journal, offset = self._journal(offset + 4, limit)
        if offset is None or offset + 4 > limit:
            return None
        (changes,) = struct.unpack_from("<I", self.data, offset)
        offset += 4
        found = []
        for _ in range(changes):
            if offset + 4 > limit:
                return None
            (position,) = struct.unpack_from("<I", self.data, offset)
            record = self._record(offset + 4, limit)
            if position >= count or record is None or record[0] is None:
                return None
            found.append((position, record[0]))
            offset = record[1]
        return (count, journal, found) if offset == limit else None
