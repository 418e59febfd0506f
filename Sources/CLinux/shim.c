#include "CLinux.h"
#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>

int ht_i2c_select(int fd, uint16_t address) {
    return ioctl(fd, I2C_SLAVE, (unsigned long)address) < 0 ? -errno : 0;
}

int ht_i2c_read_block(int fd, uint8_t reg, uint8_t length, uint8_t *buffer) {
    if (length > I2C_SMBUS_BLOCK_MAX) return -EINVAL;
    int r = i2c_smbus_read_i2c_block_data(fd, reg, length, buffer);
    return r < 0 ? (errno ? -errno : r) : r;
}

int ht_i2c_write_byte(int fd, uint8_t reg, uint8_t value) {
    int r = i2c_smbus_write_byte_data(fd, reg, value);
    return r < 0 ? (errno ? -errno : r) : 0;
}

int ht_i2c_read_byte(int fd, uint8_t reg) {
    int r = i2c_smbus_read_byte_data(fd, reg);
    return r < 0 ? (errno ? -errno : r) : r;
}

int ht_i2c_check_adapter(int fd) {
    unsigned long funcs = 0;
    return ioctl(fd, I2C_FUNCS, &funcs) < 0 ? -errno : 0;
}

int ht_lock_exclusive(int fd) {
    struct flock lock;
    memset(&lock, 0, sizeof lock);
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    if (fcntl(fd, F_SETLK, &lock) == 0) return 0;
    if (errno != EAGAIN && errno != EACCES) return -errno;
    memset(&lock, 0, sizeof lock);
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    if (fcntl(fd, F_GETLK, &lock) != 0) return -errno;
    return lock.l_type == F_UNLCK ? -EAGAIN : (int)lock.l_pid;
}

int ht_gpio_request_outputs(int chip_fd, const uint32_t *offsets, uint32_t count, const char *consumer,
                            int active_low) {
    struct gpio_v2_line_request request;
    memset(&request, 0, sizeof request);
    if (count == 0 || count > GPIO_V2_LINES_MAX) return -EINVAL;
    for (uint32_t i = 0; i < count; i++) request.offsets[i] = offsets[i];
    strncpy(request.consumer, consumer, sizeof request.consumer - 1);
    request.config.flags = GPIO_V2_LINE_FLAG_OUTPUT | (active_low ? GPIO_V2_LINE_FLAG_ACTIVE_LOW : 0);
    request.num_lines = count;
    if (ioctl(chip_fd, GPIO_V2_GET_LINE_IOCTL, &request) < 0) return -errno;
    return request.fd;
}

int ht_gpio_set_values(int request_fd, uint64_t bits, uint64_t mask) {
    struct gpio_v2_line_values values = { .bits = bits, .mask = mask };
    return ioctl(request_fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &values) < 0 ? -errno : 0;
}

int ht_gpio_get_values(int request_fd, uint64_t mask, uint64_t *bits) {
    struct gpio_v2_line_values values = { .bits = 0, .mask = mask };
    if (ioctl(request_fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &values) < 0) return -errno;
    *bits = values.bits;
    return 0;
}

int ht_gpio_chip_info(int chip_fd, char *label, uint32_t *lines) {
    struct gpiochip_info info;
    memset(&info, 0, sizeof info);
    if (ioctl(chip_fd, GPIO_GET_CHIPINFO_IOCTL, &info) < 0) return -errno;
    memcpy(label, info.label, sizeof info.label);
    label[sizeof info.label - 1] = 0;
    *lines = info.lines;
    return 0;
}

uint32_t ht_gpio_line_request_size(void) { return (uint32_t)sizeof(struct gpio_v2_line_request); }
uint32_t ht_gpio_line_values_size(void) { return (uint32_t)sizeof(struct gpio_v2_line_values); }
unsigned long ht_gpio_v2_get_line_ioctl(void) { return GPIO_V2_GET_LINE_IOCTL; }
unsigned long ht_gpio_v2_set_values_ioctl(void) { return GPIO_V2_LINE_SET_VALUES_IOCTL; }


#include <pthread.h>
#include <signal.h>

static volatile sig_atomic_t stop_signal = 0;

static void ht_on_stop(int signo) { stop_signal = signo; }

/// Routes `signo` into the stop flag (no SA_RESTART: a blocked sleep or read returns, and the loop sees it),
/// and unblocks it: a blocked signal mask survives exec, so a launcher that blocks SIGTERM (some CI runners and
/// supervisors do) would otherwise leave the tracker stoppable only by SIGKILL, which loses the last save.
static void ht_route_to_stop(int signo) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = ht_on_stop;
    sigemptyset(&action.sa_mask);
    sigaction(signo, &action, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signo);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

void ht_install_stop_handlers(void) {
    ht_route_to_stop(SIGINT);
    ht_route_to_stop(SIGTERM);
}

int ht_stop_requested(void) { return (int)stop_signal; }

void ht_request_stop(int signo) { if (!stop_signal) stop_signal = signo; }

void ht_install_hangup_handlers(void) {
    ht_route_to_stop(SIGHUP);
    signal(SIGPIPE, SIG_IGN);
}

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int ht_run_and_wait(char *const argv[], int quiet) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (quiet) {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    }
    pid_t pid;
    int r = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (r != 0) return -r;
    int status = 0;
    for (;;) {
        if (waitpid(pid, &status, 0) == pid) break;
        if (errno != EINTR) return -errno;
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
