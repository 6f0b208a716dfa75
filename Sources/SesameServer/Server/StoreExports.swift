// The server's records and store protocols are part of its public API (`ServerAdmin` returns
// `ClientRecord`s, `IdentityServer.start` takes any `IdentityStore`): re-export the storage
// module so that users of `SesameServer` need no second import.
@_exported import SesameStore
// The server is the provider's logic (SesameProvider) over HTTP: whoever imports the server sees
// the provider's types too (the keys, the admin, the seed files, the audit log).
@_exported import SesameProvider
