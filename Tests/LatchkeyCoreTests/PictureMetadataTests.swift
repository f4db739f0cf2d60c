import Foundation
@testable import LatchkeyCore
import Testing

/// Metadata leaves a picture without re-encoding it; a picture without any comes back
/// byte for byte. (Real encoders' files, checked with Pillow, are in the end-to-end tests.)
@Suite struct PictureMetadataTests {
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// `FF marker`, a length that counts itself, then `payload`.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    static let jfif = segment(0xE0, ascii("JFIF\0") + [1, 1, 0, 0, 1, 0, 1, 0, 0])
    static let icc = segment(0xE2, ascii("ICC_PROFILE\0") + [1, 1, 9, 9])
    static let quantization = segment(0xDB, [0, 1, 2, 3])
    static let scan = segment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + [0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD0, 0x78]
    static let exif = segment(0xE1, ascii("Exif\0\0GPS 51.5N 0.1W"))
    static let xmp = segment(0xE1, ascii("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>"))

    @Test(arguments: PictureMetadataCase.all)
    func givesTheExpectedPicture(_ row: PictureMetadataCase) throws {
        #expect(try PictureMetadata.stripped(row.input, as: row.format) == row.expected)
    }

    /// An upload is stripped from its file, read through a window and written in pieces:
    /// the same bytes come out.
    @Test(arguments: PictureMetadataCase.all)
    func givesTheSamePictureFromAFile(_ row: PictureMetadataCase) throws {
        let folder = NSTemporaryDirectory() + "latchkey-strip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let upload = try PictureUpload(in: folder, limit: row.input.count)
        try row.input.withUnsafeBytes { try upload.append($0) }
        let plan = try PictureMetadata.plan(upload.contents, as: row.format)
        let path = folder + "/stripped"
        try DurableFile.write(to: path) { try plan.write(from: upload.fd, to: $0) }
        #expect(FileManager.default.contents(atPath: path) == Data(row.expected))
    }

    @Test func jpegLosesExifXMPCommentsAndTrailingImagesButKeepsWhatDecodingNeeds() throws {
        let clean = [0xFF, 0xD8] + Self.jfif + Self.icc + Self.quantization + Self.scan + [0xFF, 0xD9]
        #expect(try PictureMetadata.stripped(clean, as: .jpeg) == clean, "nothing to remove: byte for byte")

        let tagged = [0xFF, 0xD8] + Self.jfif + Self.exif + Self.icc + Self.xmp + Self.segment(0xED, Self.ascii("Photoshop 3.0\0"))
            + Self.segment(0xFE, Self.ascii("shot on a phone")) + Self.quantization + Self.scan + [0xFF, 0xD9]
            + [0xFF, 0xD8] + Self.exif + [0xFF, 0xD9]  // a second (multi-picture) image with its own Exif
        #expect(try PictureMetadata.stripped(tagged, as: .jpeg) == clean)
    }

    @Test func segmentsBetweenProgressiveScansAreFilteredToo() throws {
        let scans = [0xFF, 0xD8] + Self.jfif + Self.scan + Self.exif + Self.scan + [0xFF, 0xD9]
        #expect(try PictureMetadata.stripped(scans, as: .jpeg) == [0xFF, 0xD8] + Self.jfif + Self.scan + Self.scan + [0xFF, 0xD9])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let length = data.count
        return [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
            + ascii(type) + data + [0xDE, 0xAD, 0xBE, 0xEF]
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    @Test func pngLosesTextTimeAndExifChunks() throws {
        let header = Self.chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])
        let image = Self.chunk("IDAT", [1, 2, 3]) + Self.chunk("IEND", [])
        let clean = Self.pngSignature + header + Self.chunk("iCCP", [7]) + image
        #expect(try PictureMetadata.stripped(clean, as: .png) == clean)
        let tagged = Self.pngSignature + header + Self.chunk("tEXt", Self.ascii("Author\0Ada")) + Self.chunk("iCCP", [7])
            + Self.chunk("eXIf", Self.ascii("MM\0*GPS")) + Self.chunk("zTXt", [1]) + Self.chunk("iTXt", [2]) + Self.chunk("tIME", [7, 234, 11, 24, 0, 0, 0])
            + image + Self.ascii("trailing")
        #expect(try PictureMetadata.stripped(tagged, as: .png) == clean)
    }

    static func riffChunk(_ fourCC: String, _ data: [UInt8]) -> [UInt8] {
        let size = data.count
        return ascii(fourCC) + [UInt8(size & 0xFF), UInt8((size >> 8) & 0xFF), UInt8((size >> 16) & 0xFF), UInt8(size >> 24)]
            + data + (size % 2 == 1 ? [0] : [])
    }

    static func webp(_ chunks: [UInt8]) -> [UInt8] {
        let size = chunks.count + 4
        return ascii("RIFF") + [UInt8(size & 0xFF), UInt8((size >> 8) & 0xFF), UInt8((size >> 16) & 0xFF), UInt8(size >> 24)] + ascii("WEBP") + chunks
    }

    @Test func webpLosesExifAndXMPChunksTheirFlagsAndGetsItsSizeRight() throws {
        let image = Self.riffChunk("VP8L", [0x2F, 1, 2, 3, 4])
        let clean = Self.webp(Self.riffChunk("VP8X", [0x10] + [UInt8](repeating: 0, count: 9)) + image)
        #expect(try PictureMetadata.stripped(clean, as: .webp) == clean)
        let tagged = Self.webp(Self.riffChunk("VP8X", [0x10 | 0x08 | 0x04] + [UInt8](repeating: 0, count: 9)) + image
            + Self.riffChunk("EXIF", Self.ascii("MM\0*GPS")) + Self.riffChunk("XMP ", Self.ascii("<x/>")))
        #expect(try PictureMetadata.stripped(tagged, as: .webp) == clean)
    }

    @Test(arguments: [
        ([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x40, 0x00], ImageFormat.jpeg),  // a segment past the end
        ([0xFF, 0xD8] + jfif, .jpeg),  // no end of image
        (pngSignature + [0x00, 0x00, 0x10, 0x00] + ascii("IDAT"), .png),
        (pngSignature + chunk("IHDR", [1]), .png),  // no IEND
        (Array(webp(riffChunk("VP8L", [1, 2])).dropLast(1)), .webp),  // RIFF size past the end
        (webp(ascii("VP8L") + [0xFF, 0xFF, 0, 0]), .webp),  // a chunk past the RIFF end
    ] as [([UInt8], ImageFormat)])
    func brokenFilesAreRefusedNotCopied(_ bytes: [UInt8], _ format: ImageFormat) {
        #expect(throws: PictureFormatError.self) { try PictureMetadata.stripped(bytes, as: format) }
    }

    @Test func formatsAreSniffedFromBytesAndNamedByMediaType() {
        #expect(ImageFormat(sniffing: [0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFormat(sniffing: Self.pngSignature) == .png)
        #expect(ImageFormat(sniffing: Self.webp([])) == .webp)
        #expect(ImageFormat(sniffing: Self.ascii("GIF89a")) == nil)
        #expect(ImageFormat(mediaType: Self.ascii("Image/JPEG; charset=x")) == .jpeg)
        #expect(ImageFormat(mediaType: Self.ascii("image/webp ")) == .webp)
        #expect(ImageFormat(mediaType: Self.ascii("image/gif")) == nil)
        #expect(ImageFormat(mediaType: Array("image/jpeg".replacing("j", with: "\u{0134}").utf8)) == nil, "bytes, not Unicode")
    }
}
