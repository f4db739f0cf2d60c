import FlatJSON
import HTTPServer

/// `GET /.well-known/apple-app-site-association` and `GET /.well-known/assetlinks.json`,
/// built once from configuration (`AppAssociation`): each answers 404 while it names no app,
/// as a path the server does not know would.
/// Apple's CDN and Android fetch them without a redirect, as JSON.
enum AppAssociationRoutes {
    static func bind(_ routes: inout Routes, _ apps: AppAssociation) {
        let absent = ErrorResponder.problem(for: Problem.notFound).response()
        let apple = apps.appleAppIDs.isEmpty ? absent : file(appleSiteAssociation(apps.appleAppIDs))
        let android = apps.androidApps.isEmpty ? absent : file(assetLinks(apps.androidApps))
        routes.plain("GET", "/.well-known/apple-app-site-association") { _ in apple }
        routes.plain("GET", "/.well-known/assetlinks.json") { _ in android }
    }

    /// `{"webcredentials":{"apps":[…]}}`: `applinks` is the app's own business.
    static func appleSiteAssociation(_ appIDs: [String]) -> [UInt8] {
        var apps: [UInt8] = Array("[".utf8)
        for (index, appID) in appIDs.enumerated() {
            if index > 0 { apps.append(UInt8(ascii: ",")) }
            FlatJSONObject.appendQuoted(appID, to: &apps)
        }
        return Array(#"{"webcredentials":{"apps":"#.utf8) + apps + Array("]}}".utf8)
    }

    /// One statement per app: it may use the credentials saved for this domain.
    static func assetLinks(_ apps: [AppAssociation.AndroidApp]) -> [UInt8] {
        var body: [UInt8] = Array("[".utf8)
        for (index, app) in apps.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += Array(#"{"relation":["delegate_permission/common.get_login_creds"],"target":{"namespace":"android_app","package_name":"#.utf8)
            FlatJSONObject.appendQuoted(app.package, to: &body)
            body += Array(#","sha256_cert_fingerprints":["#.utf8)
            FlatJSONObject.appendQuoted(app.certificateFingerprint, to: &body)
            body += Array("]}}".utf8)
        }
        return body + Array("]".utf8)
    }

    private static func file(_ body: [UInt8]) -> Response {
        Response(
            status: 200,
            headers: [HTTPField(name: "Content-Type", value: "application/json"), HTTPField(name: "Cache-Control", value: "public, max-age=3600")],
            body: body
        )
    }
}
