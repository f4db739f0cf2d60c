-- How each session was signed in, for the access token's `amr` claim (RFC 8176 values,
-- space-separated: 'pwd', 'pwd otp mfa', 'webauthn mfa', 'fed'). A refresh keeps the
-- methods of the sign-in that started the session. Sessions from before were all started
-- by a password.
ALTER TABLE sessions ADD COLUMN amr TEXT NOT NULL DEFAULT 'pwd';
