// Instrument for the VM test (Tests/hil). Runs inside the VM, statically linked.
//
//   hil-tool hold CHIPDEV OFFSET SECONDS     request one line as output, drive it high, hold it, release
//   hil-tool watch MILLISECONDS FILE...      sample gpio-sim value files every 5 ms and report per file:
//                                            samples, high samples, rising edges, longest high run (ms)
//   hil-tool field HEADING_DEG               AK8963 HXL..HZH bytes for a level head facing that heading
//   hil-tool listen SOCKET SECONDS FILE      connect to headtrack's event stream (AF_UNIX) and copy what
//                                            arrives to FILE for SECONDS (busybox nc has no Unix sockets)
//
// `hold` exists so the harness can prove, independently of headtrack, that a line driven through the
// GPIO uAPI v2 shows up in gpio-sim's sysfs value file (and its neighbour does not). `watch` counts
// transitions with a steady sample clock, which a busybox shell loop cannot give under TCG. `field` exists
// because Debian's static busybox awk has no sin/cos.
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int hold(const char *chip, unsigned offset, double seconds) {
    int fd = open(chip, O_RDWR | O_CLOEXEC);
    if (fd < 0) { fprintf(stderr, "hil-tool: open %s: %s\n", chip, strerror(errno)); return 1; }
    struct gpio_v2_line_request req;
    memset(&req, 0, sizeof req);
    req.offsets[0] = offset;
    req.num_lines = 1;
    strcpy(req.consumer, "hil-tool");
    req.config.flags = GPIO_V2_LINE_FLAG_OUTPUT;
    req.config.num_attrs = 1;
    req.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
    req.config.attrs[0].attr.values = 1;
    req.config.attrs[0].mask = 1;
    if (ioctl(fd, GPIO_V2_GET_LINE_IOCTL, &req) < 0) {
        fprintf(stderr, "hil-tool: request line %u on %s: %s\n", offset, chip, strerror(errno));
        return 1;
    }
    struct timespec t = { (time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9) };
    nanosleep(&t, NULL);
    close(req.fd);
    close(fd);
    return 0;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int read_value(int fd) {
    char c = '?';
    if (pread(fd, &c, 1, 0) != 1) return -1;
    return c == '1';
}

static int watch(double duration_ms, int count, char **files) {
    enum { MAX = 16 };
    if (count > MAX) count = MAX;
    int fds[MAX], last[MAX];
    long samples[MAX] = {0}, high[MAX] = {0}, rises[MAX] = {0};
    double run_start[MAX], longest[MAX] = {0};
    for (int i = 0; i < count; i++) {
        fds[i] = open(files[i], O_RDONLY | O_CLOEXEC);
        if (fds[i] < 0) { fprintf(stderr, "hil-tool: open %s: %s\n", files[i], strerror(errno)); return 1; }
        last[i] = -1;
    }
    double start = now_ms(), t = start;
    while (t - start < duration_ms) {
        for (int i = 0; i < count; i++) {
            int v = read_value(fds[i]);
            if (v < 0) continue;
            samples[i]++;
            if (v) high[i]++;
            if (v && last[i] == 0) rises[i]++;
            if (v && last[i] != 1) run_start[i] = t;
            if (v && t - run_start[i] > longest[i]) longest[i] = t - run_start[i];
            last[i] = v;
        }
        usleep(5000);
        t = now_ms();
    }
    for (int i = 0; i < count; i++)
        printf("%s samples=%ld high=%ld rises=%ld longest_high_ms=%.0f last=%d\n",
               files[i], samples[i], high[i], rises[i], longest[i], last[i]);
    return 0;
}

// The field of 20 uT horizontal, 40 uT down, seen by a level head facing `heading` degrees clockwise from
// magnetic north, with the head frame = MPU frame (x forward, y left, z up): m = (Bh cos h, Bh sin h, -Bv).
// The AK8963 axes are the MPU's (y, x, -z) (hardware-facts 1.4), so it measures (Bh sin h, Bh cos h, +Bv),
// at 0.15 uT/LSB (16-bit mode, ASA = 128), little-endian HXL, HXH, HYL, HYH, HZL, HZH.
static int field(double heading) {
    const double bh = 20.0 / 0.15, bv = 40.0 / 0.15, r = heading * M_PI / 180.0;
    long v[3] = { lround(bh * sin(r)), lround(bh * cos(r)), lround(bv) };
    for (int i = 0; i < 3; i++) {
        unsigned u = (unsigned)(v[i] & 0xffff);
        printf("0x%02x 0x%02x%s", u & 0xff, u >> 8, i < 2 ? " " : "\n");
    }
    return 0;
}

static int listen_stream(const char *path, double seconds, const char *file) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof a.sun_path) { fprintf(stderr, "hil-tool: socket path too long\n"); return 2; }
    strcpy(a.sun_path, path);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        fprintf(stderr, "hil-tool: connect %s: %s\n", path, strerror(errno));
        return 1;
    }
    FILE *out = fopen(file, "w");
    if (!out) { fprintf(stderr, "hil-tool: open %s: %s\n", file, strerror(errno)); return 1; }
    struct timeval tv = { .tv_sec = 0, .tv_usec = 100000 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    char buffer[4096];
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) * 1e-9 >= seconds) break;
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n == 0) break;
        if (n > 0) { fwrite(buffer, 1, (size_t)n, out); fflush(out); }
    }
    fclose(out);
    close(fd);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "hold") == 0)
        return hold(argv[2], (unsigned)strtoul(argv[3], NULL, 0), atof(argv[4]));
    if (argc >= 4 && strcmp(argv[1], "watch") == 0)
        return watch(atof(argv[2]), argc - 3, argv + 3);
    if (argc == 3 && strcmp(argv[1], "field") == 0)
        return field(atof(argv[2]));
    if (argc == 5 && strcmp(argv[1], "listen") == 0)
        return listen_stream(argv[2], atof(argv[3]), argv[4]);
    fprintf(stderr, "usage: hil-tool hold CHIPDEV OFFSET SECONDS | watch MILLISECONDS FILE... | field HEADING_DEG | listen SOCKET SECONDS FILE\n");
    return 2;
}
