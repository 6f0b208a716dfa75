import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Devices API")
struct DeviceTests {
    @Test("register, list, re-register (rename), remove; a second removal is 404 device_not_found", arguments: StoreBackend.available)
    func crud(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let tokens = try await api.signInAlice()
            let token = tokens.accessToken
            #expect(try await api.call("GET", "/api/devices", token: token).json(DeviceList.self).devices.isEmpty)

            let watch = try await api.post("/api/devices", ["device_id": "watch-1", "name": "Watch", "type": "watchos"], token: token)
            #expect(watch.status == 201, "\(watch.text)")
            let registered = try watch.json(Device.self)
            #expect(registered.deviceID == "watch-1")
            #expect(registered.type == "watchos")
            api.server.clock.advance(by: 10)
            _ = try await api.post("/api/devices", ["device_id": "phone/2 ü", "name": "Phone"], token: token)

            api.server.clock.advance(by: 10)
            let renamed = try await api.post("/api/devices", ["device_id": "watch-1", "name": "Old watch"], token: token)
            #expect(renamed.status == 201)
            #expect(try renamed.json(Device.self).createdAt == registered.createdAt, "created_at stays")

            let list = try await api.call("GET", "/api/devices", token: token).json(DeviceList.self)
            #expect(list.devices.map(\.deviceID) == ["watch-1", "phone/2 ü"])
            #expect(list.devices.first?.name == "Old watch")
            #expect(list.devices.first?.type == nil)

            let encoded = "phone%2F2%20%C3%BC"
            let removed = try await api.call("DELETE", "/api/devices/\(encoded)", token: token)
            #expect(removed.status == 204)
            #expect(removed.header("Cache-Control") == "no-store")
            let again = try await api.call("DELETE", "/api/devices/\(encoded)", token: token)
            #expect(again.status == 404)
            #expect(again.apiError?.code == .deviceNotFound)
            #expect(try await api.call("GET", "/api/devices", token: token).json(DeviceList.self).devices.count == 1)
        }
    }

    @Test("an account registers at most 50 devices, even in parallel; known devices still update, one removal frees a place", arguments: StoreBackend.available)
    func deviceLimit(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let token = try await api.signInAlice().accessToken
            let limit = DevicesEndpoint.maximumDevices
            // Registered in parallel batches: the limit holds under concurrency too.
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<(limit + 10) {
                    group.addTask {
                        try await api.post("/api/devices", ["device_id": "d\(index)", "name": "Device \(index)"], token: token).status
                    }
                }
                var statuses: [Int] = []
                for try await status in group { statuses.append(status) }
                #expect(statuses.filter { $0 == 201 }.count == limit)
                #expect(statuses.filter { $0 == 409 }.count == 10)
            }
            let devices = try await api.call("GET", "/api/devices", token: token).json(DeviceList.self).devices
            #expect(devices.count == limit)
            let refused = try await api.post("/api/devices", ["device_id": "one-more", "name": "More"], token: token)
            #expect(refused.status == 409)
            #expect(refused.apiError?.code == .tooManyDevices)
            #expect(refused.apiError?.errorCode == 3006)
            let known = try #require(devices.first?.deviceID)
            #expect(try await api.post("/api/devices", ["device_id": known, "name": "Renamed"], token: token).status == 201)
            #expect(try await api.call("DELETE", "/api/devices/\(known)", token: token).status == 204)
            #expect(try await api.post("/api/devices", ["device_id": "one-more", "name": "More"], token: token).status == 201)
        }
    }

    @Test("devices are per user; every devices endpoint needs a bearer token", arguments: StoreBackend.available)
    func isolationAndAuthentication(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let alice = try await api.signInAlice()
            _ = try await api.post("/api/devices", ["device_id": "shared-id", "name": "Alice's"], token: alice.accessToken)
            _ = try await api.signUp(email: "bob@example.com")
            let bob = try #require(try await api.signIn("bob@example.com", AccountAPI.password))
            #expect(try await api.call("GET", "/api/devices", token: bob.accessToken).json(DeviceList.self).devices.isEmpty)
            let foreign = try await api.call("DELETE", "/api/devices/shared-id", token: bob.accessToken)
            #expect(foreign.status == 404)

            for (method, path) in [("GET", "/api/devices"), ("POST", "/api/devices"), ("DELETE", "/api/devices/x")] {
                let response = try await api.call(method, path, method == "POST" ? ["device_id": "d", "name": "n"] : nil)
                #expect(response.status == 401, "\(method) \(path)")
                #expect(response.apiError?.code == .invalidToken)
            }
        }
    }

    @Test("missing and over-long fields are validation errors", arguments: StoreBackend.available)
    func validation(backend: StoreBackend) async throws {
        try await withAccountAPI(backend) { api in
            let token = try await api.signInAlice().accessToken
            let missing = try await api.post("/api/devices", ["device_id": "d"], token: token)
            #expect(missing.detailCodes == ["name: required"])
            let long = try await api.post(
                "/api/devices", ["device_id": String(repeating: "d", count: 129), "name": "n", "type": String(repeating: "t", count: 33)],
                token: token)
            #expect(long.detailCodes == ["device_id: too_long", "type: too_long"])
        }
    }
}
