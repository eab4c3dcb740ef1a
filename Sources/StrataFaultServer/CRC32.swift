/// CRC-32 (the gzip trailer's checksum) of runs of zero bytes, computed without
/// touching the bytes: the CRC register is a linear function of its previous value, so
/// `n` zero bytes are one 32×32 matrix over GF(2), raised to the `n`th power by
/// squaring (the method of zlib's `crc32_combine`).
enum CRC32 {
    /// The reflected CRC-32 polynomial.
    private static let polynomial: UInt32 = 0xEDB8_8320

    /// The CRC-32 of `count` zero bytes.
    static func ofZeros(count: Int) -> UInt32 {
        precondition(count >= 0, "a byte count is never negative")
        // The operator for one zero bit, then squared twice: two bits, four bits.
        var odd = [UInt32](repeating: 0, count: 32)
        odd[0] = polynomial
        for bit in 1..<32 { odd[bit] = 1 << UInt32(bit - 1) }
        var even = square(odd)
        odd = square(even)
        var register: UInt32 = 0xFFFF_FFFF
        var remaining = count
        // Each round squares the operator (one byte, two bytes, four bytes, …) and applies
        // it when the matching bit of `count` is set.
        while remaining > 0 {
            even = square(odd)
            if remaining & 1 == 1 { register = times(even, register) }
            remaining >>= 1
            guard remaining > 0 else { break }
            odd = square(even)
            if remaining & 1 == 1 { register = times(odd, register) }
            remaining >>= 1
        }
        return ~register
    }

    private static func times(_ matrix: [UInt32], _ vector: UInt32) -> UInt32 {
        var sum: UInt32 = 0
        var vector = vector
        var row = 0
        while vector != 0 {
            if vector & 1 == 1 { sum ^= matrix[row] }
            vector >>= 1
            row += 1
        }
        return sum
    }

    private static func square(_ matrix: [UInt32]) -> [UInt32] {
        matrix.map { times(matrix, $0) }
    }
}
