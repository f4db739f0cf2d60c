import Foundation
import Testing
import TestSupport

extension Identities {
    /// An identity and an account with the same address; the link and unlink routes.
    @Suite(.serialized) struct Linking {
        /// Both sides verified the address: the provider's identity joins the account.
        @Test func aVerifiedAddressOnBothSidesLinksTheIdentity() throws {
            let idp = try IdentityServer()
            let google = try idp.signedIn("google", subject: "g-ada", email: "ada@example.com", verified: true, expecting: 201)
            let apple = try idp.signedIn("apple", subject: "001.ada", email: "ADA@example.com", verified: "true", expecting: 200)
            let id = try #require(google.user["id"] as? String)
            #expect(apple.user["id"] as? String == id)
            #expect(try idp.auditCount("identity_linked", of: id) == 1)
            let list = try idp.identities(apple.token)
            #expect((list["identities"] as? [[String: Any]])?.compactMap { $0["provider"] as? String }.sorted() == ["apple", "google"], "\(list)")
            #expect(list["hasPassword"] as? Bool == false)
        }

        /// An attacker registers the victim's address with a password here (never verifying
        /// it), waiting for the victim's first "Sign in with Google" to land in that account.
        /// The account's address is unverified: no link, 409.
        @Test func anUnverifiedAccountIsNotJoinedByAProviderSignIn() throws {
            let idp = try IdentityServer()
            let squatter = try idp.server.signUp("victim@example.com", "squatter")
            let response = try idp.signIn("google", try idp.providers.mint("google", idp.providers.claims("google", subject: "g-victim", email: "victim@example.com")))
            expectProblem(response, 409, "ACCOUNT_EXISTS")
            #expect(try idp.auditCount("identity_linked", of: squatter.id) == 0)
            #expect(try StoredRows(idp.server).row("SELECT count(*) FROM identities") { $0.int(at: 0) } == 0)
        }

        /// An attacker with a provider account whose address they never proved (the
        /// provider says `email_verified: false`) names the victim's verified address.
        @Test func anUnverifiedTokenDoesNotJoinAVerifiedAccount() throws {
            let idp = try IdentityServer()
            let victim = try idp.signedIn("google", subject: "g-victim", email: "victim@example.com", verified: true, expecting: 201)
            for verified in [false, "false"] as [Any] {
                let token = try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.attacker", email: "victim@example.com", verified: verified))
                expectProblem(try idp.signIn("apple", token), 409, "ACCOUNT_EXISTS")
            }
            let list = try idp.identities(victim.token)
            #expect((list["identities"] as? [[String: Any]])?.count == 1)
        }

        @Test func theSignedInUserLinksAndUnlinksAProvider() throws {
            let idp = try IdentityServer()
            let ada = try idp.server.signUp("ada@example.com", "ada")
            let linked = try idp.link("apple", try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.ada", email: "relay@privaterelay.appleid.com")), as: ada.accessToken)
            #expect(linked.status == 201, "\(linked)")
            #expect(linked["provider"] as? String == "apple" && linked["subject"] as? String == "001.ada")
            #expect(linked["email"] as? String == "relay@privaterelay.appleid.com")
            #expect(try idp.auditCount("identity_linked", of: ada.id) == 1)
            let list = try idp.identities(ada.accessToken)
            #expect(list["hasPassword"] as? Bool == true)
            // Apple now signs in to Ada's account.
            #expect(try idp.signedIn("apple", subject: "001.ada", expecting: 200).user["id"] as? String == ada.id)
            #expect(try idp.server.call("DELETE", "/v1/auth/identities/apple", token: ada.accessToken).status == 204)
            #expect(try idp.auditCount("identity_unlinked", of: ada.id) == 1)
            expectProblem(try idp.server.call("DELETE", "/v1/auth/identities/apple", token: ada.accessToken), 404, "NOT_FOUND")
            // Unlinked, the same Apple identity makes an account of its own.
            #expect(try idp.signedIn("apple", subject: "001.ada", expecting: 201).user["id"] as? String != ada.id)
        }

        /// An attacker who signed in with their Apple account tries to attach it to the
        /// victim's account... the other way round: the victim's identity, linked already,
        /// cannot be taken by another account, nor can one account hold two of a provider.
        @Test func anIdentityLinkedElsewhereIsInUse() throws {
            let idp = try IdentityServer()
            _ = try idp.signedIn("apple", subject: "001.victim", expecting: 201)
            let attacker = try idp.server.signUp("mallory@example.com", "mallory")
            let stolen = try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.victim"))
            expectProblem(try idp.link("apple", stolen, as: attacker.accessToken), 409, "IDENTITY_IN_USE")
            #expect(try idp.link("apple", try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.mallory")), as: attacker.accessToken).status == 201)
            expectProblem(
                try idp.link("apple", try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.second")), as: attacker.accessToken),
                409, "IDENTITY_IN_USE", "one identity per provider per account")
            let bad = try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.x", ["aud": "other"]))
            expectProblem(try idp.link("apple", bad, as: attacker.accessToken), 401, "IDP_TOKEN_INVALID", reason: "AUDIENCE")
        }

        /// The account's only way in cannot be unlinked; with a second provider it can.
        @Test func theLastWayInCannotBeUnlinked() throws {
            let idp = try IdentityServer()
            let signedIn = try idp.signedIn("apple", subject: "001.only", expecting: 201)
            expectProblem(try idp.server.call("DELETE", "/v1/auth/identities/apple", token: signedIn.token), 409, "LAST_SIGN_IN_METHOD")
            #expect(try idp.link("google", try idp.providers.mint("google", idp.providers.claims("google", subject: "g-only")), as: signedIn.token).status == 201)
            #expect(try idp.server.call("DELETE", "/v1/auth/identities/apple", token: signedIn.token).status == 204)
            expectProblem(try idp.server.call("DELETE", "/v1/auth/identities/google", token: signedIn.token), 409, "LAST_SIGN_IN_METHOD")
        }
    }
}
