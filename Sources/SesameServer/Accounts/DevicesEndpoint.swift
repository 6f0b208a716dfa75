import Foundation
import Hummingbird
import SesameProtocol

/// The user's devices (e.g. a watch by device id; docs/first-party-and-accounts.md), bearer access token:
/// - `GET /api/devices` → ``DeviceList``, oldest first;
/// - `POST /api/devices` ``DeviceRegistration`` → 201 ``Device`` (an existing `device_id` is
///   updated: name and type change, `created_at` stays);
///   A new device beyond ``maximumDevices`` is refused: 409 `too_many_devices` (3006);
/// - `DELETE /api/devices/{device_id}` → 204, or 404 `device_not_found` (3005).
struct DevicesEndpoint: Sendable {
    let provider: Provider
    let bearer: BearerAuthentication

    static let maximumIDLength = 128
    static let maximumNameLength = 128
    static let maximumTypeLength = 32
    /// Devices one account may register: far more than a person owns, few enough that a
    /// script cannot grow the table without bound.
    static let maximumDevices = 50

    func list(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        let devices = try await provider.store.devices(userID: user.id)
        return JSONResponse.make(DeviceList(devices: devices))
    }

    func register(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        let validation = AccountValidation(request: request, localizer: provider.localizer, user: user)
        var registration = try await JSONRequest.decode(
            DeviceRegistration.self, from: request, context: context, required: ["device_id", "name"],
            validation: validation
        ).value
        registration.name = registration.name.trimmingCharacters(in: .whitespacesAndNewlines)
        registration.type = registration.type.flatMap { $0.isEmpty ? nil : $0 }
        var violations: [FieldViolation] = []
        violations += Self.check(registration.deviceID, "device_id", max: Self.maximumIDLength)
        violations += Self.check(registration.name, "name", max: Self.maximumNameLength)
        violations += Self.check(registration.type, "type", max: Self.maximumTypeLength)
        if !violations.isEmpty { throw validation.failure(violations) }
        guard
            let device = try await provider.store.saveDevice(
                registration, userID: user.id, now: provider.now(), limit: Self.maximumDevices)
        else {
            throw EndpointFailure(
                .tooManyDevices,
                "The account already has \(Self.maximumDevices) devices, the most it may register; remove one (DELETE /api/devices/{device_id}) first.")
        }
        context.annotations.record(outcome: "device_registered")
        return JSONResponse.make(device, status: .created)
    }

    func remove(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        let raw = context.parameters.get("device_id") ?? ""
        let deviceID = raw.removingPercentEncoding ?? raw
        guard try await provider.store.removeDevice(userID: user.id, deviceID: deviceID) else {
            throw EndpointFailure(.deviceNotFound, "No device with this device_id is registered to the account.")
        }
        context.annotations.record(outcome: "device_removed")
        return JSONResponse.noContent()
    }

    /// Length and no control characters.
    private static func check(_ value: String?, _ field: String, max: Int) -> [FieldViolation] {
        guard let value else { return [] }
        if value.count > max { return [.tooLong(field, max: max)] }
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return [.invalidFormat(field)]
        }
        return []
    }
}
