import Hummingbird

/// One feature's routes: the paths it serves and the endpoints behind them, built with the
/// parts that feature uses. ``SesameRouter`` registers each feature's routes after the
/// middleware every request passes through.
protocol FeatureRoutes: Sendable {
    func register(on router: Router<SesameRequestContext>)
}
