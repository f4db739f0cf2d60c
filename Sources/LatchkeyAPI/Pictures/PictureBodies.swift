import HTTPServer
import LatchkeyCore

/// The body of `PUT /v1/users/me/photo`: the picture itself, written to disk as it arrives.
///
/// `@unchecked Sendable`: see `RequestBodyReceiver` (one thread at a time).
final class RawPictureBody: RequestBodyReceiver, @unchecked Sendable {
    let upload: PictureUpload

    init(_ upload: PictureUpload) {
        self.upload = upload
    }

    func receive(_ piece: UnsafeRawBufferPointer) throws { try upload.append(piece) }

    func finish() {}
}

/// The body of `POST /v1/users/me/photo`: a `multipart/form-data` form whose part `file`
/// is the picture, written to disk as it arrives; other parts are parsed and dropped.
///
/// `@unchecked Sendable`: see `RequestBodyReceiver` (one thread at a time).
final class FormPictureBody: RequestBodyReceiver, @unchecked Sendable {
    let upload: PictureUpload
    private var parser: MultipartParser
    /// The `Content-Type` of part `file`, once that part has begun.
    private(set) var mediaType: String?
    private var inFilePart = false

    init(_ upload: PictureUpload, boundary: [UInt8]) {
        self.upload = upload
        parser = MultipartParser(boundary: boundary)
    }

    func receive(_ piece: UnsafeRawBufferPointer) throws {
        let events: [MultipartParser.Event]
        do {
            events = try parser.feed(piece)
        } catch {
            throw Self.malformed
        }
        for event in events {
            switch event {
            case .part(let fields):
                // The first part named `file` is the picture.
                inFilePart = mediaType == nil && MultipartParser.formFieldName(of: fields).map { Array($0.utf8) == Array("file".utf8) } == true
                if inFilePart { mediaType = fields.value(of: "Content-Type") ?? "" }
            case .data(let bytes):
                if inFilePart { try bytes.withUnsafeBytes { try upload.append($0) } }
            case .partEnd:
                inFilePart = false
            }
        }
    }

    func finish() throws {
        do {
            try parser.finish()
        } catch {
            throw Self.malformed
        }
        guard mediaType != nil else {
            throw APIProblem.invalidArgument(field: "file", detail: "Send the picture in a form part named file (curl -F file=@me.jpg).")
        }
    }

    private static let malformed = APIProblem.invalidArgument(field: "file", detail: "The multipart/form-data body is malformed.")
}
