/*
 * A stand-in for libnvidia-ml.so, built by NvmlSourceTest with gcc: the NVML functions GPUForge calls, answering
 * values and errors the test scripts through stub_set()/stub_fail(). Built twice: as a current driver, and with
 * -DOLD_DRIVER as one without nvmlDeviceGetCurrentClocksEventReasons (it has the older ...ThrottleReasons) and
 * without nvmlDeviceGetFanSpeed (a missing symbol).
 */
#include <string.h>
#include <stdio.h>

typedef struct { int index; } dev_t_;
static dev_t_ devices[4] = {{0}, {1}, {2}, {3}};
static long long values[4][32];
static int errors[4][32];
static unsigned int count = 1;

enum { TEMP, SHUT, SLOW, POWER, LIMIT, MINL, MAXL, UTIL, MUTIL, MTOTAL, MUSED, FAN, SM, MEM, REASONS };

void stub_set(int gpu, int key, long long v) { values[gpu][key] = v; }
void stub_fail(int gpu, int key, int rc) { errors[gpu][key] = rc; }
void stub_count(unsigned int n) { count = n; }

int nvmlInit_v2(void) { return 0; }
int nvmlShutdown(void) { return 0; }
const char *nvmlErrorString(int rc) { return rc == 3 ? "Not Supported" : rc == 15 ? "GPU is lost" : "Unknown Error"; }
int nvmlDeviceGetCount_v2(unsigned int *n) { *n = count; return 0; }
int nvmlDeviceGetHandleByIndex_v2(unsigned int i, dev_t_ **d) { if (i >= count) return 2; *d = &devices[i]; return 0; }
int nvmlDeviceGetName(dev_t_ *d, char *buf, unsigned int len) { snprintf(buf, len, "NVIDIA GeForce RTX 3090"); return 0; }
int nvmlDeviceGetUUID(dev_t_ *d, char *buf, unsigned int len) {
    snprintf(buf, len, "GPU-0000000%d-aaaa-bbbb-cccc-dddddddddddd", d->index); return 0; }

#define ONE(name, key) int name(dev_t_ *d, unsigned int *v) { \
    if (errors[d->index][key]) return errors[d->index][key]; *v = (unsigned int) values[d->index][key]; return 0; }
ONE(nvmlDeviceGetPowerUsage, POWER)
ONE(nvmlDeviceGetEnforcedPowerLimit, LIMIT)
#ifndef OLD_DRIVER
ONE(nvmlDeviceGetFanSpeed, FAN)
#endif

int nvmlDeviceGetTemperature(dev_t_ *d, int sensor, unsigned int *v) {
    if (errors[d->index][TEMP]) return errors[d->index][TEMP]; *v = (unsigned int) values[d->index][TEMP]; return 0; }
int nvmlDeviceGetTemperatureThreshold(dev_t_ *d, int type, unsigned int *v) {
    int k = type == 0 ? SHUT : SLOW; if (errors[d->index][k]) return errors[d->index][k];
    *v = (unsigned int) values[d->index][k]; return 0; }
int nvmlDeviceGetPowerManagementLimitConstraints(dev_t_ *d, unsigned int *mn, unsigned int *mx) {
    *mn = (unsigned int) values[d->index][MINL]; *mx = (unsigned int) values[d->index][MAXL]; return 0; }
int nvmlDeviceGetUtilizationRates(dev_t_ *d, unsigned int *u) {
    u[0] = (unsigned int) values[d->index][UTIL]; u[1] = (unsigned int) values[d->index][MUTIL]; return 0; }
int nvmlDeviceGetMemoryInfo(dev_t_ *d, unsigned long long *m) {
    m[0] = values[d->index][MTOTAL]; m[2] = values[d->index][MUSED]; m[1] = m[0] - m[2]; return 0; }
int nvmlDeviceGetClockInfo(dev_t_ *d, int type, unsigned int *v) {
    *v = (unsigned int) values[d->index][type == 1 ? SM : MEM]; return 0; }
#ifdef OLD_DRIVER
int nvmlDeviceGetCurrentClocksThrottleReasons(dev_t_ *d, unsigned long long *v) { *v = values[d->index][REASONS]; return 0; }
#else
int nvmlDeviceGetCurrentClocksEventReasons(dev_t_ *d, unsigned long long *v) { *v = values[d->index][REASONS]; return 0; }
#endif
int nvmlDeviceSetPowerManagementLimit(dev_t_ *d, unsigned int mw) {
    if (mw < values[d->index][MINL] || mw > values[d->index][MAXL]) return 2;
    values[d->index][LIMIT] = mw; return 0; }
