/// Names (and the one text value) handed to OpenSSL's parameter builder. `OSSL_PARAM_BLD`
/// keeps the pointers it is given, not copies, until `OSSL_PARAM_BLD_to_param`; a Swift
/// string passed as a C string lives only for the call, so these live for the process.
enum OSSLParameterName {
    // nonisolated(unsafe): written once at initialisation, only read afterwards.
    nonisolated(unsafe) static let group = persistent("group")
    nonisolated(unsafe) static let publicKey = persistent("pub")
    nonisolated(unsafe) static let modulus = persistent("n")
    nonisolated(unsafe) static let exponent = persistent("e")
    nonisolated(unsafe) static let p256 = persistent("prime256v1")

    private static func persistent(_ text: String) -> UnsafePointer<CChar> {
        let characters = Array(text.utf8CString)
        let storage = UnsafeMutablePointer<CChar>.allocate(capacity: characters.count)
        storage.initialize(from: characters, count: characters.count)
        return UnsafePointer(storage)
    }
}
