/*
 * fuzz_device.c - fuzz the device-file loader (gp_device_load_text).
 *
 * Input: the text of a device file, not NUL-terminated. Every input must be
 * rejected with "fuzz.ini:LINE: ..." or load; a device that loads is then
 * put through its plugin (fuzz_common.h): occupancy of edge launches and
 * predictions of every kind of op, which must come out finite.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The message names the file and a line: "fuzz.ini:12: ...". */
static void check_where(const char *msg)
{
    const char *p = msg + strlen("fuzz.ini:");
    if (strncmp(msg, "fuzz.ini:", strlen("fuzz.ini:")) != 0 || *p < '1' || *p > '9')
        fz_fail("device error without file:line: %s", msg);
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p != ':')
        fz_fail("device error without file:line: %s", msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_device_t dev;
    const gp_arch_t *arch = NULL;
    gp_err_t err;
    char *text;
    text = fz_copy_input(data, size);
    if (!text)
        return 0;
    err.msg[0] = '\0';
    if (gp_device_load_text("fuzz.ini", text, size, &dev, &arch, &err) == 0) {
        if (!arch || dev.sm_count == 0 || dev.warp_size == 0 || !(dev.core_clock_mhz > 0))
            fz_fail("a device loaded without its plugin or basic values");
        fz_exercise_device(&dev, arch);
    } else {
        check_where(err.msg);
    }
    free(text);
    return 0;
}
