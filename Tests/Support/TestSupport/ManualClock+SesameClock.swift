import Sesame
import TestSupport

/// The shared test clock drives the SDK's expiry and ID token time checks.
extension ManualClock: SesameClock {}
