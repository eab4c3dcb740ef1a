// A stand-in of Apple's Security framework for scripts/check-darwin.sh: the declarations
// Strata's Apple-only code uses, with the SDK's Swift signatures, so that the code
// type-checks on Linux. Never linked, never run: every body traps.
import Foundation

public typealias OSStatus = Int32
public typealias CFIndex = Int
public typealias CFTypeID = UInt
public typealias CFTypeRef = AnyObject
// The CoreFoundation types Strata passes are toll-free bridged to these on Apple platforms,
// which gives `as CFData`, `as CFArray`, `as CFDictionary` and `as String` their meaning.
public typealias CFData = NSData
public typealias CFArray = NSArray
public typealias CFDictionary = NSDictionary
public typealias CFString = NSString

public final class CFAllocator {}
public final class CFError {}
public final class SecTrust {}
public final class SecCertificate {}
public final class SecIdentity {}

@discardableResult public func CFErrorGetCode(_ err: CFError!) -> CFIndex { fatalError() }
@discardableResult public func CFGetTypeID(_ cf: CFTypeRef!) -> CFTypeID { fatalError() }

@discardableResult public func SecIdentityGetTypeID() -> CFTypeID { fatalError() }
@discardableResult public func SecCertificateGetTypeID() -> CFTypeID { fatalError() }
@discardableResult public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData)
    -> SecCertificate?
{ fatalError() }
@discardableResult public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData { fatalError() }
@discardableResult public func SecIdentityCopyCertificate(
    _ identityRef: SecIdentity, _ certificateRef: UnsafeMutablePointer<SecCertificate?>
) -> OSStatus { fatalError() }

@discardableResult public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray)
    -> OSStatus
{
    fatalError()
}
@discardableResult public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool)
    -> OSStatus
{
    fatalError()
}
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
@discardableResult public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?)
    -> Bool
{
    fatalError()
}
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
@discardableResult public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? { fatalError() }

@discardableResult public func SecPKCS12Import(
    _ pkcs12_data: CFData, _ options: CFDictionary, _ items: UnsafeMutablePointer<CFArray?>
) -> OSStatus { fatalError() }
public let kSecImportExportPassphrase: CFString = "passphrase"
public let kSecImportItemIdentity: CFString = "identity"
public let kSecImportItemCertChain: CFString = "chain"
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public let kSecImportToMemoryOnly: CFString = "memory"

public let errSecSuccess: OSStatus = 0
public let errSecCertificateExpired: OSStatus = -67818
public let errSecCertificateNotValidYet: OSStatus = -67819
public let errSecHostNameMismatch: OSStatus = -67602
// `tls_protocol_version_t` is FoundationNetworking's, as on Linux.
