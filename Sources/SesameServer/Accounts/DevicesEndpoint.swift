import Foundation
import Hummingbird
import SesameProtocol

/// The user's devices (SPEC §1.8, e.g. a watch by device id), bearer access token:
/// - `GET /api/devices` → ``DeviceList``, oldest first;
/// - `POST /api/devices` ``DeviceRegistration`` → 201 ``Device`` (an existing `device_id` is
///   updated: name and type change, `created_at` stays);
/// - `DELETE /api/devices/{device_id}` → 204, or 404 `device_not_found` (3005).
struct DevicesEndpoint: Sendable {
    let services: ServerServices

    static let maximumIDLength = 128
    static let maximumNameLength = 128
    static let maximumTypeLength = 32

    func list(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await BearerAuthentication(services: services)
            .authenticateFirstParty(request, context: context)
        let devices = try await services.accountStore.devices(userID: user.id)
        return JSONResponse.make(DeviceList(devices: devices))
    }

    func register(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await BearerAuthentication(services: services)
            .authenticateFirstParty(request, context: context)
        let validation = AccountValidation(request: request, services: services, user: user)
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
        let device = try await services.accountStore.saveDevice(registration, userID: user.id, now: services.now())
        context.annotations.record(outcome: "device_registered")
        return JSONResponse.make(device, status: .created)
    }

    func remove(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await BearerAuthentication(services: services)
            .authenticateFirstParty(request, context: context)
        let raw = context.parameters.get("device_id") ?? ""
        let deviceID = raw.removingPercentEncoding ?? raw
        guard try await services.accountStore.removeDevice(userID: user.id, deviceID: deviceID) else {
            throw EndpointFailure(.deviceNotFound, "No device with this device_id is registered to the account.")
        }
        context.annotations.record(outcome: "device_removed")
        return AccountResponses.noContent()
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
