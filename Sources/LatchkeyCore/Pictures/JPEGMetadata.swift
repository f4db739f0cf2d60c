/// JPEG (ITU T.81): markers `FF xx`; segments carry a 16-bit length that counts itself.
/// After a start-of-scan the entropy-coded data runs until the next marker that is not a
/// stuffed `FF 00`, a restart `FF D0`–`FF D7` or fill `FF FF`.
enum JPEGMetadata {
    static func plan(_ bytes: some PictureBytes) throws(PictureFormatError) -> StripPlan {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .malformed("no JPEG start-of-image marker") }
        var plan = StripPlan()
        plan.keep(0..<2)
        var index = 2
        while index < bytes.count {
            guard bytes[index] == 0xFF else { throw .malformed("expected a JPEG marker at byte \(index)") }
            var markerIndex = index + 1
            while markerIndex < bytes.count, bytes[markerIndex] == 0xFF { markerIndex += 1 }  // fill bytes
            guard markerIndex < bytes.count else { throw .malformed("a JPEG marker is cut off") }
            let marker = bytes[markerIndex]
            if marker == 0xD9 {  // end of image: anything after it goes
                plan.keep(markerIndex - 1..<markerIndex + 1)
                return plan
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // TEM and RSTn: no length
                if marker != 0x01 { plan.keep(index..<markerIndex + 1) }
                index = markerIndex + 1
                continue
            }
            guard markerIndex + 2 < bytes.count else { throw .malformed("a JPEG segment length is cut off") }
            let length = bytes.bigEndian16(at: markerIndex + 1)
            let end = markerIndex + 1 + length
            guard length >= 2, end <= bytes.count else { throw .malformed("a JPEG segment runs past the end") }
            if keeps(marker: marker, payloadAt: markerIndex + 3, in: bytes) { plan.keep(index..<end) }
            index = end
            if marker == 0xDA {  // start of scan: keep the entropy-coded data up to the next marker
                let next = nextMarker(in: bytes, from: index)
                plan.keep(index..<next)
                index = next
            }
        }
        throw .malformed("no JPEG end-of-image marker")
    }

    /// What may stay: what decoding needs, and the three APPn segments decoders read for it
    /// (`JFIF`, the ICC profile, `Adobe`'s colour transform). Everything else goes, known
    /// or not: Exif and XMP (APP1), C2PA/JUMBF (APP11), Photoshop's IRB (APP13), comments,
    /// and whatever marker a new standard adds.
    private static func keeps(marker: UInt8, payloadAt payload: Int, in bytes: some PictureBytes) -> Bool {
        switch marker {
        case 0xC0...0xC7, 0xC9...0xCF: true  // SOFn, DHT (C4), DAC (CC); not C8, reserved
        case 0xDA, 0xDB, 0xDD: true  // SOS, DQT, DRI
        case 0xE0: bytes.has("JFIF\0", at: payload)
        case 0xE2: bytes.has("ICC_PROFILE\0", at: payload)
        case 0xEE: bytes.has("Adobe", at: payload)
        default: false
        }
    }

    /// The index of the `FF` of the first real marker at or after `start`, or the end.
    private static func nextMarker(in bytes: some PictureBytes, from start: Int) -> Int {
        var index = start
        while let candidate = bytes.firstIndex(of: 0xFF, from: index), candidate + 1 < bytes.count {
            let next = bytes[candidate + 1]
            if next != 0x00, !(0xD0...0xD7).contains(next), next != 0xFF { return candidate }
            index = candidate + 1
        }
        return bytes.count
    }
}
