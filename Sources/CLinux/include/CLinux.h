// Thin C shim over Linux uAPI headers that Swift cannot import directly (function-like ioctl macros)
// and libi2c (Debian libi2c-dev). Only constants and tiny wrappers live here; logic stays in Swift.
#ifndef HEADTRACK_CLINUX_H
#define HEADTRACK_CLINUX_H

#include <stdint.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <linux/gpio.h>
#include <i2c/smbus.h>

/// ioctl(fd, I2C_SLAVE, address): selects the target address for following SMBus calls.
int ht_i2c_select(int fd, uint16_t address);
/// Reads `length` (<= 32) bytes starting at `reg` with one I2C block read. Returns bytes read or -errno.
int ht_i2c_read_block(int fd, uint8_t reg, uint8_t length, uint8_t *buffer);
/// Writes one register. Returns 0 or -errno.
int ht_i2c_write_byte(int fd, uint8_t reg, uint8_t value);
/// Reads one register. Returns the value (0...255) or -errno.
int ht_i2c_read_byte(int fd, uint8_t reg);
/// ioctl(fd, I2C_FUNCS): 0 when `fd` is an I²C adapter (i2c-dev), else -errno (ENOTTY for other files).
int ht_i2c_check_adapter(int fd);
/// Takes an exclusive POSIX record lock on the whole of `fd` without waiting. Returns 0, or the pid of the
/// process that holds it (> 0), or -errno when locking itself failed.
int ht_lock_exclusive(int fd);

/// GPIO_V2_GET_LINE_IOCTL on the chip fd: requests `count` lines as outputs, initially low.
/// Returns the line-request fd or -errno.
int ht_gpio_request_outputs(int chip_fd, const uint32_t *offsets, uint32_t count, const char *consumer,
                            int active_low);
/// GPIO_V2_LINE_SET_VALUES_IOCTL on a line-request fd. Returns 0 or -errno.
int ht_gpio_set_values(int request_fd, uint64_t bits, uint64_t mask);
/// GPIO_V2_LINE_GET_VALUES_IOCTL. Returns 0 or -errno; values in *bits.
int ht_gpio_get_values(int request_fd, uint64_t mask, uint64_t *bits);
/// GPIO_GET_CHIPINFO_IOCTL: copies the chip label (NUL-terminated, <= 32 bytes) and line count.
int ht_gpio_chip_info(int chip_fd, char *label, uint32_t *lines);

/// Sizes checked against the uAPI (see hardware-facts 2.4): 592 and 16 bytes.
uint32_t ht_gpio_line_request_size(void);
uint32_t ht_gpio_line_values_size(void);
unsigned long ht_gpio_v2_get_line_ioctl(void);
unsigned long ht_gpio_v2_set_values_ioctl(void);


/// Installs SIGINT/SIGTERM handlers that only set a flag (async-signal-safe); the loop polls it.
void ht_install_stop_handlers(void);
/// Non-zero once SIGINT or SIGTERM arrived; returns the signal number.
int ht_stop_requested(void);
/// Sets the stop flag as if `signo` had arrived (a write to a closed pipe, with SIGPIPE ignored).
void ht_request_stop(int signo);
/// Also route SIGHUP (the ssh session dropped) into the stop flag and ignore SIGPIPE (writes to a terminal
/// that is gone), so `calibrate --restart-service` still starts the service again.
void ht_install_hangup_handlers(void);

/// Runs `argv` (argv[0] looked up in PATH) and waits; its exit status, 128+signal, or -errno if it could not
/// start. `quiet` sends its stdout and stderr to /dev/null.
int ht_run_and_wait(char *const argv[], int quiet);

#endif
