// The provider's key set is part of the SDK's API (``IDTokenValidator/validate(_:expected:keys:)``);
// it lives in SesameJOSE, shared with the resource-server library, and is re-exported here so an
// app imports only `Sesame`.
@_exported import struct SesameJOSE.JWKSet
@_exported import struct SesameJOSE.JWKSetError
