import Testing
import WorkerRuntime

@testable import LogAnalysis
@testable import SupervisorTesting

/// The worker's allocator (Workers/WorkerRuntime), driven directly: this test process is its only user, since the
/// supervisor itself allocates with glibc. Issue 18, item 7: its size arithmetic is checked for overflow, and it
/// holds up under a long random mix of sizes, alignments and frees.
@Suite(.serialized) struct WorkerAllocator {
    @Test func sizesWhoseArithmeticWouldOverflowAreRefusedNotWrapped() {
        var pointer: UnsafeMutableRawPointer?
        // size_t comes to Swift as Int: -1 is SIZE_MAX.
        for size in [-1, -4096, Int.max, Int.max - 8, Int.max / 2] {
            #expect(wr_posix_memalign(&pointer, 16, size) == 12, "size \(size)")
        }
        #expect(wr_posix_memalign(&pointer, 1 << 62, 64) == 12)
        for alignment in [0, 3, 24, 100] { #expect(wr_posix_memalign(&pointer, alignment, 64) == 22, "alignment \(alignment)") }
    }

    /// 60,000 steps: allocate (8 B to 512 KiB, aligned 16 to 4096), fill with a pattern of its own, or free a live
    /// block after checking its pattern. A block that overlapped another, a header the free list overwrote, or a
    /// misaligned address fails at once.
    @Test func aLongRandomMixKeepsEveryBlockIntact() {
        var random = TestRandom(seed: 18)
        var live: [(pointer: UnsafeMutableRawPointer, size: Int, tag: UInt8)] = []
        for step in 0..<60_000 {
            if live.count < 512, live.isEmpty || random.next(3) != 0 {
                let size = random.next(50) == 0 ? 1 << (12 + random.next(8)) : 8 + random.next(4000)
                let alignment = 16 << random.next(9)
                var pointer: UnsafeMutableRawPointer?
                #expect(wr_posix_memalign(&pointer, alignment, size) == 0)
                guard let pointer else { return }
                #expect(Int(bitPattern: pointer) % alignment == 0)
                let tag = UInt8(truncatingIfNeeded: step)
                pointer.initializeMemory(as: UInt8.self, repeating: tag, count: size)
                live.append((pointer, size, tag))
            } else {
                let block = live.remove(at: random.next(live.count))
                let bytes = UnsafeRawBufferPointer(start: block.pointer, count: block.size)
                guard bytes.allSatisfy({ $0 == block.tag }) else {
                    Issue.record("a block of \(block.size) bytes was overwritten by step \(step)")
                    return
                }
                wr_free(block.pointer)
            }
        }
        for block in live { wr_free(block.pointer) }
    }
}
