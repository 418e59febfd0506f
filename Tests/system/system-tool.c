// Instrument for the system test (Tests/system), run inside the guest, statically linked.
//
//   system-tool feed BUS ADDR LAYOUT ACCEL_LSB_PER_G GYRO_LSB_PER_DPS TRACE [FROM_S TO_S]
//       writes a recorded imu-trace v1 file into the chip's data registers on /dev/i2c-BUS at the trace's own
//       rate, as the chip would present them: LAYOUT mpu = 14 bytes at 0x3B (accel, temperature, gyro; MPU-6050/
//       6500/9250), icm = 12 bytes at 0x2D (accel, gyro; ICM-20948 bank 0), big-endian int16 in the chip's own
//       axes, scaled by the full-scale ranges the daemon configured (datasheet LSB per g and per deg/s).
//       Absolute deadlines on CLOCK_MONOTONIC; prints the monotonic time of the trace's t = FROM_S.
//   system-tool edges SECONDS OUT FILE...
//       samples gpio-sim value files every 2 ms and writes "T FILE VALUE" to OUT for every change (and the
//       first value), T in seconds on CLOCK_MONOTONIC.
//   system-tool listen SOCKET SECONDS OUT
//       connects to the event stream (AF_UNIX) and writes every line it gets to OUT as "T LINE", T its arrival
//       on CLOCK_MONOTONIC. Exit 3 when the connection is refused for permissions (EACCES).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void sleep_until(double t) {
    struct timespec d = { (time_t)t, (long)((t - (time_t)t) * 1e9) };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &d, NULL) == EINTR) {}
}

static void put_be16(unsigned char *p, double value) {
    long v = lround(value);
    if (v > 32767) v = 32767;
    if (v < -32768) v = -32768;
    unsigned u = (unsigned)(v & 0xffff);
    p[0] = (unsigned char)(u >> 8);
    p[1] = (unsigned char)(u & 0xff);
}

static int smbus_block_write(int fd, unsigned char reg, const unsigned char *bytes, int n) {
    union i2c_smbus_data data;
    data.block[0] = (unsigned char)n;
    memcpy(data.block + 1, bytes, (size_t)n);
    struct i2c_smbus_ioctl_data args = { I2C_SMBUS_WRITE, reg, I2C_SMBUS_I2C_BLOCK_DATA, &data };
    return ioctl(fd, I2C_SMBUS, &args);
}

static int feed(int argc, char **argv) {
    const char *bus = argv[2];
    unsigned addr = (unsigned)strtoul(argv[3], NULL, 0);
    int icm = strcmp(argv[4], "icm") == 0;
    if (!icm && strcmp(argv[4], "mpu") != 0) { fprintf(stderr, "system-tool: layout %s: mpu or icm\n", argv[4]); return 2; }
    double accel_lsb = atof(argv[5]), gyro_lsb = atof(argv[6]);
    const char *trace = argv[7];
    double from = argc > 8 ? atof(argv[8]) : 0, to = argc > 9 ? atof(argv[9]) : 1e9;
    char path[64];
    snprintf(path, sizeof path, "/dev/i2c-%s", bus);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0 || ioctl(fd, I2C_SLAVE_FORCE, addr) < 0) { fprintf(stderr, "system-tool: %s 0x%02x: %s\n", path, addr, strerror(errno)); return 1; }
    FILE *in = fopen(trace, "r");
    if (!in) { fprintf(stderr, "system-tool: %s: %s\n", trace, strerror(errno)); return 1; }
    char line[512];
    const double g = 9.80665, deg = 180.0 / M_PI;
    double start = now_s() + 0.2, late_max = 0;
    long written = 0;
    printf("start %.6f\n", start);
    fflush(stdout);
    while (fgets(line, sizeof line, in)) {
        double t, a[3], w[3];
        if (line[0] == '#' || line[0] == 't') continue;
        if (sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf", &t, &a[0], &a[1], &a[2], &w[0], &w[1], &w[2]) != 7) continue;
        if (t < from) continue;
        if (t > to) break;
        unsigned char block[14];
        int n;
        if (icm) {
            for (int i = 0; i < 3; i++) put_be16(block + 2 * i, a[i] / g * accel_lsb);
            for (int i = 0; i < 3; i++) put_be16(block + 6 + 2 * i, w[i] * deg * gyro_lsb);
            n = 12;
        } else {
            for (int i = 0; i < 3; i++) put_be16(block + 2 * i, a[i] / g * accel_lsb);
            put_be16(block + 6, 0);  // temperature: raw 0 is about 21-36 degC on every part, and nothing checks it
            for (int i = 0; i < 3; i++) put_be16(block + 8 + 2 * i, w[i] * deg * gyro_lsb);
            n = 14;
        }
        double due = start + (t - from);
        sleep_until(due);
        double late = now_s() - due;
        if (late > late_max) late_max = late;
        if (smbus_block_write(fd, icm ? 0x2d : 0x3b, block, n) < 0) {
            fprintf(stderr, "system-tool: block write at t=%.3f: %s\n", t, strerror(errno));
            return 1;
        }
        written++;
    }
    printf("fed %ld samples in %.2f s, latest write %.1f ms after its time\n", written, now_s() - start, late_max * 1e3);
    return written > 0 ? 0 : 1;
}

static int edges(int argc, char **argv) {
    enum { MAX = 16 };
    double seconds = atof(argv[2]);
    FILE *out = fopen(argv[3], "w");
    if (!out) { fprintf(stderr, "system-tool: %s: %s\n", argv[3], strerror(errno)); return 1; }
    int count = argc - 4 > MAX ? MAX : argc - 4, fds[MAX], last[MAX];
    for (int i = 0; i < count; i++) {
        fds[i] = open(argv[4 + i], O_RDONLY | O_CLOEXEC);
        if (fds[i] < 0) { fprintf(stderr, "system-tool: %s: %s\n", argv[4 + i], strerror(errno)); return 1; }
        last[i] = -1;
    }
    double end = now_s() + seconds;
    for (double t = now_s(); t < end; t = now_s()) {
        for (int i = 0; i < count; i++) {
            char c = '?';
            if (pread(fds[i], &c, 1, 0) != 1) continue;
            int v = c == '1';
            if (v != last[i]) { fprintf(out, "%.4f %s %d\n", t, argv[4 + i], v); last[i] = v; }
        }
        usleep(2000);
    }
    fclose(out);
    return 0;
}

static int listen_stream(char **argv) {
    const char *path = argv[2];
    double seconds = atof(argv[3]);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof a.sun_path) { fprintf(stderr, "system-tool: socket path too long\n"); return 2; }
    strcpy(a.sun_path, path);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        int e = errno;
        fprintf(stderr, "system-tool: connect %s: %s\n", path, strerror(e));
        return e == EACCES ? 3 : 1;
    }
    FILE *out = fopen(argv[4], "w");
    if (!out) { fprintf(stderr, "system-tool: %s: %s\n", argv[4], strerror(errno)); return 1; }
    struct timeval tv = { .tv_sec = 0, .tv_usec = 50000 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char buffer[8192], pending[65536];
    size_t have = 0;
    double end = now_s() + seconds;
    while (now_s() < end) {
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n == 0) break;
        if (n < 0) continue;
        double t = now_s();
        for (ssize_t i = 0; i < n; i++) {
            if (buffer[i] == '\n') {
                fprintf(out, "%.4f %.*s\n", t, (int)have, pending);
                have = 0;
            } else if (have < sizeof pending) {
                pending[have++] = buffer[i];
            }
        }
        fflush(out);
    }
    fclose(out);
    close(fd);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 8 && argc <= 10 && strcmp(argv[1], "feed") == 0) return feed(argc, argv);
    if (argc >= 5 && strcmp(argv[1], "edges") == 0) return edges(argc, argv);
    if (argc == 5 && strcmp(argv[1], "listen") == 0) return listen_stream(argv);
    fprintf(stderr, "usage: system-tool feed BUS ADDR mpu|icm ACCEL_LSB_PER_G GYRO_LSB_PER_DPS TRACE [FROM_S TO_S]\n"
                    "       system-tool edges SECONDS OUT FILE...\n"
                    "       system-tool listen SOCKET SECONDS OUT\n");
    return 2;
}
