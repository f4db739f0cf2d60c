import LatchkeyCore
import Testing

/// One row of the metadata strippers' table: a picture, and what must come out of it.
/// The rows are the allow-lists of API.md read both ways: everything on a list stays byte
/// for byte, and anything off it goes, above all what a list of what to remove would miss
/// (C2PA manifests, chunks and markers no standard names).
struct PictureMetadataCase: Sendable, CustomTestStringConvertible {
    let name: String
    let format: ImageFormat
    let input: [UInt8]
    let expected: [UInt8]

    var testDescription: String { name }

    static func keeps(_ name: String, _ format: ImageFormat, _ input: [UInt8]) -> Self {
        Self(name: name, format: format, input: input, expected: input)
    }

    static func strips(_ name: String, _ format: ImageFormat, _ input: [UInt8], to expected: [UInt8]) -> Self {
        Self(name: name, format: format, input: input, expected: expected)
    }

    typealias Parts = PictureMetadataTests
    static let manifest = Parts.ascii("jumbc2pa GPS 50.8N 0.1W")

    // MARK: JPEG

    static let soi: [UInt8] = [0xFF, 0xD8]
    static let eoi: [UInt8] = [0xFF, 0xD9]
    static let huffman = Parts.segment(0xC4, [0x00] + [UInt8](repeating: 0, count: 16))
    static let restartInterval = Parts.segment(0xDD, [0x00, 0x04])
    static let progressiveFrame = Parts.segment(0xC2, [8, 0, 1, 0, 1, 1, 1, 0x11, 0])
    static let arithmeticConditioning = Parts.segment(0xCC, [0x00, 0x10])
    static let adobe = Parts.segment(0xEE, Parts.ascii("Adobe") + [0, 100, 0, 0, 0, 0, 1])
    static let scanWithRestarts = Parts.segment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + [0x12, 0xFF, 0x00, 0xFF, 0xD0, 0x34, 0xFF, 0xD1, 0x56]
    /// Every segment JPEG decoding reads, and the three APPn segments that may stay.
    static let afterJFIF = Parts.icc + adobe + Parts.quantization + huffman + arithmeticConditioning + restartInterval
        + progressiveFrame + scanWithRestarts + Parts.scan + eoi
    static let cleanJPEG = soi + Parts.jfif + afterJFIF

    static func jpegWith(_ extra: [UInt8]) -> [UInt8] { soi + Parts.jfif + extra + afterJFIF }

    static let jpeg: [Self] = [
        .keeps("JPEG: everything decoding reads, JFIF, ICC and Adobe stay byte for byte", .jpeg, cleanJPEG),
        .strips("JPEG: APP11 (C2PA JUMBF) goes", .jpeg, jpegWith(Parts.segment(0xEB, Parts.ascii("JP") + [0, 1, 0, 0, 0, 1] + manifest)), to: cleanJPEG),
        .strips("JPEG: APP13 (Photoshop IRB) goes", .jpeg, jpegWith(Parts.segment(0xED, Parts.ascii("Photoshop 3.0\08BIM") + manifest)), to: cleanJPEG),
        .strips("JPEG: APP1 Exif and XMP go", .jpeg, jpegWith(Parts.exif + Parts.xmp), to: cleanJPEG),
        .strips("JPEG: COM goes", .jpeg, jpegWith(Parts.segment(0xFE, manifest)), to: cleanJPEG),
        .strips("JPEG: APP15, which nothing names, goes", .jpeg, jpegWith(Parts.segment(0xEF, manifest)), to: cleanJPEG),
        .strips("JPEG: JPG1, a marker no decoder reads, goes", .jpeg, jpegWith(Parts.segment(0xF1, manifest)), to: cleanJPEG),
        .strips("JPEG: a reserved marker (0x02) goes", .jpeg, jpegWith(Parts.segment(0x02, manifest)), to: cleanJPEG),
        .strips("JPEG: TEM goes", .jpeg, jpegWith([0xFF, 0x01]), to: cleanJPEG),
        .strips("JPEG: APP0 that is not JFIF (JFXX) goes", .jpeg, jpegWith(Parts.segment(0xE0, Parts.ascii("JFXX\0") + manifest)), to: cleanJPEG),
        .strips("JPEG: APP2 that is not ICC (MPF) goes", .jpeg, jpegWith(Parts.segment(0xE2, Parts.ascii("MPF\0") + manifest)), to: cleanJPEG),
        .strips("JPEG: APP14 that is not Adobe goes", .jpeg, jpegWith(Parts.segment(0xEE, manifest)), to: cleanJPEG),
        .strips("JPEG: anything after EOI goes", .jpeg, cleanJPEG + manifest, to: cleanJPEG),
    ]

    // MARK: PNG

    static let header = Parts.chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 3, 0, 0, 0])
    static let image = Parts.chunk("IDAT", [1, 2, 3]) + Parts.chunk("IDAT", [4]) + Parts.chunk("IEND", [])
    static let colour = Parts.chunk("gAMA", [0, 0, 0xB1, 0x8F]) + Parts.chunk("cHRM", [UInt8](repeating: 1, count: 32))
        + Parts.chunk("sRGB", [0]) + Parts.chunk("iCCP", Parts.ascii("icc\0\0") + [0x78]) + Parts.chunk("sBIT", [8, 8, 8])
        + Parts.chunk("pHYs", [0, 0, 0x0B, 0x13, 0, 0, 0x0B, 0x13, 1])
    static let palette = Parts.chunk("PLTE", [0, 0, 0, 255, 255, 255]) + Parts.chunk("tRNS", [0])
    static let cleanPNG = Parts.pngSignature + header + colour + palette + image

    static func pngWith(_ extra: [UInt8]) -> [UInt8] { Parts.pngSignature + header + extra + colour + palette + image }

    static let png: [Self] = [
        .keeps("PNG: every chunk on the list stays byte for byte", .png, cleanPNG),
        .strips("PNG: caBX (C2PA) goes", .png, pngWith(Parts.chunk("caBX", manifest)), to: cleanPNG),
        .strips("PNG: an ancillary chunk no standard names goes", .png, pngWith(Parts.chunk("whRe", manifest)), to: cleanPNG),
        .strips("PNG: text, time and eXIf go", .png,
                pngWith(Parts.chunk("tEXt", manifest) + Parts.chunk("iTXt", manifest) + Parts.chunk("tIME", [7, 234, 11, 24, 0, 0, 0]) + Parts.chunk("eXIf", manifest)),
                to: cleanPNG),
        .strips("PNG: a standard chunk off the list (bKGD) goes", .png, pngWith(Parts.chunk("bKGD", [0])), to: cleanPNG),
        .strips("PNG: an APNG's animation goes, its default image stays", .png,
                Parts.pngSignature + header + Parts.chunk("acTL", [0, 0, 0, 2, 0, 0, 0, 0]) + colour + palette + Parts.chunk("fcTL", manifest)
                    + Parts.chunk("IDAT", [1, 2, 3]) + Parts.chunk("IDAT", [4]) + Parts.chunk("fdAT", manifest) + Parts.chunk("IEND", []),
                to: cleanPNG),
        .strips("PNG: anything after IEND goes", .png, cleanPNG + manifest, to: cleanPNG),
    ]

    // MARK: WebP

    static let extended = Parts.riffChunk("VP8X", [0x20 | 0x10 | 0x02] + [UInt8](repeating: 0, count: 9))
    static let frameHeader = [UInt8](repeating: 0, count: 15) + [0x02]
    static let frameImage = Parts.riffChunk("ALPH", [0, 9]) + Parts.riffChunk("VP8 ", [1, 2, 3])
    static let cleanWebPChunks = extended + Parts.riffChunk("ICCP", [1, 2, 3, 4]) + Parts.riffChunk("ANIM", [0, 0, 0, 0, 0, 0])
        + Parts.riffChunk("ANMF", frameHeader + frameImage) + Parts.riffChunk("ANMF", frameHeader + Parts.riffChunk("VP8L", [0x2F, 1]))
    static let cleanWebP = Parts.webp(cleanWebPChunks)

    static let webp: [Self] = [
        .keeps("WebP: every chunk on the list, frames and their images stay byte for byte", .webp, cleanWebP),
        .strips("WebP: C2PA goes and the RIFF size follows", .webp, Parts.webp(cleanWebPChunks + Parts.riffChunk("C2PA", manifest)), to: cleanWebP),
        .strips("WebP: a chunk no standard names goes", .webp, Parts.webp(extended + Parts.riffChunk("WHRE", manifest) + Array(cleanWebPChunks.dropFirst(extended.count))),
                to: cleanWebP),
        .strips("WebP: EXIF and XMP go with their VP8X flags", .webp,
                Parts.webp(Parts.riffChunk("VP8X", [0x20 | 0x10 | 0x08 | 0x04 | 0x02] + [UInt8](repeating: 0, count: 9))
                    + Array(cleanWebPChunks.dropFirst(extended.count)) + Parts.riffChunk("EXIF", manifest) + Parts.riffChunk("XMP ", manifest)),
                to: cleanWebP),
        .strips("WebP: a chunk in a frame beside its image goes and the frame's size follows", .webp,
                Parts.webp(Array(cleanWebPChunks.dropLast(Parts.riffChunk("ANMF", frameHeader + Parts.riffChunk("VP8L", [0x2F, 1])).count))
                    + Parts.riffChunk("ANMF", frameHeader + Parts.riffChunk("VP8L", [0x2F, 1]) + Parts.riffChunk("C2PA", manifest))),
                to: cleanWebP),
        .strips("WebP: anything after the RIFF container goes", .webp, cleanWebP + manifest, to: cleanWebP),
    ]

    static let all = jpeg + png + webp
}
