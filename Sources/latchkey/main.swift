import Glibc

// Whatever a command creates (database, key file, pictures, mail) holds secrets or
// personal data: owner only.
umask(0o077)
CommandLineEntry.run(Array(CommandLine.arguments.dropFirst()))
