/* Trixie's Swift runtime was compiled against glibc 2.38, whose headers route strtol, strtoll and sscanf to the
 * C23 entry points __isoc23_*. Bookworm's glibc (2.36, what Raspberry Pi OS bookworm runs) has only the classic
 * names. These forwarders let the runtime link against 2.36. The only behaviour C23 changed in them is
 * accepting "0b" binary prefixes, which the runtime's callers (number parsing of environment/config values) do
 * not rely on. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

long __isoc23_strtol(const char *text, char **end, int base) { return strtol(text, end, base); }

long long __isoc23_strtoll(const char *text, char **end, int base) { return strtoll(text, end, base); }

unsigned long __isoc23_strtoul(const char *text, char **end, int base) { return strtoul(text, end, base); }

int __isoc23_sscanf(const char *text, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int assigned = vsscanf(text, format, arguments);
    va_end(arguments);
    return assigned;
}
