/// A picture's bytes without what tells the world about the person who took it: the
/// camera, the time, and above all the GPS position. Nothing is re-encoded: segments and
/// chunks are dropped whole, so a picture that had none of them comes back byte for byte.
/// Each format keeps a list of what may stay, not of what must go, so a kind of metadata
/// that is new or unknown (C2PA manifests, which can carry a position) goes too:
///
/// - JPEG: SOI, the SOFn frame headers, DHT, DQT, DRI, DAC, SOS with its scan data, RSTn,
///   EOI, and APP0 `JFIF`, APP2 `ICC_PROFILE` and APP14 `Adobe` (which decoding needs);
///   nothing after the end-of-image marker (where multi-picture files keep a second image
///   with its own Exif).
/// - PNG: `IHDR`, `PLTE`, `tRNS`, `gAMA`, `cHRM`, `sRGB`, `iCCP`, `sBIT`, `pHYs`, `IDAT`,
///   `IEND`; nothing after `IEND`.
/// - WebP: `VP8 `, `VP8L`, `VP8X`, `ALPH`, `ANIM`, `ANMF` (and in a frame its image and
///   alpha) and `ICCP`, the VP8X flags that announce EXIF and XMP cleared, and the RIFF
///   size made to match; nothing after the RIFF container.
public enum PictureMetadata {
    /// Throws `.malformed` when the bytes do not hold together as `format`: a length that
    /// runs past the end, a missing marker. Every loop advances by at least one byte.
    public static func stripped(_ bytes: [UInt8], as format: ImageFormat) throws(PictureFormatError) -> [UInt8] {
        try plan(bytes, as: format).apply(to: bytes)
    }

    static func plan(_ bytes: some PictureBytes, as format: ImageFormat) throws(PictureFormatError) -> StripPlan {
        switch format {
        case .jpeg: try JPEGMetadata.plan(bytes)
        case .png: try PNGMetadata.plan(bytes)
        case .webp: try WebPMetadata.plan(bytes)
        }
    }
}

public enum PictureFormatError: Error, Equatable, Sendable {
    case malformed(String)
}
