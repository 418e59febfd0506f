// The C library, whichever this platform has: glibc on Debian and Raspberry Pi OS, musl for a static
// Linux SDK build. Every module imports this one line instead of its own #if block, so a platform is added
// here once and no file names Glibc by itself.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#endif
