import AuthCrypto

/// The verdict on one submitted code. Callers answer the same way to every refusal
/// (`MFA_CODE_INVALID`); the cases differ so a test, a throttle or an audit line can tell them apart.
public enum TOTPCheck: Equatable, Sendable {
    /// The code of `step`, later than any step accepted before: store `step` as the last
    /// accepted one, in the same write that lets the user in, so the code works once.
    case accepted(step: Int64)
    /// The code of a step within the window that was already accepted, or is earlier than
    /// one that was: a replay (someone read it over a shoulder, or from a phished form).
    case replayed(step: Int64)
    /// Digits of the right count that match no step in the window.
    case wrong
    /// Not exactly `digits` ASCII digits (a space, a sign, a full-width digit, too many).
    case malformed
}

extension TOTP {
    /// Checks `submitted` (bytes from the network, not trusted) against the steps at
    /// `time` and `drift` either side. `lastAcceptedStep` is the step the user's previous
    /// accepted code belonged to, nil if none: only later steps are accepted.
    ///
    /// Every step of the window is computed and compared in constant time, whatever
    /// matched first, so the time taken says nothing about which step (or digit) was close.
    /// When one code belongs to two steps of the window (a one-in-a-million coincidence),
    /// the earliest acceptable step wins, so no more of the window is used up than needed.
    public func check(_ submitted: [UInt8], at time: Int64, lastAcceptedStep: Int64?) -> TOTPCheck {
        guard submitted.count == digits,
              submitted.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return .malformed }
        let current = Self.step(at: time)
        var accepted: Int64?
        var replayed: Int64?
        for step in (current - Self.drift)...(current + Self.drift) where step >= 0 {
            let matches = ConstantTime.equals(code(forStep: step), submitted)
            guard matches else { continue }
            if let last = lastAcceptedStep, step <= last {
                replayed = replayed ?? step
            } else {
                accepted = accepted ?? step
            }
        }
        if let accepted { return .accepted(step: accepted) }
        if let replayed { return .replayed(step: replayed) }
        return .wrong
    }
}
