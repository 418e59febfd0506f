// Times VQF's C++ implementation over an imu-trace v1 recording, the way `headtrack bench` times its own
// attitude filter: a fresh filter per pass, every sample through update(gyr, acc, mag), CPU time of this
// thread, median of N passes, nanoseconds per sample. Built and run by scripts/bench-vs-vqf.sh against the
// vqf.cpp/vqf.hpp of the `vqf` package from PyPI (nothing of VQF is kept in this repository).
//
// usage: vqf-harness TRACE.csv [PASSES]      prints "vqf_ns_per_sample <median>" and the sample count
#include "vqf.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct Sample {
    double acc[3], gyr[3], mag[3];
    bool hasMag;
};

// Reads the columns t,ax,ay,az,gx,gy,gz,mx,my,mz,... of an imu-trace v1 file, and its rate_hz header.
bool readTrace(const char* path, std::vector<Sample>& samples, double& rateHz) {
    std::ifstream in(path);
    if (!in) return false;
    std::string line;
    bool header = false;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        if (line[0] == '#') {
            const char* key = "# rate_hz:";
            if (line.compare(0, std::strlen(key), key) == 0) rateHz = std::atof(line.c_str() + std::strlen(key));
            continue;
        }
        if (!header) { header = true; continue; }  // the column names
        Sample s{};
        double v[10];
        bool present[10];
        const char* p = line.c_str();
        for (int i = 0; i < 10; i++) {
            char* end = nullptr;
            v[i] = std::strtod(p, &end);
            present[i] = end != p;
            p = end;
            while (*p && *p != ',') p++;
            if (*p == ',') p++;
        }
        for (int i = 0; i < 3; i++) { s.acc[i] = v[1 + i]; s.gyr[i] = v[4 + i]; s.mag[i] = v[7 + i]; }
        s.hasMag = present[7] && present[8] && present[9];
        if (!(present[1] && present[2] && present[3] && present[4] && present[5] && present[6])) continue;
        samples.push_back(s);
    }
    return header && !samples.empty() && rateHz > 0;
}

double threadNanoseconds() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e9 + double(ts.tv_nsec);
}

// One pass with a fresh filter; never inlined, so callgrind can count exactly this function.
__attribute__((noinline)) double vqfPass(const std::vector<Sample>& samples, double ts) {
    VQF filter(ts);
    for (const Sample& s : samples) {
        if (s.hasMag) filter.update(s.gyr, s.acc, s.mag); else filter.update(s.gyr, s.acc);
    }
    double q[4];
    filter.getQuat9D(q);
    return q[0];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: vqf-harness TRACE.csv [PASSES]\n");
        return 2;
    }
    int passes = argc == 3 ? std::atoi(argv[2]) : 9;
    if (passes < 1 || passes > 101) {
        std::fprintf(stderr, "vqf-harness: PASSES must be 1...101\n");
        return 2;
    }
    std::vector<Sample> samples;
    double rateHz = 0;
    if (!readTrace(argv[1], samples, rateHz)) {
        std::fprintf(stderr, "vqf-harness: cannot read %s as an imu-trace v1 recording with rate_hz\n", argv[1]);
        return 1;
    }
    std::vector<double> perSample;
    double sink = 0;
    for (int i = 0; i < passes; i++) {
        double start = threadNanoseconds();
        sink += vqfPass(samples, 1.0 / rateHz);
        perSample.push_back((threadNanoseconds() - start) / double(samples.size()));
    }
    std::sort(perSample.begin(), perSample.end());
    double median = passes % 2 ? perSample[passes / 2] : (perSample[passes / 2 - 1] + perSample[passes / 2]) / 2;
    std::printf("vqf_ns_per_sample %.1f\nsamples %zu\nsink %.6f\n", median, samples.size(), sink);
    return 0;
}
