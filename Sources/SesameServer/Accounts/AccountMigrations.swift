/// Schema for the accounts slice (verification codes, outbox, devices): versions 200–299.
enum AccountMigrations {
    static let all: [StoreMigrations.Migration] = []
}
