import SesameProtocol
import SesameStore

extension MFAEnrollmentStatus {
    /// The wire view of an enrolment (`GET /api/mfa`, the admin API's user view), its
    /// destination masked (``MaskedDestination``).
    package init(_ enrollment: MFAEnrollmentRecord, user: UserRecord) {
        let destination: String? =
            switch enrollment.method {
            case .email: MaskedDestination.email(user.email)
            case .sms: enrollment.phoneNumber.map(MaskedDestination.phone)
            case .totp, .passkey: nil
            }
        self.init(method: enrollment.method, confirmed: enrollment.confirmed, destination: destination)
    }
}
