/// Schema for the first-party sign-in slice: versions 100–199.
enum FirstPartyMigrations {
    static let all: [StoreMigrations.Migration] = []
}
