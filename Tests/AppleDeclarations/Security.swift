// Declarations of the Security framework that Sesame's Apple adapters call, written from Apple's
// headers (SecItem.h, SecAccessControl.h, SecBase.h, CFBase.h) as Swift imports them. Not an
// implementation: it exists so the adapters type-check on Linux (AppleAdapterCompileTests).
// Core Foundation types are modelled by their toll-free bridged Foundation classes, which is how
// `[String: Any] as CFDictionary` and `kSecClass as String` type-check on Apple platforms too.
import Foundation

public typealias CFTypeRef = AnyObject
public typealias CFString = NSString
public typealias CFDictionary = NSDictionary
public typealias CFError = NSError
public final class CFAllocator {}
public typealias OSStatus = Int32

/// `SecAccessControlRef` (SecAccessControl.h).
public final class SecAccessControl {}

/// `SecAccessControlCreateFlags` (SecAccessControl.h).
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
}

public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? { nil }

// SecItem.h: C functions, whose results Swift lets a caller discard.
@discardableResult public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { errSecUnimplemented }
@discardableResult public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { errSecUnimplemented }
@discardableResult public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { errSecUnimplemented }
@discardableResult public func SecItemDelete(_ query: CFDictionary) -> OSStatus { errSecUnimplemented }
/// SecBase.h.
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? { nil }

// SecBase.h result codes.
public let errSecSuccess: OSStatus = 0
public let errSecUnimplemented: OSStatus = -4
public let errSecItemNotFound: OSStatus = -25300
public let errSecDuplicateItem: OSStatus = -25299
public let errSecInteractionNotAllowed: OSStatus = -25308
public let errSecMissingEntitlement: OSStatus = -34018

// SecItem.h keys and values: C constants, which Swift imports as read-only globals.
public var kSecClass: CFString { "class" }
public var kSecClassGenericPassword: CFString { "genp" }
public var kSecAttrService: CFString { "svce" }
public var kSecAttrAccount: CFString { "acct" }
public var kSecAttrAccessGroup: CFString { "agrp" }
public var kSecAttrAccessible: CFString { "pdmn" }
public var kSecAttrAccessControl: CFString { "accc" }
public var kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString { "cku" }
public var kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString { "akpu" }
public var kSecValueData: CFString { "v_Data" }
public var kSecReturnData: CFString { "r_Data" }
public var kSecReturnAttributes: CFString { "r_Attributes" }
public var kSecMatchLimit: CFString { "m_Limit" }
public var kSecMatchLimitOne: CFString { "m_LimitOne" }
public var kSecMatchLimitAll: CFString { "m_LimitAll" }
public var kSecUseDataProtectionKeychain: CFString { "nleg" }
public var kSecUseAuthenticationContext: CFString { "u_AuthCtx" }

// SecTrust.h, SecCertificate.h: the server-trust evaluation the certificate pinning follows
// (ServerTrustPinning).
public typealias CFArray = NSArray
public typealias CFData = NSData
/// `SecTrustRef`.
public final class SecTrust {}
/// `SecCertificateRef`.
public final class SecCertificate {}
@available(iOS 12.0, macOS 10.14, *)
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool { false }
@available(iOS 15.0, macOS 12.0, *)
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? { nil }
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData { NSData() }
