import Sesame

/// The shared test clock drives the SDK's expiry and ID token time checks (one conformance, in
/// the clock's own module, for every test target).
extension ManualClock: SesameClock {}
