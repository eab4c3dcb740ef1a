#if SQLiteCache
    /// The check ``SQLiteCacheStore`` stores with each entry and compares when reading it: a
    /// 64-bit hash over the entry's key, secondary key, head, times and body, so that a
    /// damaged byte anywhere, a missing or reordered body chunk, or a row moved under another
    /// key reads as a miss rather than a wrong response.
    ///
    /// FNV-1a's step (xor, then multiply by the FNV prime) taken over 64-bit little-endian
    /// words rather than bytes: eight times fewer multiplications on a large body. Each step
    /// is a bijection of the state, so a change confined to one word always changes the
    /// result. Each part is hashed with its length, so that bytes moved from one part to the
    /// next change it too. Not a defence against someone forging rows on purpose: the file is
    /// the app's own.
    struct EntryChecksum {
        private var state: UInt64 = 0xcbf2_9ce4_8422_2325
        /// The bytes of a part that did not fill a word yet, and how many.
        private var pending: UInt64 = 0
        private var pendingCount = 0

        /// Adds a part's length: call it before the part's bytes.
        mutating func addLength(_ length: Int) {
            flush()
            mix(UInt64(truncatingIfNeeded: length))
        }

        /// Adds a number (a time's bit pattern).
        mutating func add(_ number: UInt64) {
            flush()
            mix(number)
        }

        /// Adds bytes of the current part; a part may come in several pieces (body chunks),
        /// and the result does not depend on where the pieces split.
        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var index = 0
            let count = bytes.count
            while pendingCount > 0, pendingCount < 8, index < count {
                pending |= UInt64(bytes[index]) << (8 * pendingCount)
                pendingCount += 1
                index += 1
            }
            if pendingCount == 8 { flush() }
            while count - index >= 8 {
                mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                index += 8
            }
            while index < count {
                pending |= UInt64(bytes[index]) << (8 * pendingCount)
                pendingCount += 1
                index += 1
            }
        }

        /// Adds a whole part: its length, then its bytes.
        mutating func addPart(_ bytes: UnsafeRawBufferPointer) {
            addLength(bytes.count)
            add(bytes)
        }

        /// Adds an entry's request and response times (seconds since 1970).
        mutating func addTimes(_ requestTime: Double, _ responseTime: Double) {
            add(requestTime.bitPattern)
            add(responseTime.bitPattern)
        }

        /// Adds a whole part: its length, then its bytes.
        mutating func addPart(_ bytes: some Collection<UInt8>) {
            addLength(bytes.count)
            if bytes.withContiguousStorageIfAvailable({ add(UnsafeRawBufferPointer($0)) }) == nil {
                Array(bytes).withUnsafeBytes { add($0) }
            }
        }

        /// The check, as a signed integer for SQLite.
        var value: Int64 {
            var copy = self
            copy.flush()
            return Int64(bitPattern: copy.state)
        }

        private mutating func flush() {
            guard pendingCount > 0 else { return }
            // A short word carries its count in its free top byte: 1 byte 0x01 differs from 2
            // bytes 0x01 0x00.
            mix(pendingCount == 8 ? pending : pending | UInt64(pendingCount) << 56)
            pending = 0
            pendingCount = 0
        }

        private mutating func mix(_ word: UInt64) {
            state = (state ^ word) &* 0x0000_0100_0000_01b3
        }
    }
#endif
