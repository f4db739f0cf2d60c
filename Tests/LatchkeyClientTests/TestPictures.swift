import Foundation
import Synchronization

/// Pictures made here, not by a library: a real PNG (it decodes) of noise, stored without
/// compression so that its size is what the test asks for.
enum TestPNG {
    /// `width` × `height` RGB: the signature, IHDR, one IDAT of stored deflate blocks with
    /// its Adler-32, IEND; every CRC right.
    static func make(width: Int, height: Int) -> Data {
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + width * 3))
        for _ in 0..<height {
            raw.append(0)  // filter: none
            for _ in 0..<(width * 3) { raw.append(UInt8.random(in: 0...255)) }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        zlib += bigEndian(adler32(raw))
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
        png += chunk("IDAT", zlib)
        png += chunk("IEND", [])
        return Data(png)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}

/// Upload progress as the client reported it, from whichever thread it called.
final class ProgressRecorder: Sendable {
    private let reports = Mutex<[(sent: Int64, total: Int64?)]>([])

    func record(_ sent: Int64, _ total: Int64?) {
        reports.withLock { $0.append((sent, total)) }
    }

    var all: [(sent: Int64, total: Int64?)] { reports.withLock { $0 } }
}
